"""`tensorboard`, `wandb`, `csv_monitor` and `comet`: where DeepSpeed sends its training metrics."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import option


class TensorBoardConfig(StrictSection):
    """Writes DeepSpeed's training metrics as TensorBoard event files, from rank 0 only.

    At each optimizer step the engine records the learning rate (and the loss scale with fp16); with
    `wall_clock_breakdown` or `flops_profiler` on it adds forward, backward and step times, and the pipeline engine also
    records the training loss. The x-axis is the number of samples consumed. Needs the `tensorboard` package; the files
    go to `output_path`/`job_name`.
    """

    ds_class = "deepspeed.monitor.config.TensorBoardConfig"

    enabled: bool = option(
        False,
        description="Write the training metrics as TensorBoard event files on rank 0. Needs the `tensorboard` "
        "package: without it the engine fails at start-up with an ImportError.",
        example=True,
    )
    output_path: str = option(
        "",
        docs_default=None,
        description="Directory under which the event files are written; the empty default means the directory the "
        "training script is launched from. Must be a string: null is rejected.",
        example="logs/tensorboard/",
    )
    job_name: str = option(
        "DeepSpeedJobName",
        description="Name of this run; it becomes a subdirectory of output_path.",
        example="bert_pretrain",
    )


class WandbConfig(StrictSection):
    """Sends DeepSpeed's training metrics to Weights & Biases from rank 0.

    The metrics are those listed under `tensorboard` (learning rate, fp16 loss scale, timings with
    `wall_clock_breakdown`), logged against the number of samples consumed. Needs the `wandb` package and a logged-in
    account (or `WANDB_API_KEY`).
    """

    ds_class = "deepspeed.monitor.config.WandbConfig"

    enabled: bool = option(
        False,
        description="Send the training metrics to Weights & Biases; rank 0 calls wandb.init with `project`, `group` "
        "and `team` when the engine is created. Needs the `wandb` package (an ImportError at start-up otherwise) and "
        "a logged-in account or WANDB_API_KEY.",
        example=True,
    )
    group: str | None = option(
        None,
        example="llama-7b-sweep",
        description="W&B group the run is filed under, to collect related runs together; null means no group.",
    )
    team: str | None = option(
        None,
        example="my-team",
        description="W&B team (entity) that owns the run; null uses the logged-in user's default entity.",
    )
    project: str = option(
        "deepspeed",
        description="W&B project the run is logged to.",
        example="my_project",
    )


class CSVConfig(StrictSection):
    """Writes DeepSpeed's training metrics to plain CSV files from rank 0: one file per metric, each row holding the
    number of samples consumed and the value.

    The metrics are those listed under `tensorboard`. Files are opened for appending, so a rerun with the same
    `output_path` and `job_name` adds rows (and another header) to the old files.
    """

    ds_class = "deepspeed.monitor.config.CSVConfig"

    enabled: bool = option(
        False,
        description="Write the training metrics to CSV files on rank 0, one file per metric; needs no extra package.",
        example=True,
    )
    output_path: str = option(
        "",
        docs_default=None,
        description="Directory under which the CSV files are written; the empty default means the directory the "
        "training script is launched from. Must be a string: null is rejected.",
        example="logs/csv/",
    )
    job_name: str = option(
        "DeepSpeedJobName",
        description="Name of this run; it becomes a subdirectory of output_path.",
        example="bert_pretrain",
    )


class CometConfig(StrictSection):
    """Sends DeepSpeed's training metrics to a Comet experiment from rank 0.

    Needs the `comet_ml` package. Options left null fall back to Comet's own configuration (its config file or
    `COMET_*` environment variables).
    """

    ds_class = "deepspeed.monitor.config.CometConfig"

    enabled: bool = option(
        False,
        description="Send the training metrics to a Comet experiment from rank 0, started with this section's "
        "settings when the engine is created. Needs `comet_ml` 3.41.0 or newer (an ImportError at start-up otherwise).",
        example=True,
    )
    samples_log_interval: int = option(
        100,
        unit="samples",
        description="A metric is sent to Comet at most once per this many training samples.",
        example=1000,
    )
    project: str | None = option(
        None,
        example="my-project",
        description="Comet project name; null leaves it to Comet's configuration (COMET_PROJECT_NAME).",
    )
    workspace: str | None = option(
        None,
        example="my-workspace",
        description="Comet workspace name; null leaves it to Comet's configuration (COMET_WORKSPACE).",
    )
    api_key: str | None = option(
        None,
        example="your-comet-api-key",
        description="Comet API key; null leaves it to Comet's configuration (COMET_API_KEY), which keeps the secret "
        "out of the config file.",
    )
    experiment_name: str | None = option(
        None,
        example="llama-7b-zero3",
        description="Display name given to the Comet experiment; null keeps Comet's generated name.",
    )
    experiment_key: str | None = option(
        None,
        requires=(("comet.mode", "get"),),
        example="0123456789abcdef0123456789abcdef",
        description="Key of the Comet experiment to log to (Comet requires 32 to 50 alphanumeric characters); "
        "use it with mode 'get' to continue an existing experiment.",
    )
    online: bool | None = option(
        None,
        example=False,
        description="True logs to the Comet server, false stores an offline experiment locally; null lets Comet "
        "decide (online).",
    )
    mode: str | None = option(
        None,
        description="How the experiment is started: 'get' (continue the one named by experiment_key), 'create' "
        "(always new) or 'get_or_create'; DeepSpeed passes the value to Comet unchecked, null means Comet's "
        "default (get_or_create).",
        example="get_or_create",
    )


class MonitorOptions(Section):
    """Top-level fields contributed by this module."""

    tensorboard: TensorBoardConfig = option(
        default_factory=TensorBoardConfig,
        since="0.1.0",
    )
    wandb: WandbConfig = option(
        default_factory=WandbConfig,
        since="0.6.6",
    )
    csv_monitor: CSVConfig = option(
        default_factory=CSVConfig,
        since="0.6.6",
    )
    comet: CometConfig = option(
        default_factory=CometConfig,
        since="0.14.3",
    )
