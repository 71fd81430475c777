"""The release the rules describe: a note when a file is checked for another DeepSpeed release."""

from __future__ import annotations

from collections.abc import Iterator

from ...tree.versions import DEEPSPEED_VERSION, parse_version
from ..findings import Severity
from . import Context, Hit, rule

_DESCRIBED = parse_version(DEEPSPEED_VERSION)


@rule(
    "DS584",
    "rules-follow-0-19-8",
    Severity.info,
    message="checked for DeepSpeed {version}, but the cross-field checks (DS5xx, DS6xx) follow DeepSpeed "
    "{described}; that release may differ from them",
    explanation=(
        "For each release from 0.10.3 on, dsref follows what was recorded from that release itself (which options "
        "it reads, which sections it reads leniently, the spellings it accepts, its defaults), so the option checks "
        "and the values the rules work with are that release's. The cross-field checks, however, were each "
        "verified against the code of DeepSpeed 0.19.8: a check an older release did not make, or made otherwise, "
        "is shown as DeepSpeed 0.19.8 would judge it, except the ones dsref knows to depend on the release (the "
        'removed 1-bit optimizers, DS541; fp16 and bf16 both "auto" before 0.17.1, DS510; the ZeRO stages '
        "fp16 master weights need, DS511, recorded from each release's own check). Verify those against the "
        "release you run."
    ),
)
def rules_follow_described_release(ctx: Context) -> Iterator[Hit]:
    if ctx.version != _DESCRIBED:
        version = ".".join(map(str, ctx.version))
        yield Hit((), None, {"version": version, "described": DEEPSPEED_VERSION})
