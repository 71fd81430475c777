"""Where a cross-field rule holds, said for a reader: ``dsref rule`` and the rule's page on the site.

A rule DeepSpeed 0.19.8 enforces while it reads the config was proven on each recorded release
(:func:`dsref.tree.rule_releases.rule_releases`): the sentence names the releases that make the check, those that
do not, and those where the recording could not tell. Any other rule (a check of the engine, a warning, advice)
holds wherever the options it is about exist, which the option checks decide release by release.

>>> "0.19.8" in holds_text("DS510", "en")
True
"""

from __future__ import annotations

from collections.abc import Iterable

from ...text.i18n import Lang, messages
from ...text.punctuation import listed, ranged
from ...tree.releases import COVERED
from ...tree.rule_releases import retired_rules, rule_releases

__all__ = ["H", "holds_text", "spans"]

H = messages(
    "rule_holds",
    proven=(
        "DeepSpeed refuses this rule's example config while it reads the config, and takes the repaired one, at "
        "{holds}: there it makes this check, as each release's own verdict showed, and `dsref check "
        "--deepspeed-version` applies it to the options the example writes only there."
    ),
    retired=(
        "DeepSpeed refuses this rule's example config while it reads the config, and takes the repaired one, at "
        "{holds}: there it makes this check, as each release's own verdict showed, and `dsref check "
        "--deepspeed-version` applies the rule only there (DeepSpeed 0.19.8 no longer makes it)."
    ),
    lacks="Releases that do not make it: {lacks}.",
    untold="At {untold} the recording could not tell (the release refuses the repaired config as well); dsref checks "
    "those as DeepSpeed 0.19.8 does.",
    engine=(
        "DeepSpeed does not make this check while it reads the config, so it was not proven release by release: "
        "it applies at each release from {oldest} to {newest} that reads the options it is about."
    ),
)


def spans(releases: Iterable[str], lang: Lang) -> str:
    """Recorded releases written as runs of consecutive ones: ``0.10.0-0.17.6, 0.18.9``."""
    wanted = set(releases)
    runs: list[list[str]] = []
    previous_in = False
    for release in COVERED:
        inside = release in wanted
        if inside and previous_in:
            runs[-1].append(release)
        elif inside:
            runs.append([release])
        previous_in = inside
    return listed(
        (run[0] if len(run) == 1 else ranged(f"{run[0]}-{run[-1]}", lang) for run in runs),
        lang,
    )


def holds_text(code: str, lang: Lang) -> str:
    """Where the rule ``code`` holds, in ``lang``: one to three sentences."""
    found = rule_releases(code)
    if found is None:
        return H.text("engine", lang, oldest=COVERED[0], newest=COVERED[-1])
    first = "retired" if code in retired_rules() else "proven"
    parts = [H.text(first, lang, holds=spans(found.holds, lang))]
    if found.lacks:
        parts.append(H.text("lacks", lang, lacks=spans(found.lacks, lang)))
    if found.untold:
        parts.append(H.text("untold", lang, untold=spans(found.untold, lang)))
    return " ".join(parts) if lang == "en" else "".join(parts)
