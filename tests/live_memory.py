"""Live-tensor tracking: the bytes of the tensors alive after each operation, and their peak, on any device.

One helper for every measurement that needs more than what autograd saves (peaks, the layer being run, DeepSpeed's
buffers): a dispatch mode follows every storage an operation creates until it is freed. It asks the storage itself
whether it is gone, so what autograd or DeepSpeed hold outside Python counts too. Storages made before the mode was
entered are not seen, nor tensors on the ``meta`` device, which have no memory; ``skip`` leaves out more (a model's
parameters, when only activations are measured).
"""

from __future__ import annotations

from typing import Any

import torch
from torch.multiprocessing.reductions import StorageWeakRef

# PyTorch documents its dispatch modes under this module only
from torch.utils._python_dispatch import TorchDispatchMode  # noqa: PLC2701

__all__ = ["LiveTensors", "training_peaks"]


def _tensors(value: Any) -> list[Any]:
    if isinstance(value, (tuple, list)):
        return [tensor for item in value for tensor in _tensors(item)]
    return [value] if isinstance(value, torch.Tensor) else []


class LiveTensors(TorchDispatchMode):  # type: ignore[misc]
    """Enter it around the work to measure; :meth:`live` is the bytes alive now, :attr:`peak` the most since the
    last :meth:`reset`."""

    def __init__(self, skip: set[int] | None = None) -> None:
        super().__init__()
        self.skip = skip or set()
        self.storages: dict[int, tuple[Any, int]] = {}
        self.peak = 0

    def live(self) -> int:
        """Bytes of the storages created under the mode and alive now."""
        for pointer in [p for p, (ref, _) in self.storages.items() if ref.expired()]:
            del self.storages[pointer]
        return sum(size for _, size in self.storages.values())

    def reset(self) -> int:
        """The peak so far; the next peak starts from what is alive now."""
        peak, self.peak = self.peak, self.live()
        return peak

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        out = func(*args, **(kwargs or {}))
        self.live()  # a freed storage's address may be handed out again
        for tensor in _tensors(out):
            if tensor.device.type == "meta":  # shapes without memory (DeepSpeed keeps some)
                continue
            storage = tensor.untyped_storage()
            pointer = storage.data_ptr()
            if storage.nbytes() and pointer not in self.skip and pointer not in self.storages:
                self.storages[pointer] = (StorageWeakRef(storage), storage.nbytes())
        self.peak = max(self.peak, self.live())
        return out


def training_peaks(model: Any, ids: Any) -> tuple[int, int]:
    """The peak bytes alive (parameters aside) during one forward pass of a Hugging Face causal language model with
    labels, and during its backward; each parameter's gradient is freed as soon as it is accumulated, as ZeRO 2 and 3
    hand it to a bucket, so that what is measured is the activations and the working memory of the layer being run."""
    for parameter in model.parameters():
        parameter.register_post_accumulate_grad_hook(lambda p: setattr(p, "grad", None))
    tracker = LiveTensors({p.untyped_storage().data_ptr() for p in model.parameters()})
    with tracker:
        loss = model(input_ids=ids, labels=ids, use_cache=False).loss
        forward = tracker.reset()
        loss.backward()
        backward = tracker.reset()
    return forward, backward
