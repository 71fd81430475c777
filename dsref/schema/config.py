"""The whole ``ds_config.json``: every section module's top-level fields, composed.

Each section module contributes the top-level keys it owns through one
``…Options`` class; this module only puts them together. DeepSpeed reads the
top level with ``dict.get``, so unknown top-level keys are ignored (and dsref
reports them).

>>> cfg = DeepSpeedConfig.model_validate({"train_batch_size": 32, "zero_optimization": {"stage": 2}})
>>> cfg.zero_optimization.stage
2
"""

from __future__ import annotations

from typing import ClassVar

from ._base import DictSection, UnknownKeys
from .activation_checkpointing import ActivationCheckpointingOptions
from .aio import AioOptions
from .autotuning import AutotuningOptions
from .batch import BatchOptions
from .bf16 import BF16Options
from .checkpoint import CheckpointOptions
from .comms_logger import CommsLoggerOptions
from .communication import CommunicationOptions
from .compile import CompileOptions
from .data_efficiency import DataEfficiencyOptions
from .data_types import DataTypesOptions
from .expert_parallel import ExpertParallelOptions
from .flops_profiler import FlopsProfilerOptions
from .fp16 import FP16Options
from .general import GeneralOptions
from .hybrid_engine import HybridEngineOptions
from .legacy.amp import AmpOptions
from .legacy.compression_training import CompressionTrainingOptions
from .legacy.curriculum_learning import CurriculumLearningOptions
from .legacy.eigenvalue import EigenvalueOptions
from .legacy.elasticity import ElasticityOptions
from .legacy.nebula import NebulaOptions
from .legacy.progressive_layer_drop import ProgressiveLayerDropOptions
from .legacy.quantize_training import QuantizeTrainingOptions
from .legacy.sparse_attention import SparseAttentionOptions
from .monitor import MonitorOptions
from .optimizer import OptimizerOptions
from .pipeline import PipelineOptions
from .scheduler import SchedulerOptions
from .tensor_parallel import TensorParallelOptions
from .timers import TimersOptions
from .torch_autocast import TorchAutocastOptions
from .weight_quantization import WeightQuantizationOptions
from .zero import ZeroOptions

# Base classes are listed in reverse reading order: pydantic collects fields
# from the last base first, so the first base's fields come first in the tree.
_SECTIONS = (
    # removed sections come last
    QuantizeTrainingOptions,
    EigenvalueOptions,
    ProgressiveLayerDropOptions,
    NebulaOptions,
    ElasticityOptions,
    SparseAttentionOptions,
    CompressionTrainingOptions,
    CurriculumLearningOptions,
    AmpOptions,
    # live sections
    WeightQuantizationOptions,
    HybridEngineOptions,
    ExpertParallelOptions,
    TensorParallelOptions,
    CompileOptions,
    PipelineOptions,
    DataEfficiencyOptions,
    DataTypesOptions,
    CheckpointOptions,
    AioOptions,
    AutotuningOptions,
    TimersOptions,
    FlopsProfilerOptions,
    CommsLoggerOptions,
    MonitorOptions,
    GeneralOptions,
    ActivationCheckpointingOptions,
    ZeroOptions,
    TorchAutocastOptions,
    BF16Options,
    FP16Options,
    CommunicationOptions,
    SchedulerOptions,
    OptimizerOptions,
    BatchOptions,
)


class DeepSpeedConfig(*_SECTIONS, DictSection):  # type: ignore[misc]
    """A DeepSpeed configuration (``ds_config.json``), as DeepSpeed 0.19.8 reads it."""

    unknown_keys: ClassVar[UnknownKeys] = "ignore"
