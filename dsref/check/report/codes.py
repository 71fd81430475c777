"""Every finding code dsref reports, found in one place: a schema kind's (``DS0xx``–``DS4xx``, a
:class:`~dsref.check.findings.Kind`) or a cross-field rule's (``DS5xx``, ``DS6xx``, a
:class:`~dsref.check.rules.Rule`).

``dsref rule``, the language server's "explain this rule" and the site's rule pages all look a code up here, so a
code means the same wherever a user meets it.

>>> find_code("ds101").name, find_code("unknown-key").code, find_code("DS510").group
('unknown-key', 'DS101', 'rules')
>>> find_code("DS999") is None
True
"""

from __future__ import annotations

from typing import Literal

from ...records import record
from ...text.i18n import Lang
from ..findings import Example, Kind, Severity
from ..rules import Rule, all_rules, get_rule
from .messages import EXAMPLES, EXPLANATIONS, MESSAGES

__all__ = ["Code", "every_code", "find_code"]

Group = Literal["schema", "rules", "advice"]


@record
class Code:
    """One finding code: what it is called, and the kind or the rule behind it (exactly one of the two)."""

    code: str
    name: str
    """As users write it: a kind's name with hyphens (``unknown-key``), a rule's own name."""
    kind: Kind | None = None
    rule: Rule | None = None

    @property
    def severity(self) -> Severity | None:
        """The severity every finding of the code has; None for a kind whose severity depends on the key or on the
        reader (:attr:`Kind.severity_by_profile`)."""
        return self.kind.severity if self.kind is not None else self.rule.severity if self.rule is not None else None

    @property
    def group(self) -> Group:
        """``schema`` for a kind, ``advice`` for a ``DS6xx`` rule, ``rules`` for any other rule."""
        if self.kind is not None:
            return "schema"
        return "advice" if self.code.startswith("DS6") else "rules"

    @property
    def example(self) -> Example | None:
        """A whole config that sets the code off, as its page shows it."""
        if self.kind is not None:
            return EXAMPLES.get(self.kind.name)
        return self.rule.example if self.rule is not None else None

    def explanation(self, lang: Lang) -> str:
        """What the code is about, why it matters and how to set it right, in ``lang``."""
        if self.rule is not None:
            return self.rule.text("explanation", lang)
        assert self.kind is not None
        return EXPLANATIONS.text(self.kind.name, lang) if self.kind.name in EXPLANATIONS.table else ""

    def template(self, lang: Lang) -> str:
        """The message with its placeholders, in ``lang`` (a kind whose message depends on the key: its most
        common form)."""
        if self.rule is not None:
            return self.rule.text("message", lang)
        assert self.kind is not None
        name = "unknown_key_ignore" if self.kind is Kind.unknown_key else self.kind.name
        return MESSAGES.text(name, lang) if name in MESSAGES.table else ""


def _of_kind(kind: Kind) -> Code:
    return Code(kind.code, kind.name.replace("_", "-"), kind=kind)


def every_code() -> list[Code]:
    """Every code: the kinds in their order, then the rules by code."""
    return [*map(_of_kind, Kind), *(Code(r.code, r.name, rule=r) for r in all_rules())]


def find_code(code_or_name: str) -> Code | None:
    """A code by itself (``DS101``, any case) or by its name (``unknown-key``, a rule's name); None for neither."""
    wanted = code_or_name.strip()
    for kind in Kind:
        if kind.code.lower() == wanted.lower() or kind.name.replace("_", "-") == wanted:
            return _of_kind(kind)
    found = get_rule(wanted)
    return Code(found.code, found.name, rule=found) if found is not None else None
