"""Rules about checks that older DeepSpeed releases make while they read the config and 0.19.8 no longer makes:
compression training's groups and head count, elasticity's batch sizes, the sparse attention mode. Each is declared
``retired``: it applies only at the releases whose recorded verdicts on its example and repair show the check
(:func:`dsref.tree.rule_releases.holds_at`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..findings import Example, Severity
from . import Context, Hit, rule
from ._common import mapping

_METHODS = (
    "weight_quantization",
    "activation_quantization",
    "sparse_pruning",
    "row_pruning",
    "head_pruning",
    "channel_pruning",
)


def _switched_on(section: Any) -> bool:
    """Whether DeepSpeed's ``get_scalar_param`` reading of ``enabled`` is true: any value Python takes as true."""
    return isinstance(section, dict) and bool(section.get("enabled", False))


def _shared(ctx: Context, method: str) -> Any:
    found = mapping(ctx, f"compression_training.{method}")
    return None if found is None else found.get("shared_parameters")


@rule(
    "DS590",
    "compression-method-without-groups",
    Severity.error,
    message="compression_training.{method} is switched on but has no different_groups",
    explanation=(
        "The DeepSpeed releases that still have compression training build its section while they read the "
        "config, and for each compression method whose `shared_parameters.enabled` is true they assert that the "
        "method also has a `different_groups` section, which says which modules the method applies to and with "
        "what parameters (sparse pruning with the `snip_momentum` method is the exception). Without it the config "
        "is refused before training starts. Add `different_groups` naming the modules, or switch the method off. "
        "dsref applies this check only at the releases recorded making it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "compression_training": {
            "weight_quantization": {"shared_parameters": {"enabled": true}}
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "compression_training": {
            "weight_quantization": {
              "shared_parameters": {"enabled": true},
              "different_groups": {
                "wq1": {"params": {"start_bits": 8, "target_bits": 8}, "modules": ["attention.self"]}
              }
            }
          }
        }
        """,
        deepspeed_version="0.19.6",
    ),
    needs=("compression_training",),
    retired=True,
)
def compression_method_without_groups(ctx: Context) -> Iterator[Hit]:
    for method in _METHODS:
        shared = _shared(ctx, method)
        if not _switched_on(shared):
            continue
        if method == "sparse_pruning" and shared.get("method") == "snip_momentum":
            continue  # the one method that needs no groups
        section = mapping(ctx, f"compression_training.{method}")
        if section is not None and "different_groups" not in section:
            path = f"compression_training.{method}.shared_parameters.enabled"
            yield Hit(ctx.where(path), path, {"method": method})


@rule(
    "DS591",
    "head-pruning-without-num-heads",
    Severity.error,
    message="compression_training.head_pruning is switched on but shared_parameters.num_heads is not set",
    explanation=(
        "The DeepSpeed releases that still have compression training assert, while they read the config, that "
        "head pruning with `shared_parameters.enabled` true also gives the model's number of attention heads in "
        "`shared_parameters.num_heads`: it has no default, and the config is refused without it. Set it to the "
        "number of heads of each attention layer. dsref applies this check only at the releases recorded making it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "compression_training": {
            "head_pruning": {
              "shared_parameters": {"enabled": true},
              "different_groups": {"hp1": {"params": {"dense_ratio": 0.5}, "modules": ["attention.output.dense"]}}
            }
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "compression_training": {
            "head_pruning": {
              "shared_parameters": {"enabled": true, "num_heads": 12},
              "different_groups": {"hp1": {"params": {"dense_ratio": 0.5}, "modules": ["attention.output.dense"]}}
            }
          }
        }
        """,
        deepspeed_version="0.19.6",
    ),
    needs=("compression_training",),
    retired=True,
)
def head_pruning_without_num_heads(ctx: Context) -> Iterator[Hit]:
    shared = _shared(ctx, "head_pruning")
    if _switched_on(shared) and "num_heads" not in shared:
        path = "compression_training.head_pruning.shared_parameters.enabled"
        yield Hit(ctx.where(path), path)


@rule(
    "DS592",
    "elasticity-without-batch-sizes",
    Severity.error,
    message="elasticity is switched on but {missing} is not set",
    explanation=(
        "In the DeepSpeed releases that still have elasticity, `elasticity.enabled` true makes the config reader "
        "compute the batch size from the elasticity section first, and that needs both `max_train_batch_size` (the "
        "largest global batch to allow) and `micro_batch_sizes` (the micro batch sizes a GPU may run): with either "
        "one missing the config is refused. Set both, or switch elasticity off. dsref applies this check only at "
        "the releases recorded making it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "elasticity": {"enabled": true, "micro_batch_sizes": [2, 4], "ignore_non_elastic_batch_info": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "elasticity": {
            "enabled": true,
            "max_train_batch_size": 16,
            "micro_batch_sizes": [2, 4],
            "ignore_non_elastic_batch_info": true
          }
        }
        """,
        deepspeed_version="0.19.7",
    ),
    needs=("elasticity",),
    retired=True,
)
def elasticity_without_batch_sizes(ctx: Context) -> Iterator[Hit]:
    section = mapping(ctx, "elasticity")
    if not _switched_on(section):
        return
    assert section is not None
    missing = [key for key in ("max_train_batch_size", "micro_batch_sizes") if key not in section]
    if missing:
        yield Hit(ctx.where("elasticity.enabled"), "elasticity.enabled", {"missing": f"elasticity.{missing[0]}"})


@rule(
    "DS593",
    "sparse-attention-unknown-mode",
    Severity.error,
    message="sparse_attention.mode {value} is not a sparsity mode DeepSpeed implements ({allowed})",
    explanation=(
        "The DeepSpeed releases that still have sparse attention build its settings from `sparse_attention` by "
        "its `mode` while they read the config, and raise NotImplementedError for any mode they do not know, so "
        "the config is refused. Write one of the modes listed. dsref applies this check only at the releases "
        "recorded making it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "sparse_attention": {"mode": "sliding"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "sparse_attention": {"mode": "fixed"}
        }
        """,
        deepspeed_version="0.19.6",
        also=("DS204",),  # the schema lists the modes too: an unknown one is a warning of its own
    ),
    needs=("sparse_attention",),
    retired=True,
)
def sparse_attention_unknown_mode(ctx: Context) -> Iterator[Hit]:
    section = mapping(ctx, "sparse_attention")
    path = "sparse_attention.mode"
    if section is None or "mode" not in section or path not in ctx.tree:
        return
    allowed = ctx.tree.get(path).allowed or ()
    value = section["mode"]
    if not isinstance(value, str) or value not in allowed:
        shown = f'"{value}"' if isinstance(value, str) else str(value)
        yield Hit(ctx.where(path), path, {"value": shown, "allowed": ", ".join(str(a) for a in allowed)})
