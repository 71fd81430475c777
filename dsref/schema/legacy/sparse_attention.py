"""`sparse_attention`: the removed block-sparse attention layout settings."""

from __future__ import annotations

from typing import Literal

from .._base import DictSection, Section
from .._meta import option


class SparseAttentionConfig(DictSection):
    """Layout of DeepSpeed Sparse Attention, which computed self-attention only on chosen blocks of the attention
    matrix to handle long sequences with Triton block-sparse kernels.

    `mode` picks the layout family; each mode reads only some of the other keys (noted per option). DeepSpeed
    stored the parsed layout for model code to build its sparse attention from. The feature was removed in
    DeepSpeed 0.19.7.
    """

    mode: Literal["dense", "fixed", "variable", "bigbird", "bslongformer"] = option(
        "fixed",
        enum_docs=(
            ("dense", "full attention, computed with the block-sparse kernels"),
            ("fixed", "local windows plus fixed global blocks, as in Sparse Transformer"),
            ("variable", "local windows of varying size plus random and global blocks"),
            ("bigbird", "random, sliding-window and global blocks, as in BigBird"),
            ("bslongformer", "sliding window plus chosen global blocks, as in Longformer"),
        ),
        description="Family of sparsity layout to build.",
    )
    block: int = option(
        16,
        unit="tokens",
        description="Side length of the square blocks the attention matrix is divided into; the sequence length "
        "must be a multiple of it (all modes).",
    )
    different_layout_per_head: bool = option(
        False,
        description="Gives each attention head its own layout where the mode allows it (all modes but dense).",
    )
    num_local_blocks: int = option(
        4,
        description="Number of blocks in each local attention window (fixed mode).",
    )
    num_global_blocks: int = option(
        1,
        description="Number of blocks per local window that act as global representatives (fixed and bigbird modes).",
    )
    attention: Literal["unidirectional", "bidirectional"] = option(
        "bidirectional",
        description="Unidirectional for causal models that only look backwards, bidirectional for encoders "
        "(fixed and variable modes).",
    )
    horizontal_global_attention: bool = option(
        False,
        description="Lets the global blocks also attend to every other block, which needs bidirectional "
        "attention (fixed and variable modes).",
    )
    num_different_global_patterns: int = option(
        1,
        example=4,
        description="Number of distinct global-block patterns spread over the heads (fixed mode).",
    )
    num_random_blocks: int = option(
        0,
        description="Number of randomly chosen blocks each block row attends to (variable and bigbird modes).",
    )
    local_window_blocks: list[int] = option(
        default_factory=lambda: [4],
        description="Sizes in blocks of the successive local windows; the last size repeats for the rest of the "
        "sequence (variable mode).",
    )
    global_block_indices: list[int] = option(
        default_factory=lambda: [0],
        description="Indices of the blocks that attend to and are attended by all others, or the start indices "
        "of global ranges when global_block_end_indices is set (variable and bslongformer modes).",
    )
    global_block_end_indices: list[int] | None = option(
        None,
        description="Exclusive end indices pairing with global_block_indices to form global ranges; null uses "
        "single blocks (variable and bslongformer modes).",
    )
    num_sliding_window_blocks: int = option(
        3,
        description="Width in blocks of the sliding local window (bigbird and bslongformer modes).",
    )


class SparseAttentionOptions(Section):
    """Top-level field contributed by this module."""

    sparse_attention: SparseAttentionConfig | None = option(
        None,
        since="0.3.0",
        removed_in="0.19.7",
        removal_note="DeepSpeed 0.19.7 dropped its sparse attention kernels, so delete this block and take "
        "sparse or memory-efficient attention from your model code or another library.",
    )
