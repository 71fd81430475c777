"""The submission of dsref's editor schema to SchemaStore (https://www.schemastore.org), kept in step with the schema.

SchemaStore serves a schema at ``https://www.schemastore.org/<name>.json`` and lists it in its catalog, from which
editors (VS Code's YAML and TOML extensions, JetBrains IDEs, Neovim's SchemaStore.nvim, Zed, …) pick the schema by
file name. A submission is a schema file, a catalog entry, the keywords SchemaStore's Ajv (strict mode) must be
told about, and positive and negative test files, laid out as in SchemaStore's repository under
``editors/schemastore/`` (its README says how to send it). :func:`submission_files` writes all of them from the
schema; ``tests/unit/generator/test_generated.py`` keeps the committed copy current and
``tests/functional/test_schemastore.py`` runs Ajv and
Prettier on it as SchemaStore's CI does.

The schema submitted is the Hugging Face one: it accepts ``"auto"`` where Hugging Face fills it, so the many
configs written for the Trainer and Accelerate get no false error, and it is otherwise the same.
"""

from __future__ import annotations

from typing import Any

from .jsonschema import build_schema
from .prettier_json import format_json

__all__ = [
    "CATALOG_NAME",
    "FILE_MATCH",
    "NEGATIVE_TESTS",
    "POSITIVE_TESTS",
    "SCHEMASTORE_URL",
    "SCHEMA_NAME",
    "SCHEMA_URL",
    "submission_files",
]

SCHEMA_NAME = "ds-config"
"""The schema's name at SchemaStore: ``src/schemas/json/ds-config.json``, served as ``ds-config.json``."""

SCHEMASTORE_URL = "https://www.schemastore.org/"
"""Where SchemaStore serves the schemas it hosts. Its ``cli.js check`` finds a schema's catalog entry by this prefix
(or its raw GitHub folder) and the file name: an entry under the older ``https://json.schemastore.org/`` fails with
"Expected schema file … to have a corresponding entry in the catalog file"."""

SCHEMA_URL = f"{SCHEMASTORE_URL}{SCHEMA_NAME}.json"
"""The catalog entry's ``url`` and the schema's ``$id``."""

CATALOG_NAME = "DeepSpeed config"

FILE_MATCH = ("ds_config*.json", "ds-config*.json", "deepspeed_config*.json", "ds_zero*.json", "deepspeed_zero*.json")
"""The file names editors apply the schema to: the names DeepSpeed's and Hugging Face's examples use, specific
enough never to claim an unrelated file (``config.json``, ``zero3.json`` are left out)."""

VSCODE_KEYWORDS = ("deprecationMessage", "doNotSuggest", "errorMessage")
"""VS Code's keywords the schema uses that SchemaStore's Ajv does not know by itself (``markdownDescription``,
``enumDescriptions`` and ``defaultSnippets`` it knows)."""

POSITIVE_TESTS: dict[str, dict[str, Any]] = {
    "zero2-bf16-adamw": {
        "bf16": {"enabled": True},
        "gradient_accumulation_steps": 4,
        "gradient_clipping": 1.0,
        "optimizer": {"params": {"betas": [0.9, 0.95], "lr": 3e-4, "weight_decay": 0.1}, "type": "AdamW"},
        "scheduler": {
            "params": {"total_num_steps": 20000, "warmup_max_lr": 3e-4, "warmup_min_lr": 0, "warmup_num_steps": 500},
            "type": "WarmupDecayLR",
        },
        "train_micro_batch_size_per_gpu": 8,
        "zero_optimization": {"contiguous_gradients": True, "overlap_comm": True, "stage": 2},
    },
    "zero3-offload-fp16": {
        "fp16": {"enabled": True, "initial_scale_power": 16, "loss_scale": 0, "loss_scale_window": 1000},
        "train_batch_size": 64,
        "train_micro_batch_size_per_gpu": 2,
        "zero_optimization": {
            "offload_optimizer": {"device": "cpu", "pin_memory": True},
            "offload_param": {"device": "cpu", "pin_memory": True},
            "stage": 3,
            "stage3_gather_16bit_weights_on_model_save": True,
            "stage3_max_live_parameters": 1000000000,
            "stage3_prefetch_bucket_size": 50000000,
        },
    },
    "huggingface-auto": {
        "bf16": {"enabled": "auto"},
        "gradient_accumulation_steps": "auto",
        "gradient_clipping": "auto",
        "optimizer": {"params": {"lr": "auto", "weight_decay": "auto"}, "type": "AdamW"},
        "train_batch_size": "auto",
        "train_micro_batch_size_per_gpu": "auto",
        "zero_optimization": {"reduce_bucket_size": "auto", "stage": 3, "stage3_prefetch_bucket_size": "auto"},
    },
}
"""Configs the schema must accept (keys sorted, as SchemaStore's formatter sorts test files)."""

NEGATIVE_TESTS: dict[str, dict[str, Any]] = {
    "stage-out-of-range": {"train_batch_size": 16, "zero_optimization": {"stage": 4}},
    "offload-device-gpu": {"train_batch_size": 16, "zero_optimization": {"offload_optimizer": {"device": "gpu"}}},
    "misspelled-key-in-zero": {"train_batch_size": 16, "zero_optimization": {"stage": 2, "stgae": 2}},
    "batch-size-as-text": {"train_batch_size": "sixteen"},
}
"""Configs the schema must refuse, each for one reason its name gives."""


def schema() -> dict[str, Any]:
    """The schema as SchemaStore hosts it: dsref's Hugging Face schema with SchemaStore's ``$id``."""
    built = build_schema("en", "hf")
    return {**built, "$id": SCHEMA_URL}


def catalog_entry() -> dict[str, Any]:
    """The entry for SchemaStore's ``src/api/json/catalog.json`` (in the key order its formatter keeps)."""
    return {
        "name": CATALOG_NAME,
        "description": "DeepSpeed training configuration (ds_config.json), as DeepSpeed and Hugging Face read it",
        "fileMatch": list(FILE_MATCH),
        "url": SCHEMA_URL,
    }


def validation_options() -> dict[str, Any]:
    """The entry for the ``options`` of SchemaStore's ``src/schema-validation.jsonc``."""
    return {f"{SCHEMA_NAME}.json": {"unknownKeywords": list(VSCODE_KEYWORDS)}}


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _sorted(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted(item) for item in value]
    return value


def submission_files() -> dict[str, str]:
    """Every file of the submission, by its path under ``editors/schemastore/``, formatted as Prettier formats it."""
    files = {
        f"src/schemas/json/{SCHEMA_NAME}.json": format_json(schema()),
        "src/api/json/catalog-entry.json": format_json(catalog_entry()),
        "src/schema-validation-options.json": format_json(validation_options()),
    }
    for name, config in POSITIVE_TESTS.items():
        files[f"src/test/{SCHEMA_NAME}/{name}.json"] = format_json(_sorted(config))
    for name, config in NEGATIVE_TESTS.items():
        files[f"src/negative_test/{SCHEMA_NAME}/{name}.json"] = format_json(_sorted(config))
    return files
