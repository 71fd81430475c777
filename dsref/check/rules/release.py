"""The release the rules describe: a note when a file is checked for another DeepSpeed release."""

from __future__ import annotations

from collections.abc import Iterator

from ...tree.versions import DEEPSPEED_VERSION, parse_version
from ..findings import Severity
from . import Context, Hit, rule


@rule(
    "DS584",
    "rules-follow-0-19-8",
    Severity.info,
    message="checked for DeepSpeed {version}, but the cross-field checks (DS5xx, DS6xx) follow DeepSpeed "
    "{described}; that release may differ from them",
    explanation=(
        "dsref's schema knows in which release each option appeared and was removed, so `--deepspeed-version` "
        "judges options by the release you name. The cross-field checks, however, were each verified against the "
        "code of DeepSpeed 0.19.8, and dsref has no record of how older or newer releases behave there (defaults "
        "that changed, checks that were added or dropped). For another release dsref leaves out the findings "
        "about options that release does not have yet and the ones it knows to depend on the release (such as "
        "the removed 1-bit optimizers, DS541), and shows the rest as DeepSpeed 0.19.8 would judge them. Verify "
        "those against the release you run, or check with DeepSpeed 0.19.8."
    ),
)
def rules_follow_described_release(ctx: Context) -> Iterator[Hit]:
    if ctx.version != parse_version(DEEPSPEED_VERSION):
        version = ".".join(map(str, ctx.version))
        yield Hit((), None, {"version": version, "described": DEEPSPEED_VERSION})
