"""Build and check the gettext catalogs from the schema and the message tables (with Babel).

There are no ``_()`` calls in the models: :func:`extract` walks the option tree
and every registered :func:`~dsref.text.i18n.messages` table and returns a Babel
``Catalog`` whose msgids are the English texts and whose msgctxts say where each
text belongs (``path``, ``path#note``, ``namespace.key``). ``scripts/catalog.py``
is the command-line face of this module.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
import re
import struct
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po, write_po

from ..records import record
from .i18n import DOMAIN, LOCALE_DIRS, LOCALES, Lang, MoCatalog, registered_messages

__all__ = [
    "CatalogProblem",
    "MoMeaning",
    "compile_mo",
    "extract",
    "mo_meaning",
    "mo_problem",
    "option_messages",
    "po_path",
    "pot_path",
    "problems",
    "read_catalog",
    "stats",
    "update",
    "write_catalog",
]

_FIXED_DATE = datetime(2026, 11, 22, tzinfo=timezone.utc)
_PLACEHOLDER = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}(?!\})")


def pot_path() -> Path:
    return Path(LOCALES) / f"{DOMAIN}.pot"


def po_path(lang: Lang) -> Path:
    return Path(LOCALES) / LOCALE_DIRS[lang] / "LC_MESSAGES" / f"{DOMAIN}.po"


def option_messages() -> Iterator[tuple[str, str, str]]:
    """(msgctxt, msgid, translator comment) for every text of every option, in tree order."""
    from ..tree.options import option_tree

    for opt in option_tree():
        where = f"{opt.path} ({opt.kind}, {opt.type})"
        if opt.description:
            yield opt.path, opt.description, where
        field_text = opt.field_info.description
        if opt.kind == "section" and field_text and field_text != opt.description:
            yield f"{opt.path}#summary", field_text, f"one-line summary of {where}"
        meta = opt.meta
        if meta.default_note:
            yield f"{opt.path}#default_note", meta.default_note, f"how the default of {opt.path} is worked out"
        if meta.removal_note:
            yield f"{opt.path}#removal_note", meta.removal_note, f"why {opt.path} was removed, what to do now"
        for value, text in meta.enum_docs:
            yield f"{opt.path}#enum:{value}", text, f"meaning of the value {value!r} of {opt.path}"
        if meta.hf_auto is not None and meta.hf_auto.source:
            yield f"{opt.path}#hf_source", meta.hf_auto.source, f'what Hugging Face fills into "auto" at {opt.path}'
        for change in meta.hf_auto.changes if meta.hf_auto is not None else ():
            if change.before:
                yield (
                    f"{opt.path}#hf_before:{change.by}:{change.release}",
                    change.before,
                    f'what {change.by} before {change.release} filled into "auto" at {opt.path}',
                )


def _import_all_modules() -> None:
    """Import every dsref module so that every ``messages()`` table is registered."""
    package = Path(__file__).resolve().parents[1]  # the dsref folder: modules are found, not imported from here
    for info in pkgutil.walk_packages([str(package)], "dsref."):
        if info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)


def extract() -> Catalog:
    """The template catalog (``.pot``): every English text dsref can show."""
    _import_all_modules()
    catalog = Catalog(
        domain=DOMAIN,
        project="dsref",
        version="1",
        copyright_holder="dsref developers",
        msgid_bugs_address="",
        creation_date=_FIXED_DATE,
        revision_date=_FIXED_DATE,
        fuzzy=False,
    )
    for context, text, comment in option_messages():
        catalog.add(text, context=context, auto_comments=[comment])
    for table in sorted(registered_messages().values(), key=lambda t: t.namespace):
        for context, text in table.items():
            catalog.add(text, context=context, auto_comments=["interface message"])
    return catalog


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write a ``.po``/``.pot`` deterministically (no dates that change, no line wrapping surprises)."""
    catalog.creation_date = _FIXED_DATE
    catalog.revision_date = _FIXED_DATE
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=100, omit_header=False, sort_output=False, include_previous=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buffer.getvalue())


def update(lang: Lang, template: Catalog | None = None) -> Catalog:
    """The ``lang`` catalog brought in line with the template: new texts added, changed ones marked fuzzy."""
    template = template or extract()
    path = po_path(lang)
    locale = LOCALE_DIRS[lang]
    if path.exists():
        catalog = read_catalog(path, locale)
    else:
        catalog = Catalog(locale=locale, domain=DOMAIN, project="dsref", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False, keep_user_comments=True)
    catalog.obsolete.clear()
    return catalog


def compile_mo(catalog: Catalog) -> bytes:
    """The ``.mo`` of a catalog: its translated, non-fuzzy messages and its header (the ``""`` entry)."""
    texts: dict[tuple[str | None, str], str] = {}
    for message in catalog:
        if message.id and (not message.string or message.fuzzy):
            continue
        if message.pluralizable:
            raise ValueError(f"{message.context}: plural messages are not supported by dsref's catalog reader")
        texts[(message.context, str(message.id))] = str(message.string)
    return mo_bytes(texts)


def mo_bytes(texts: dict[tuple[str | None, str], str]) -> bytes:
    """A GNU ``.mo`` file of ``(msgctxt, msgid) → translation``, little-endian, original strings sorted by their
    UTF-8 bytes so that :class:`dsref.text.i18n.MoCatalog` can look them up by bisection (Babel's ``write_mo`` sorts by
    msgid, then context, which a bisecting reader cannot use). No hash table: the GNU format makes it optional."""
    pairs = sorted(
        ((msgid if context is None else f"{context}\x04{msgid}").encode("utf-8"), text.encode("utf-8"))
        for (context, msgid), text in texts.items()
    )
    count = len(pairs)
    originals_at = 28
    translations_at = originals_at + 8 * count
    strings_at = translations_at + 8 * count
    tables: list[int] = []
    blob = bytearray()
    for column in (0, 1):
        for pair in pairs:
            tables += [len(pair[column]), strings_at + len(blob)]
            blob += pair[column] + b"\x00"
    originals, translations = tables[: 2 * count], tables[2 * count :]
    header = struct.pack("<7I", 0x950412DE, 0, count, originals_at, translations_at, 0, strings_at)
    return header + struct.pack(f"<{4 * count}I", *originals, *translations) + bytes(blob)


# The header fields that change how a catalog is read. The others say who wrote the file and when
# (Generated-By names the Babel release that compiled it), so two .mo files that differ only there mean the same.
MEANINGFUL_HEADERS = ("Language", "Content-Type", "Plural-Forms")


@record
class MoMeaning:
    """What a ``.mo`` says: every translation keyed by ``(msgctxt, msgid)`` (a plural message keeps its forms,
    NUL-separated, in both), and the header fields of :data:`MEANINGFUL_HEADERS`."""

    messages: frozenset[tuple[str | None, str, str]]
    header: tuple[tuple[str, str], ...]


def mo_meaning(data: bytes) -> MoMeaning:
    """The meaning of a ``.mo`` file, for comparing a committed one with a fresh compile whatever wrote either.

    >>> old = mo_bytes({(None, ""): "Language: zh_CN\\nGenerated-By: Babel 2.18.0\\n", ("a", "Yes"): "是"})
    >>> new = mo_bytes({(None, ""): "Language: zh_CN\\nGenerated-By: Babel 2.19.0\\n", ("a", "Yes"): "是"})
    >>> mo_meaning(old) == mo_meaning(new), mo_meaning(old).header
    (True, (('Language', 'zh_CN'),))

    Raises ``ValueError`` when ``data`` is not a ``.mo`` file.
    """
    messages = MoCatalog(data).messages()
    fields: dict[str, str] = {}
    for line in messages.pop((None, ""), "").splitlines():
        name, separator, value = line.partition(":")
        if separator and name.strip() in MEANINGFUL_HEADERS:
            fields[name.strip()] = value.strip()
    return MoMeaning(
        messages=frozenset((context, msgid, text) for (context, msgid), text in messages.items()),
        header=tuple(sorted(fields.items())),
    )


def mo_problem(mo: Path, catalog: Catalog) -> CatalogProblem | None:
    """Why the committed ``.mo`` does not say what the ``.po`` says, or None when it does."""
    if not mo.exists():
        return CatalogProblem(None, "", f"{mo} is missing; run scripts/catalog.py compile")
    try:
        committed = mo_meaning(mo.read_bytes())
    except ValueError as error:
        return CatalogProblem(None, "", f"{mo} cannot be read ({error}); run scripts/catalog.py compile")
    fresh = mo_meaning(compile_mo(catalog))
    if committed == fresh:
        return None
    changed = sorted({f"{context}: {msgid}" for context, msgid, _ in committed.messages ^ fresh.messages}, key=str)
    if committed.header != fresh.header:
        changed.insert(0, "header " + ", ".join(name for name, _ in set(committed.header) ^ set(fresh.header)))
    more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
    return CatalogProblem(
        None, "", f"{mo} is out of date ({'; '.join(changed[:3])}{more}); run scripts/catalog.py compile"
    )


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


@record
class CatalogProblem:
    context: str | None
    msgid: str
    problem: str

    def __str__(self) -> str:
        return f"{self.context}: {self.problem}"


def _key(message: Message) -> tuple[str | None, str]:
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, msgid


def problems(lang: Lang, template: Catalog | None = None, *, translated: Catalog | None = None) -> list[CatalogProblem]:
    """Everything that keeps the ``lang`` catalog from being complete and in sync with the schema.

    ``translated`` checks a catalog in memory instead of the committed ``.po`` (and skips the ``.mo``).
    """
    template = template or extract()
    found: list[CatalogProblem] = []
    if not pot_path().exists():
        return [CatalogProblem(None, "", f"{pot_path()} is missing; run scripts/catalog.py extract")]
    committed = read_catalog(pot_path())
    wanted = {_key(m) for m in template if m.id}
    have = {_key(m) for m in committed if m.id}
    for context, msgid in sorted(wanted - have, key=str):
        found.append(CatalogProblem(context, msgid, "missing from the .pot; run scripts/catalog.py extract"))
    for context, msgid in sorted(have - wanted, key=str):
        found.append(CatalogProblem(context, msgid, "stale in the .pot; run scripts/catalog.py extract"))
    path = po_path(lang)
    if translated is None and not path.exists():
        return [*found, CatalogProblem(None, "", f"{path} is missing; run scripts/catalog.py update")]
    catalog = translated if translated is not None else read_catalog(path, LOCALE_DIRS[lang])
    by_key = {_key(m): m for m in catalog if m.id}
    for context, msgid in sorted(wanted, key=str):
        message = by_key.get((context, msgid))
        if message is None:
            found.append(CatalogProblem(context, msgid, "not in the .po; run scripts/catalog.py update"))
            continue
        text = message.string if isinstance(message.string, str) else ""
        if message.fuzzy:
            found.append(CatalogProblem(context, msgid, "fuzzy: the English changed; review the translation"))
        elif not text.strip():
            found.append(CatalogProblem(context, msgid, "not translated"))
        elif _placeholders(msgid) != _placeholders(text):
            found.append(
                CatalogProblem(
                    context,
                    msgid,
                    f"placeholders differ: {sorted(_placeholders(msgid))} vs {sorted(_placeholders(text))}",
                )
            )
    for context, msgid in sorted(set(by_key) - wanted, key=str):
        found.append(CatalogProblem(context, msgid, "stale in the .po; run scripts/catalog.py update"))
    if translated is None and (stale := mo_problem(path.with_suffix(".mo"), catalog)) is not None:
        found.append(stale)
    return found


def stats(lang: Lang, template: Catalog | None = None) -> tuple[int, int]:
    """(translated, total) messages of the ``lang`` catalog, counting only current, non-fuzzy translations."""
    template = template or extract()
    wanted = {_key(m) for m in template if m.id}
    path = po_path(lang)
    if not path.exists():
        return 0, len(wanted)
    catalog = read_catalog(path, LOCALE_DIRS[lang])
    done = sum(
        1
        for m in catalog
        if m.id and _key(m) in wanted and not m.fuzzy and isinstance(m.string, str) and m.string.strip()
    )
    return done, len(wanted)
