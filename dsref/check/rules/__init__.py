"""Cross-field rules: what no single option's type can say (batch arithmetic, precision modes, stage-only options).

Each rule is a :class:`Rule` with a stable code, a name, a severity, an English
message template and a paragraph explaining it (both translated through the
catalogs), and a check function over a :class:`Context`. Rules live in the
modules of this package, one module per area, and register themselves with
:func:`rule`. :func:`run_rules` runs them all.

Codes: ``DS5xx`` are errors and warnings about what DeepSpeed does with the
config; ``DS6xx`` are advice (``info``).
"""

from __future__ import annotations

import contextlib
import enum
import importlib
import pkgutil
from collections.abc import Callable, Hashable, Iterable
from dataclasses import field
from functools import cached_property
from typing import Any

from ...records import record
from ...text.i18n import Lang, Messages, messages
from ...text.punctuation import ranged
from ...tree.options import OptionTree
from ...tree.releases import ReleaseFacts, recorded_release, release_facts
from ...tree.rule_releases import holds_at
from ...tree.versions import DEEPSPEED_VERSION, parse_version
from ..edits import Applicability
from ..findings import Example, Finding, Severity
from ..positions import Location
from ..repairs import Repair
from ..settings import DEFAULT_SETTINGS, CheckSettings
from ..validate.effective import Effective, effective

__all__ = ["Context", "Hit", "Rule", "RuleFailure", "Ruled", "Scope", "all_rules", "get_rule", "rule", "run_rules"]


class Scope(enum.Enum):
    """What a rule speaks of, and so how the releases where it holds are decided (``dsref rule`` says which)."""

    deepspeed = "deepspeed"
    """What DeepSpeed does with the config: proven on each release where a probe can start it
    (:func:`dsref.tree.rule_releases.proven_by`); otherwise said to be 0.19.8's, wherever the options are read."""
    advice = "advice"
    """dsref's own advice on a setting: it holds at every release that reads the options it is about."""
    hugging_face = "hugging_face"
    """What Hugging Face does with the config before DeepSpeed reads it: the same at every DeepSpeed release that
    reads the options (which transformers or accelerate release matters, not DeepSpeed's)."""


@record
class Hit:
    """One place a rule fires: where, about which option, with which message arguments."""

    location: Location
    option: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    related: tuple[Location, ...] = ()
    repair: Repair | None = None
    """What would set it right, decided here from the config's values, when the rule declares a fix."""


@record(frozen=False)
class Context:
    """What a rule may look at: the config as written, as DeepSpeed sees it, and the run's settings."""

    config: Any
    effective: Effective
    tree: OptionTree
    settings: CheckSettings = DEFAULT_SETTINGS
    """What the file is checked for: its reader, the world size, the releases."""
    memo: dict[Hashable, Any] = field(default_factory=dict, repr=False)
    """What the shared helpers worked out once for this file (:func:`dsref.check.rules._common.per_file`), by
    helper and arguments."""

    @property
    def world_size(self) -> int | None:
        """Data-parallel world size given with ``--world-size``; None when unknown."""
        return self.settings.world_size

    @property
    def profile(self) -> str:
        """Whose reader reads the file: ``deepspeed`` or ``hf``."""
        return self.settings.profile or "deepspeed"

    @cached_property
    def version(self) -> tuple[int, int, int]:
        """The DeepSpeed release the file is checked for (``--deepspeed-version``)."""
        return parse_version(self.settings.deepspeed_version)

    def get(self, path: str) -> Any:
        return self.effective.get(path)

    @cached_property
    def release(self) -> ReleaseFacts | None:
        """How the release checked for reads a config otherwise than 0.19.8 (recorded from it); None for 0.19.8.
        Looked up once per file (:attr:`version` does not change)."""
        return release_facts(self.settings.deepspeed_version)

    def is_set(self, path: str) -> bool:
        return self.effective.is_set(path)

    def where(self, path: str) -> Location:
        """Where ``path`` was written, or the nearest written section above it, or the root."""
        current: str | None = path
        while current:
            found = self.effective.location(current)
            if found is not None:
                return found
            current = current.rsplit(".", 1)[0] if "." in current else None
        return ()


@record
class Rule:
    code: str
    name: str
    severity: Severity
    message: str
    """English message template (``str.format`` placeholders from the hit's args)."""
    explanation: str
    """English paragraph: what the rule checks, why, what DeepSpeed does, how to fix it."""
    check: Callable[[Context], Iterable[Hit]]
    texts: Messages
    example: Example | None = None
    """A config that sets it off, shown on the rule's page."""
    fix: Applicability | None = None
    """The fix the rule's hits carry (declared: ``tests/unit/check/test_rules.py`` fails when its example gets none)."""
    needs: frozenset[str] = frozenset()
    """Options of which the file must write at least one for the rule to find anything; empty: any file."""
    about_launch: bool = False
    """Its findings say what the launch must give, or leaves open: held back while the file's reader refuses the file
    (no launch starts with it)."""
    scope: Scope = Scope.deepspeed
    """What the rule speaks of (:class:`Scope`)."""
    retired: bool = False
    """A check only older releases make while they read the config (not 0.19.8): applied only at the
    releases whose recorded verdicts refuse the example and take the repair
    (:func:`dsref.tree.rule_releases.holds_at`), never at 0.19.8."""

    def text(self, key: str, lang: Lang, /, **args: Any) -> str:
        if key == "message":  # an argument naming one of the rule's phrases is that phrase, in ``lang``
            args = {
                name: self.texts.text(f"phrase_{value}", lang, **args)
                if isinstance(value, str) and f"phrase_{value}" in self.texts.table
                else value
                for name, value in args.items()
            }
        if isinstance(args.get("stages"), str):  # a range of stages ("1-2") as the language writes ranges
            args["stages"] = ranged(args["stages"], lang)
        return self.texts.text(key, lang, **args)


_RULES: dict[str, Rule] = {}
_SORTED: list[Rule] = []
_BY_NAME: dict[str, Rule] = {}
"""``_RULES`` by code, once every rule module is loaded; emptied when a rule registers."""


def rule(
    code: str,
    name: str,
    severity: Severity,
    *,
    message: str,
    explanation: str,
    phrases: dict[str, str] | None = None,
    example: Example | None = None,
    fix: Applicability | None = None,
    needs: tuple[str, ...] = (),
    about_launch: bool = False,
    scope: Scope = Scope.deepspeed,
    retired: bool = False,
) -> Callable[[Callable[[Context], Iterable[Hit]]], Callable[[Context], Iterable[Hit]]]:
    """Register a rule: decorate its check function. ``phrases``: parts of the message that differ from hit to hit
    (a hit's argument whose value names a phrase is replaced by it, translated, in :meth:`Rule.text`); ``example``:
    a whole config that sets it off; ``fix``: the rule's hits carry a repair of this applicability (where the
    values allow one); ``scope``: what the rule speaks of (:class:`Scope`: DeepSpeed's behaviour, dsref's advice,
    or Hugging Face's).

    ``needs``: canonical option paths of which the file must write at least one (:meth:`Context.is_set`) for the
    rule to find anything; :func:`run_rules` does not call it for a file that writes none. Declare only what the
    check itself proves: every hit depends on :func:`~dsref.check.rules._common.mapping` or ``is_set`` of one of
    them, or of an option below one of them (the file cannot write an option without its section), never on a
    default. ``tests/unit/check/test_rules.py`` runs each such rule on files without them.

    ``about_launch``: the rule's findings say what the launch must give or leaves open (a note on the contract
    between the file and Trainer's arguments); they are not shown while the file's reader refuses it.

    ``retired``: a check DeepSpeed 0.19.8 no longer makes, which older releases make while they read the config;
    the rule applies only where the record of the releases' verdicts on its example and repair says so.
    """

    def register(check: Callable[[Context], Iterable[Hit]]) -> Callable[[Context], Iterable[Hit]]:
        if code in _RULES:
            raise ValueError(f"rule code {code} registered twice")
        extra = {f"phrase_{key}": text for key, text in (phrases or {}).items()}
        texts = messages(f"rule.{code}", message=message, explanation=explanation, **extra)
        _RULES[code] = Rule(
            code,
            name,
            severity,
            message,
            explanation,
            check,
            texts,
            example,
            fix,
            frozenset(needs),
            about_launch,
            scope,
            retired,
        )
        _SORTED.clear()
        _BY_NAME.clear()
        return check

    return register


def _load_rule_modules() -> None:
    for info in pkgutil.iter_modules(__path__, f"{__name__}."):
        importlib.import_module(info.name)


def all_rules() -> list[Rule]:
    """Every rule, by code. The rule modules are found and imported on the first call only."""
    if not _SORTED:
        _load_rule_modules()
        _SORTED.extend(sorted(_RULES.values(), key=lambda r: r.code))
    return list(_SORTED)


def get_rule(code_or_name: str) -> Rule | None:
    """A rule by code (``DS501``, any case) or by name."""
    if not _BY_NAME:
        for r in all_rules():
            _BY_NAME[r.code.lower()] = _BY_NAME[r.name] = r
    return _BY_NAME.get(code_or_name.strip().lower())


@record
class RuleFailure:
    """A rule that stopped with an exception on a file instead of answering: its findings for that file are
    missing. Reported, never swallowed: a line in the summary, and a finding of its own (DS009) with ``--debug``."""

    code: str
    name: str
    error: str
    """The exception's type and message, as Python shows them."""


@record
class Ruled:
    """What the rules said of one config: their findings, and the rules that could not answer."""

    findings: list[Finding]
    failures: tuple[RuleFailure, ...] = ()


def run_rules(
    config: Any,
    settings: CheckSettings = DEFAULT_SETTINGS,
    *,
    tree: OptionTree | None = None,
    select: Iterable[str] | None = None,
) -> Ruled:
    """Every rule's findings on ``config`` (a parsed ds_config mapping), and the rules that failed on it. Never
    raises for any input.

    The rules describe DeepSpeed 0.19.8. For another ``settings.deepspeed_version``, a rule that release does not
    make (:func:`dsref.tree.rule_releases.holds_at`: the release's own verdicts on the rule's example and repair,
    recorded) finds nothing about the options its example writes, a finding about an option that release does not
    have yet is left out (the schema's too-new finding says so), and rules that know the release they depend on ask
    ``Context.version``.
    """
    if tree is None:
        from ..validate.checktree import check_tree

        tree = check_tree()
    release = release_facts(settings.deepspeed_version)
    seen = effective(config, tree, settings.hugging_face, release)
    context = Context(config, seen, tree, settings)
    version = context.version
    chosen = set(select) if select is not None else None
    findings: list[Finding] = []
    failures: list[RuleFailure] = []
    written = seen.values.keys()  # (isdisjoint from the keys looks up the few needed paths, not every written one)
    recorded = recorded_release(settings.deepspeed_version) if release is not None else None
    for r in all_rules():
        if chosen is not None and r.code not in chosen:
            continue
        if r.needs and written.isdisjoint(r.needs):
            continue  # it would find nothing: the file writes none of the options it needs (see rule())
        if r.retired and holds_at(r.code, recorded or DEEPSPEED_VERSION) is not True:
            continue  # a check only older releases make, and not the release checked for (the record says so)
        lacking = recorded is not None and holds_at(r.code, recorded) is False
        try:
            hits = list(r.check(context))
        except Exception as exc:  # a bug of that rule on this file: the others still answer, and it is reported
            failures.append(RuleFailure(r.code, r.name, f"{type(exc).__name__}: {exc}"))
            continue
        for hit in hits:
            if _too_new(tree, hit.option, version, release):
                continue
            if lacking and (hit.option is None or hit.option in _example_paths(r)):
                continue  # that release does not make this check: its own verdict on the rule's example says so
            findings.append(
                Finding(None, r.severity, hit.location, hit.option, hit.args, r.code, r.name, hit.related, hit.repair)
            )
    return Ruled(findings, tuple(failures))


_EXAMPLE_PATHS: dict[str, frozenset[str]] = {}


def _example_paths(r: Rule) -> frozenset[str]:
    """Every option path the rule's example config writes, sections included: the hits the releases' verdicts on
    that example speak for (DS511's example proves bf16's master weights, not fp16's, which its own probes decide)."""
    if r.code not in _EXAMPLE_PATHS:
        import json

        found: set[str] = set()

        def walk(node: Any, prefix: str) -> None:
            if isinstance(node, dict):
                for key, value in node.items():
                    path = f"{prefix}.{key}" if prefix else str(key)
                    found.add(path)
                    walk(value, path)

        with contextlib.suppress(ValueError):  # an example that is no JSON proves nothing about paths
            walk(json.loads(r.example.text) if r.example is not None else None, "")
        _EXAMPLE_PATHS[r.code] = frozenset(found)
    return _EXAMPLE_PATHS[r.code]


def _too_new(tree: OptionTree, path: str | None, version: tuple[int, int, int], release: ReleaseFacts | None) -> bool:
    """Whether the option ``path`` came after ``version`` (so a rule's 0.19.8 judgement of it does not apply);
    ``release``: that version's recorded facts (:attr:`Context.release`)."""
    if path is None or path not in tree:
        return False
    since = tree.get(path).since
    if since is not None and parse_version(since) > version:
        return True
    return release is not None and not release.exists(path)
