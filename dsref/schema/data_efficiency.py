"""`data_efficiency`: curriculum data sampling, dynamic batching and random-LTD token routing."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, PassthroughSection, Section
from ._meta import option

_CONSTANTS = "deepspeed.runtime.data_pipeline.constants"


class CurriculumScheduleConfig(PassthroughSection):
    """Parameters of one metric's difficulty schedule; which keys are needed depends on `schedule_type`.

    `fixed_linear` needs `total_curriculum_step` and `difficulty_step`; `fixed_root` also needs
    `root_degree`; `fixed_discrete` needs `difficulty` and `max_step` (one more difficulty than steps);
    `custom` needs none. The dict is handed to the curriculum scheduler as it is.
    """

    total_curriculum_step: int | None = option(
        None,
        unit="steps",
        description="Number of steps over which the difficulty rises from min_difficulty to max_difficulty; "
        "required by fixed_linear and fixed_root.",
        example=15000,
    )
    difficulty_step: int | None = option(
        None,
        description="The scheduled difficulty is rounded down to a multiple of this; required by fixed_linear and "
        "fixed_root. For sequence length keep it a multiple of 8 (fp16) or 16 (int8).",
        example=8,
    )
    root_degree: int | None = option(
        None,
        description="Degree of the root curve of the fixed_root schedule (2 gives a square-root ramp); required "
        "by fixed_root.",
        example=2,
    )
    difficulty: list[int] | None = option(
        None,
        description="The difficulty levels of a fixed_discrete schedule, in order; must hold exactly one more "
        "entry than max_step.",
        example=[1, 2, 3],
    )
    max_step: list[int] | None = option(
        None,
        unit="steps",
        description="For fixed_discrete: the last step of each difficulty level except the final one, which lasts "
        "until the end of training.",
        example=[5, 10],
    )


_SEQLEN_METRIC = {
    "seqlen": {
        "difficulty_type": "value",
        "clustering_type": "single_cluster",
        "min_difficulty": 8,
        "max_difficulty": 1024,
        "schedule_type": "fixed_linear",
        "schedule_config": {"total_curriculum_step": 15000, "difficulty_step": 8},
    }
}
"""One curriculum metric, by sequence length: what curriculum learning needs beside its other keys."""


class CurriculumMetricConfig(PassthroughSection):
    """One curriculum metric (the map key is the metric's name, e.g. `seqlen`): where its data-analysis index
    files are, how its difficulty is measured and how that difficulty grows during training.

    The whole dict is handed to the curriculum scheduler and the data sampler.
    """

    index_to_sample_path: str | None = option(
        None,
        requires=(
            (
                "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.<metric>.clustering_type",
                "schedule_based",
            ),
        ),
        example="/data/analysis/seqlen_index_to_sample",
        description="Path prefix of the index file (from DeepSpeed's data analyzer) that lists the samples of each "
        "metric value; needed unless clustering_type is single_cluster.",
    )
    index_to_metric_path: str | None = option(
        None,
        requires=(
            (
                "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.<metric>.clustering_type",
                "schedule_based",
            ),
        ),
        example="/data/analysis/seqlen_index_to_metric",
        description="Path prefix of the index file holding the metric value of each index row; needed when "
        "difficulty_type is value and clustering_type is not single_cluster.",
    )
    difficulty_type: Literal["value", "percentile"] | None = option(
        None,
        description="Whether difficulties are raw metric values or percentiles of the metric's distribution.",
        enum_docs=(
            ("value", "Difficulties are metric values; samples with a value up to the current difficulty are used."),
            ("percentile", "Difficulties are percentiles (max_difficulty is the top percentile, usually 100)."),
        ),
        example="value",
    )
    clustering_type: Literal["schedule_based", "single_cluster"] | None = option(
        None,
        description="How samples are grouped by this metric: schedule_based builds a new cluster whenever the "
        "difficulty rises, single_cluster keeps all samples in one cluster.",
        example="schedule_based",
    )
    min_difficulty: int | None = option(
        None,
        description="Difficulty the curriculum starts from, in the metric's own unit (e.g. 8 tokens for seqlen) or as "
        "a percentile when difficulty_type is percentile; required.",
        example=8,
    )
    max_difficulty: int | None = option(
        None,
        description="Difficulty reached at the end of the schedule (e.g. the full sequence length, or 100 with "
        "percentile), after which all samples are in use; required.",
        example=1024,
    )
    schedule_type: Literal["fixed_linear", "fixed_root", "fixed_discrete", "custom"] | None = option(
        None,
        enforced=True,
        description="Shape of the difficulty schedule; required. Any other value stops training with an error.",
        enum_docs=(
            ("fixed_linear", "Difficulty grows linearly over total_curriculum_step steps."),
            ("fixed_root", "Difficulty grows along a root curve of degree root_degree (fast at first, then slower)."),
            ("fixed_discrete", "Difficulty jumps through the listed levels at the listed steps."),
            ("custom", "Difficulty comes from a function set with engine.set_custom_curriculum_learning_schedule."),
        ),
        example="fixed_linear",
    )
    schedule_config: CurriculumScheduleConfig | None = option(
        None,
        description="Parameters of the schedule; required for every schedule_type except custom.",
    )


class DataCurriculumLearningConfig(PassthroughSection):
    """Curriculum learning driven by data-analysis metrics: training starts on easy samples and gradually sees
    harder ones, each metric following its own schedule.

    When enabled, every key except `enabled` is handed on to the data sampler.
    """

    enabled: bool = option(
        False,
        description="Turns metric-based curriculum learning on; it then needs curriculum_metrics and "
        "data_cluster_path.",
        ds_constant=f"{_CONSTANTS}.CURRICULUM_LEARNING_ENABLED_DEFAULT",
        example=True,
    )
    data_cluster_path: str | None = option(
        None,
        description="Directory where the sampler writes its sample clusters; created if missing. Required when "
        "curriculum learning is enabled.",
        example="/tmp/data_clusters",
    )
    curriculum_metrics: dict[str, CurriculumMetricConfig] | None = option(
        None,
        map_key="metric",
        example=_SEQLEN_METRIC,
        description="The metrics that define sample difficulty, keyed by metric name; required when curriculum "
        "learning is enabled (asserted while the config is parsed).",
    )


class DynamicBatchingConfig(PassthroughSection):
    """Dynamic batching packs a varying number of sequences into each batch so that it holds at most
    `max_tokens` tokens, and scales the learning rate with the resulting batch size.

    It takes effect through `deepspeed.runtime.data_pipeline.data_sampling.variable_batch_size_and_lr`; the
    dict is copied through with its defaults filled in.
    """

    enabled: bool = option(
        False,
        description="Turn on dynamic batching: sequences are packed into micro batches of up to `max_tokens` tokens "
        "and the learning rate follows each batch's size. It acts only when the training script builds its dataloader "
        "and scheduler with DeepSpeed's variable-batch helper; requires `max_tokens`.",
        ds_constant=f"{_CONSTANTS}.DYNAMIC_BATCHING_ENABLED_DEFAULT",
    )
    metrics_path: str | None = option(
        None,
        example="/data/analysis/seqlen_metric",
        description="Directory with (or to receive) the per-sample sequence-length metric written by the data "
        "analyzer; used when the sequence lengths are not passed in directly.",
    )
    lr_scaling_method: Literal["linear", "sqrt", "none"] = option(
        "linear",
        example="sqrt",
        description="How the learning rate is adjusted to the number of sequences in each batch, relative to "
        "`train_batch_size`: in proportion, with the square root, or not at all (none is matched ignoring case).",
        enum_docs=(
            ("linear", "Learning rate scaled by the ratio of batch sizes."),
            ("sqrt", "Learning rate scaled by the square root of that ratio."),
            ("none", "Learning rate left unchanged."),
        ),
        ds_constant=f"{_CONSTANTS}.DYNAMIC_BATCHING_LR_SCALING_METHOD_DEFAULT",
    )
    min_batch_size: int = option(
        1,
        enforced=True,
        unit="samples",
        description="Smallest number of sequences a micro batch built by dynamic batching may hold.",
        ds_constant=f"{_CONSTANTS}.DYNAMIC_BATCHING_MIN_BATCH_SIZE_DEFAULT",
        example=2,
    )
    max_batch_size: int = option(
        None,
        example=16,
        enforced=True,
        unit="samples",
        default_note="Absent means no limit other than max_tokens; an explicit null makes DeepSpeed fail.",
        description="Largest number of sequences a micro batch built by dynamic batching may hold; unset means no "
        "limit other than `max_tokens`.",
        ds_constant=f"{_CONSTANTS}.DYNAMIC_BATCHING_MAX_BATCH_SIZE_DEFAULT",
    )
    sequence_picking_order: Literal["random", "seqlen", "dataloader"] = option(
        "dataloader",
        example="seqlen",
        description="Order in which sequences are packed into micro batches; seqlen puts sequences of similar length "
        "together, random shuffles them reproducibly with `data_efficiency.seed`.",
        enum_docs=(
            ("dataloader", "The order the dataset yields them."),
            ("random", "A random order."),
            ("seqlen", "Ascending sequence length."),
        ),
        ds_constant=f"{_CONSTANTS}.DYNAMIC_BATCHING_SEQUENCE_PICKING_ORDER_DEFAULT",
    )
    max_tokens: int | None = option(
        None,
        enforced=True,
        enforced_when="data_efficiency.data_sampling.dynamic_batching.enabled",
        unit="tokens",
        description="Token budget of one micro batch: sequences are added while their total length stays within it, "
        "and any sequence longer than the budget is dropped from the dataset with a warning. Required when dynamic "
        "batching is enabled (asserted while the config is parsed).",
        example=4096,
    )
    verbose: bool = option(
        False,
        description="Log how many sequences and tokens each micro batch holds when the batches are built, and the "
        "reference and scaled learning rate at every step; useful for checking the packing, noisy in long runs.",
    )


class DataSamplingConfig(PassthroughSection):
    """Data sampling: DeepSpeed's own data sampler, used for curriculum learning, plus dynamic batching.

    The dict is copied through with its defaults filled in.
    """

    enabled: bool = option(
        False,
        description="Master switch of data sampling, exposed as engine.data_sampling_enabled() for training "
        "scripts; DeepSpeed itself gates curriculum learning and dynamic batching on their own enabled keys.",
        ds_constant=f"{_CONSTANTS}.DATA_SAMPLING_ENABLED_DEFAULT",
    )
    num_epochs: int = option(
        1000,
        description="Number of passes over the dataset that the curriculum data sampler plans samples for; it stops "
        "after that many epochs' worth. The default 1000 is effectively unlimited, and only the curriculum sampler "
        "reads it.",
        ds_constant=f"{_CONSTANTS}.DATA_SAMPLING_NUM_EPOCHS_DEFAULT",
        example=10,
    )
    num_workers: int = option(
        0,
        unit="count",
        description="Number of dataloader worker processes when DeepSpeed builds the dataloader for curriculum "
        "learning or dynamic batching; 0 loads data in the training process itself. Raise it when data loading holds "
        "training back.",
        ds_constant=f"{_CONSTANTS}.DATA_SAMPLING_NUM_WORKERS_DEFAULT",
        example=4,
    )
    pin_memory: bool = option(
        False,
        description="Have the dynamic-batching dataloader return batches in pinned (page-locked) host memory, which "
        "speeds up copying them to the GPU at the cost of locked host memory. Only dynamic batching reads it.",
        ds_constant=f"{_CONSTANTS}.DATA_SAMPLING_PIN_MEMORY_DEFAULT",
    )
    curriculum_learning: DataCurriculumLearningConfig = option(
        default_factory=DataCurriculumLearningConfig,
        requires=(("data_efficiency.data_sampling.curriculum_learning.curriculum_metrics", _SEQLEN_METRIC),),
        description="Curriculum learning: training starts on easy samples and moves to harder ones, as data-analysis "
        "metrics define.",
    )
    dynamic_batching: DynamicBatchingConfig = option(
        default_factory=DynamicBatchingConfig,
        requires=(("data_efficiency.data_sampling.dynamic_batching.max_tokens", 4096),),
        since="0.16.5",
        description="Variable-size batches packed up to a token budget, with the learning rate scaled to each batch.",
    )


class RandomLTDScheduleStepConfig(PassthroughSection):
    """Step parameters of the random-LTD sequence-length schedule."""

    require_steps: int | None = option(
        None,
        unit="steps",
        description="Number of steps over which the kept sequence length grows from min_value to max_value.",
        example=200000,
    )
    seq_per_step: int | None = option(
        None,
        unit="tokens",
        description="The kept sequence length is rounded down to a multiple of this (8 suits fp16).",
        example=16,
    )


class RandomLTDScheduleConfig(PassthroughSection):
    """How many tokens the random-LTD layers keep over the course of training; required when random-LTD is
    enabled."""

    min_value: int | None = option(
        None,
        unit="tokens",
        description="Sequence length the random-LTD layers keep at the start of training.",
        example=128,
    )
    max_value: int | None = option(
        None,
        unit="tokens",
        description="Sequence length kept at the end of the schedule, normally the full sequence length.",
        example=2048,
    )
    schedule_type: Literal["fixed_linear"] | None = option(
        None,
        description="Shape of the schedule; only fixed_linear exists, anything else fails once training runs.",
        example="fixed_linear",
    )
    schedule_config: RandomLTDScheduleStepConfig | None = option(
        None,
        description="Step parameters of the schedule.",
    )


class LayerTokenLRScheduleConfig(PassthroughSection):
    """A learning-rate schedule by consumed layer-tokens for random-LTD. DeepSpeed 0.19.8 does not implement it:
    enabling it while random-LTD is on raises an error, and its other keys are read by nothing.

    When given, the dict must contain `enabled`.
    """

    enabled: bool = option(
        False,
        no_example="refused",
        description="Must stay false while random-LTD is on: the layer-token learning-rate schedule is not "
        "implemented and enabling it raises an error.",
        ds_constant=f"{_CONSTANTS}.RANDOM_LTD_LAYER_TOKEN_LR_ENABLED_DEFAULT",
    )
    total_layer_tokens: int | None = option(
        None,
        parsed_unused=True,
        unit="tokens",
        description="Total layer-tokens of the planned schedule (not used by DeepSpeed 0.19.8).",
    )
    warmup_type: str | None = option(
        None,
        parsed_unused=True,
        description="Warm-up shape of the planned schedule (not used by DeepSpeed 0.19.8).",
    )
    warmup_layer_tokens: int | None = option(
        None,
        parsed_unused=True,
        unit="tokens",
        description="Layer-tokens of warm-up in the planned schedule (not used by DeepSpeed 0.19.8).",
    )


class RandomLTDConfig(PassthroughSection):
    """Random layerwise token dropping (random-LTD): selected middle layers process only a random subset of the
    tokens, a subset that grows to the full sequence over training, which saves compute.

    The model's layers must be converted with `convert_to_random_ltd`. When enabled, every key except
    `enabled` is handed on to the random-LTD scheduler and layers.
    """

    enabled: bool = option(
        False,
        description="Turn random-LTD on; the engine then builds its sequence-length scheduler and needs the other "
        "keys here, above all the layer keys, `model_type`, `hidden_state_order` and `random_ltd_schedule`. The "
        "model's layers must also have been wrapped with `convert_to_random_ltd` in the training script.",
        ds_constant=f"{_CONSTANTS}.RANDOM_LTD_ENABLED_DEFAULT",
        example=True,
    )
    total_layer_num: int | None = option(
        None,
        unit="layers",
        description="Number of layers of the model, used to count consumed layer-tokens.",
        example=24,
    )
    random_ltd_layer_num: int | None = option(
        None,
        unit="layers",
        description="Number of layers that drop tokens; must equal the number of layers matched by "
        "random_ltd_layer_id.",
        example=22,
    )
    random_ltd_layer_id: list[int] | None = option(
        None,
        description="Indices of the layers that drop tokens, looked for in the names of the layers wrapped by "
        "`convert_to_random_ltd`; commonly every layer except the first and the last.",
        example=[1, 2, 3],
    )
    model_mask_name_: str | None = option(
        None,
        alias="model_mask_name",
        description="Name of the keyword argument that carries the attention mask into each layer; null if the "
        "layers take no mask.",
        example="attention_mask",
    )
    model_type_: Literal["decoder", "encoder"] | None = option(
        None,
        alias="model_type",
        description="Whether the model is decoder-only (GPT-like) or encoder-only (BERT-like); this picks how "
        "tokens are sampled.",
        example="decoder",
    )
    hidden_state_order: Literal["batch_seq_dim", "seq_batch_dim"] | None = option(
        None,
        description="Dimension order of the hidden states passed between layers.",
        enum_docs=(
            ("batch_seq_dim", "Shape [batch, sequence, hidden]."),
            ("seq_batch_dim", "Shape [sequence, batch, hidden] (e.g. Megatron)."),
        ),
        example="batch_seq_dim",
    )
    random_ltd_schedule: RandomLTDScheduleConfig | None = option(
        None,
        description="Schedule of the kept sequence length; required when random-LTD is enabled.",
    )
    layer_token_lr_schedule: LayerTokenLRScheduleConfig = option(
        default_factory=LayerTokenLRScheduleConfig,
        description="Layer-token learning-rate schedule; not implemented in DeepSpeed 0.19.8, leave it out.",
    )


class DataRoutingConfig(DictSection):
    """Data routing: techniques that route tokens around parts of the model, currently only random-LTD."""

    enabled: bool = option(
        False,
        description="Master switch of data routing, exposed in the parsed config for training scripts; random-LTD "
        "is gated only on its own enabled key.",
        ds_constant=f"{_CONSTANTS}.DATA_ROUTING_ENABLED_DEFAULT",
    )
    random_ltd: RandomLTDConfig = option(
        default_factory=RandomLTDConfig,
        description="Random layerwise token dropping (random-LTD): chosen layers process only a random subset of the "
        "tokens, growing to the full sequence over training.",
    )


class DataEfficiencyConfig(DictSection):
    """DeepSpeed's data-efficiency library: curriculum learning and dynamic batching on the sampling side, and
    random layerwise token dropping on the routing side. Each feature has its own `enabled` switch.
    """

    enabled: bool = option(
        False,
        description="Master switch of the data-efficiency library, exposed as engine.data_efficiency_enabled() "
        "for training scripts; the features themselves are gated by their own enabled keys.",
        ds_constant=f"{_CONSTANTS}.DATA_EFFICIENCY_ENABLED_DEFAULT",
        example=True,
    )
    seed: int = option(
        1234,
        description="Seed for the random choices of DeepSpeed's curriculum data sampler and of dynamic batching; "
        "change it for a different but reproducible sample order. Model initialisation and dropout are not affected.",
        ds_constant=f"{_CONSTANTS}.DATA_EFFICIENCY_SEED_DEFAULT",
        example=42,
    )
    data_sampling: DataSamplingConfig = option(
        default_factory=DataSamplingConfig,
        description="DeepSpeed's own data sampler: metric-based curriculum learning and token-budget dynamic batching.",
    )
    data_routing: DataRoutingConfig = option(
        default_factory=DataRoutingConfig,
        description="Random layerwise token dropping.",
    )


class DataEfficiencyOptions(Section):
    """Top-level field contributed by this module."""

    data_efficiency: DataEfficiencyConfig = option(
        default_factory=DataEfficiencyConfig,
        since="0.8.0",
    )
