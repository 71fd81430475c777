"""`autotuning`: the DeepSpeed autotuner, which searches ZeRO stages and batch sizes for the fastest setup."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, Section
from ._meta import option

_C = "deepspeed.autotuning.constants."


class ModelInfoConfig(DictSection):
    """Facts about the model that the autotuner would otherwise measure in a separate profiling run.

    Giving this section at all (not null) skips that profiling run, so `num_params` should then be set. The
    autotuner itself writes `{"profile": true}` here for its profiling run.
    """

    profile: bool = option(
        False,
        ds_constant=_C + "MODEL_INFO_PROFILE_DEFAULT",
        description="Makes the engine (with autotuning enabled) record the parameter count and activation memory "
        "and write them to model_info_path; the autotuner sets it for its own profiling run.",
    )
    num_params: int | None = option(
        None,
        unit="parameters",
        ds_constant=_C + "MODEL_INFO_NUM_PARAMS_DEFAULT",
        description="Total number of model parameters, used to estimate the memory each ZeRO stage needs.",
        example=1000000000,
    )
    hidden_size: int | None = option(
        None,
        ds_constant=_C + "MODEL_INFO_HIDDEN_SIZE_DEFAULT",
        description="Hidden size of the model; under ZeRO-3 it sets the bucket size and persistence threshold of "
        "the tried configurations.",
        example=1024,
    )
    num_layers: int | None = option(
        None,
        unit="layers",
        parsed_unused=True,
        ds_constant=_C + "MODEL_INFO_NUM_LAYERS_DEFAULT",
        description="Number of layers of the model; read, but nothing in DeepSpeed 0.19.8 uses it.",
        example=24,
    )


class AutotuningConfig(DictSection):
    """Settings of the autotuner started with `deepspeed --autotuning tune|run`.

    The autotuner launches short experiments with different ZeRO stages, micro-batch sizes and ZeRO settings,
    reads back the measured metric and reports (or, with `run`, trains with) the best configuration. Inside each
    experiment `enabled` makes the engine profile a few steps, write the metrics and exit.
    """

    enabled: bool = option(
        False,
        ds_constant=_C + "AUTOTUNING_ENABLED_DEFAULT",
        description="Puts the engine in autotuning mode: it profiles steps start_profile_step to end_profile_step, "
        "writes the metrics to metric_path and exits; set true when running the autotuner.",
        example=True,
    )
    fast: bool = option(
        True,
        ds_constant=_C + "AUTOTUNING_FAST_DEFAULT",
        description="Tunes only the micro-batch size per ZeRO stage; false also searches the other ZeRO settings "
        "(bucket sizes, overlap_comm, …), which takes much longer.",
    )
    results_dir: str = option(
        "autotuning_results",
        enforced=True,
        min_length=1,
        ds_constant=_C + "AUTOTUNING_RESULTS_DIR_DEFAULT",
        description="Directory where the autotuner keeps each experiment's logs and metrics (one subdirectory per "
        "experiment) and, at the end, summary.txt, ds_config_optimal.json and cmd_optimal.txt. In a multi-node job it "
        "must be reachable from every node; must not be empty.",
        example="outputs/autotuning_results",
    )
    exps_dir: str = option(
        "autotuning_exps",
        enforced=True,
        min_length=1,
        ds_constant=_C + "AUTOTUNING_EXPS_DIR_DEFAULT",
        description="Directory where the autotuner writes the JSON description of each experiment before launching "
        "it. In a multi-node job it must be reachable from every node; must not be empty.",
        example="outputs/autotuning_exps",
    )
    overwrite: bool = option(
        True,
        docs_default=False,
        ds_constant=_C + "AUTOTUNING_OVERWRITE_DEFAULT",
        description="Delete `results_dir` and `exps_dir` before tuning starts. With false, earlier results are kept "
        "and experiments whose results already exist are skipped, so an interrupted tuning run can be resumed.",
    )
    start_profile_step: int = option(
        3,
        unit="steps",
        ds_constant=_C + "AUTOTUNING_START_PROFILE_STEP_DEFAULT",
        description="Step at which each experiment starts measuring (earlier steps are warm-up); the FLOPs "
        "profiler also runs at this step.",
        example=5,
    )
    end_profile_step: int = option(
        5,
        unit="steps",
        ds_constant=_C + "AUTOTUNING_END_PROFILE_STEP_DEFAULT",
        description="Last step measured in each experiment; the experiment writes its metrics and exits after it.",
        example=10,
    )
    metric: Literal["latency", "throughput", "flops"] = option(
        "throughput",
        ds_constant=_C + "AUTOTUNING_METRIC_DEFAULT",
        description="Measurement by which the autotuner ranks experiments, always keeping the one with the highest "
        "value. Leave it at throughput: in 0.19.8 the other two values do not work as their names suggest.",
        enum_docs=(
            ("throughput", "Training samples per second."),
            (
                "latency",
                "Time of one training iteration. Beware: the autotuner keeps the configuration with the highest value, "
                "so with latency it picks the slowest one.",
            ),
            (
                "flops",
                "FLOPs per second per GPU; DeepSpeed 0.19.8 writes this metric under another name, so looking up "
                "'flops' in the results fails.",
            ),
        ),
        example="latency",
    )
    metric_path: str | None = option(
        None,
        no_example="filled_in",
        ds_constant=_C + "AUTOTUNING_METRIC_PATH_DEFAULT",
        default_note="When null, the metrics are written to autotuning_metric.json in the current directory.",
        description="File to which an experiment writes its measured metrics; the autotuner sets it for each "
        "experiment.",
    )
    tuner_type: Literal["gridsearch", "random", "model_based"] = option(
        "gridsearch",
        docs_default="model_based",
        ds_constant=_C + "AUTOTUNING_TUNER_TYPE_DEFAULT",
        description="How the autotuner picks the next configuration to try from the search space.",
        enum_docs=(
            ("gridsearch", "Tries the configurations in order (also used for any unrecognised value)."),
            ("random", "Tries the configurations in random order."),
            ("model_based", "Fits a cost model to the results so far and tries the most promising configuration next."),
        ),
        example="model_based",
    )
    tuner_early_stopping: int = option(
        5,
        ds_constant=_C + "AUTOTUNING_TUNER_EARLY_STOPPING_DEFAULT",
        description="Stop searching a tuning space once this many experiments have run since the best one so far "
        "without beating it; lower values finish sooner but may miss a better setup.",
        example=10,
    )
    tuner_num_trials: int = option(
        50,
        ds_constant=_C + "AUTOTUNING_TUNER_NUM_TRIALS_DEFAULT",
        description="Maximum number of experiments run per tuning space (the ZeRO settings tried for one stage); with "
        "`tuner_early_stopping` it bounds how long tuning takes.",
        example=20,
    )
    arg_mappings: dict[str, str] | None = option(
        None,
        ds_constant=_C + "AUTOTUNING_ARG_MAPPINGS_DEFAULT",
        description="Maps DeepSpeed config keys to the command-line arguments of the training script that set "
        "the same value, so the autotuner can pass its choices to the script.",
        example={"train_micro_batch_size_per_gpu": "--per_device_train_batch_size"},
    )
    model_info: ModelInfoConfig | None = option(
        None,
        description="Facts about the model; when given, the autotuner skips its model-profiling run.",
    )
    model_info_path: str | None = option(
        None,
        no_example="filled_in",
        ds_constant=_C + "AUTOTUNING_MODEL_INFO_PATH_DEFAULT",
        default_note="When null, the model information is written to autotuning_model_info.json in the current "
        "directory.",
        description="File to which a profiling run writes the model information; the autotuner sets it itself.",
    )
    mp_size: int = option(
        1,
        ge=1,
        ds_constant=_C + "AUTOTUNING_MP_SIZE_DEFAULT",
        description="Model-parallel (tensor-parallel) degree of the training script, which the autotuner needs to "
        "work out per-GPU batch sizes and memory.",
    )
    max_train_batch_size: int | None = option(
        None,
        example=1024,
        unit="samples",
        ds_constant=_C + "AUTOTUNING_MAX_TRAIN_BATCH_SIZE_DEFAULT",
        description="Upper limit on the global batch size the autotuner may choose; null means no limit.",
    )
    min_train_batch_size: int = option(
        1,
        unit="samples",
        parsed_unused=True,
        ds_constant=_C + "AUTOTUNING_MIN_TRAIN_BATCH_SIZE_DEFAULT",
        description="Lower limit on the global batch size; read, but nothing in DeepSpeed 0.19.8 uses it.",
    )
    max_train_micro_batch_size_per_gpu: int = option(
        1024,
        unit="samples",
        ds_constant=_C + "AUTOTUNING_MAX_TRAIN_MICRO_BATCH_SIZE_PER_GPU_DEFAULT",
        description="Largest micro-batch size per GPU the autotuner tries; the search also stays within what "
        "`max_train_batch_size` allows and what its memory estimate says fits. Lower it to shorten tuning when large "
        "micro batches cannot fit.",
        example=64,
    )
    min_train_micro_batch_size_per_gpu: int = option(
        1,
        unit="samples",
        ds_constant=_C + "AUTOTUNING_MIN_TRAIN_MICRO_BATCH_SIZE_PER_GPU_DEFAULT",
        description="Smallest micro-batch size per GPU the autotuner tries.",
        example=2,
    )
    num_tuning_micro_batch_sizes: int = option(
        3,
        ge=1,
        ds_constant=_C + "AUTOTUNING_NUM_TUNING_MICRO_BATCH_SIZES_DEFAULT",
        description="Number of micro-batch sizes between the smallest and the largest runnable one that the "
        "autotuner tries.",
        example=5,
    )


class AutotuningOptions(Section):
    """Top-level fields contributed by this module."""

    autotuning: AutotuningConfig = option(
        default_factory=AutotuningConfig,
        since="0.5.7",
    )
