"""`eigenvalue`: the removed settings of the eigenvalue estimate used by Mixture-of-Quantization."""

from __future__ import annotations

from .._base import DictSection, Section
from .._meta import option


class EigenvalueConfig(DictSection):
    """Power-iteration estimate of the largest Hessian eigenvalue of each transformer layer, which
    Mixture-of-Quantization (MoQ) used to quantize sensitive layers more slowly.

    DeepSpeed only ever read these keys inside `quantize_training`, never from a top-level `eigenvalue`
    block. In the last releases that had it, enabling the estimate failed with "Eigenvalue based MoQ is
    temporarily disabled", so none of the values took effect.
    """

    enabled: bool = option(False, description="Turns the eigenvalue estimate on.")
    verbose: bool = option(False, description="Logs the computed eigenvalues.")
    max_iter: int = option(
        100,
        unit="count",
        description="Upper limit on power-iteration steps per estimate.",
    )
    tol: float = option(
        0.01,
        description="Relative change below which the power iteration counts as converged.",
    )
    stability: float = option(
        1e-6,
        description="Small constant added to avoid division by zero during the iteration.",
    )
    gas_boundary_resolution: int = option(
        1,
        unit="steps",
        description="Computes the eigenvalues every this many optimizer steps.",
    )
    layer_name: str = option(
        "bert.encoder.layer",
        description="Attribute path of the model's list of transformer layers.",
    )
    layer_num: int = option(
        0,
        unit="layers",
        description="Number of layers under layer_name to estimate eigenvalues for.",
    )


class EigenvalueOptions(Section):
    """Top-level field contributed by this module."""

    eigenvalue: EigenvalueConfig | None = option(
        None,
        since="0.4.0",
        removed_in="0.19.8",
        removal_note="DeepSpeed never read a top-level eigenvalue block (MoQ, which read its own copy, went in "
        "0.19.7); since 0.19.8 the key is rejected, so delete it.",
    )
