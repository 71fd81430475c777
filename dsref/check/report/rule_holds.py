"""Where a cross-field rule holds, said for a reader: ``dsref rule`` and the rule's page on the site.

A rule DeepSpeed 0.19.8 enforces while it reads the config, or when its engine starts, was proven on each recorded
release (:func:`dsref.tree.rule_releases.rule_releases`): the sentence names the releases that make the check, those
that do not, and those where the recording could not tell. Any other rule holds wherever the options it is about
exist, which the option checks decide release by release, and the sentence says why: dsref's own advice, what
Hugging Face does, or a DeepSpeed behaviour no probe could start (so 0.19.8's).

>>> "0.19.8" in holds_text("DS510", "en")
True
"""

from __future__ import annotations

from collections.abc import Iterable

from ...text.i18n import Lang, messages
from ...text.punctuation import listed, ranged
from ...tree.releases import COVERED
from ...tree.rule_releases import Proof, retired_rules, rule_releases
from ..rules import Scope, get_rule

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
    engine_proven=(
        "Started as an engine (`deepspeed.initialize` of a one-layer model on the CPU), DeepSpeed refuses this rule's "
        "example, or builds otherwise with it, as this rule says, and takes the repaired one, at {holds}: there it "
        "makes this check, as each release's own code showed, and `dsref check --deepspeed-version` applies it to "
        "the options the example writes only there."
    ),
    engine_untold="At {untold} the recording could not tell (the engine refuses the example for another reason, or "
    "the repaired config as well); dsref checks those as DeepSpeed 0.19.8 does.",
    unproven=(
        "No probe showed this rule release by release (an engine started with its example shows nothing its "
        "repair does not, or the example needs more than one process, a GPU, or Hugging Face's filling): it "
        "applies as DeepSpeed 0.19.8 behaves, at each release from {oldest} to {newest} that reads the options it "
        "is about."
    ),
    advice=(
        "This is dsref's own advice, not a check DeepSpeed makes: it holds at each release from {oldest} to {newest} "
        "that reads the options it is about."
    ),
    hugging_face=(
        "This rule is about what Hugging Face does with the config, not about a DeepSpeed release: it holds at each "
        "release from {oldest} to {newest} that reads the options it is about."
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
        known = get_rule(code)
        scope = known.scope if known is not None else Scope.deepspeed
        key = "unproven" if scope is Scope.deepspeed else scope.value
        return H.text(key, lang, oldest=COVERED[0], newest=COVERED[-1])
    engine = found.proof is Proof.engine
    first = "engine_proven" if engine else "retired" if code in retired_rules() else "proven"
    parts = [H.text(first, lang, holds=spans(found.holds, lang))]
    if found.lacks:
        parts.append(H.text("lacks", lang, lacks=spans(found.lacks, lang)))
    if found.untold:
        parts.append(H.text("engine_untold" if engine else "untold", lang, untold=spans(found.untold, lang)))
    return " ".join(parts) if lang == "en" else "".join(parts)
