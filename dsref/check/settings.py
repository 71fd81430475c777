"""What a check is for, as one record: how the file is read, on how many GPUs, for which releases.

Every stage takes a :class:`CheckSettings` instead of the same arguments one by one; a new dimension of a check
(the launch that fills ``"auto"``, say) is a field here, not a parameter of every function between the command
line and the rule that needs it.
"""

from __future__ import annotations

from dataclasses import replace

from ..launch.model import Launch
from ..records import record
from ..tree.profiles import NEWEST, HfReleases, Profile
from ..tree.versions import DEEPSPEED_VERSION

__all__ = ["DEFAULT_SETTINGS", "CheckSettings"]


@record
class CheckSettings:
    """The reading, the world size and the releases a config is checked for.

    >>> CheckSettings().deepspeed_version == DEEPSPEED_VERSION
    True
    >>> CheckSettings(profile=None).read_as("hf").profile
    'hf'
    """

    profile: Profile | None = "deepspeed"
    """Whose reader reads the file: ``"deepspeed"`` (Hjson, as ``deepspeed.initialize`` loads a path), ``"hf"``
    (``json.load``, then ``"auto"`` filled in by Transformers or Accelerate), or None to tell from the file."""
    world_size: int | None = None
    """How many processes the run has (the batch rules need it), when known."""
    deepspeed_version: str = DEEPSPEED_VERSION
    """The DeepSpeed release the verdicts are for."""
    hugging_face: HfReleases = NEWEST
    """The releases of Transformers and Accelerate whose filling of ``"auto"`` a file read as theirs gets."""
    debug: bool = False
    """Report a rule that stops with an exception as a finding of its own (DS009), not only in the summary."""
    launch: Launch | None = None
    """The launch that runs the file (``dsref check LAUNCH``): the training arguments Trainer compares the file
    with, and the world size its launcher starts."""

    def read_as(self, profile: Profile) -> CheckSettings:
        """The same settings for a file whose reader is decided: ``profile``."""
        return self if profile == self.profile else replace(self, profile=profile)

    def launched_by(self, launch: Launch) -> CheckSettings:
        """The settings for a file that ``launch`` runs: its training arguments, the world size its launcher starts
        (unless one is given already), read as Hugging Face reads it (unless a reading is chosen)."""
        world_size = self.world_size if self.world_size is not None else launch.world_size
        return replace(self, launch=launch, world_size=world_size, profile=self.profile or "hf")


DEFAULT_SETTINGS = CheckSettings()
"""A file read as DeepSpeed reads it, for the newest release, world size unknown."""
