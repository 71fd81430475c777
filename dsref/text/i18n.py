"""Languages: which one the user wants, and the text of every message in it.

English is the source text everywhere. Chinese comes from the gettext catalog
``dsref/text/locales/zh_CN/LC_MESSAGES/dsref.mo`` (compiled from the ``.po`` next to
it), read with the standard library so that start-up stays cheap.

The ``.mo`` is read by :class:`MoCatalog` rather than :mod:`gettext`: dsref writes its
original strings sorted by their bytes (as the GNU format allows for lookup by
bisection), so a lookup touches a dozen strings and nothing is decoded up front.
``gettext`` parses and decodes all 1,300 entries first (about 5 ms), which is a
third of the whole start-up budget of ``dsref explain``.

Two kinds of text go through the catalog:

* option texts (descriptions, notes, enum meanings): the English text is the
  msgid and the option's dotted path is the msgctxt (``path#note`` for notes);
* interface messages (labels, finding messages): each module declares its own
  table with :func:`messages`; the msgctxt is ``namespace.key``.

>>> demo = messages("demo", greeting="Hello, {name}!")
>>> demo.text("greeting", "en", name="ZeRO")
'Hello, ZeRO!'

Which language the user wants is decided in :mod:`dsref.text.language`.
"""

from __future__ import annotations

import os
import sys

from .language import LANGUAGES, LOCALE_DIRS, Lang, UnknownLanguage, resolve_language

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = [
    "LANGUAGES",
    "Lang",
    "Messages",
    "MoCatalog",
    "UnknownLanguage",
    "catalog_path",
    "messages",
    "option_text",
    "registered_messages",
    "resolve_language",
]

DOMAIN = "dsref"
LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales")


def catalog_path(lang: Lang, suffix: str = ".mo") -> str:
    return os.path.join(LOCALES, LOCALE_DIRS[lang], "LC_MESSAGES", f"{DOMAIN}{suffix}")


class MoCatalog:
    """A compiled gettext catalog (``.mo``) whose original strings are sorted by their bytes; lookup by bisection.

    >>> import io
    >>> from dsref.text.catalog import mo_bytes
    >>> catalog = MoCatalog(mo_bytes({("a.b", "Hello"): "你好", (None, "Yes"): "是"}))
    >>> catalog.get("a.b", "Hello"), catalog.get(None, "Yes"), catalog.get("a.b", "Bye")
    ('你好', '是', None)
    """

    MAGIC = 0x950412DE

    def __init__(self, data: bytes) -> None:
        usable = len(data) - len(data) % 4
        words: Sequence[int] = memoryview(data)[:usable].cast("I")
        if len(words) < 5:
            raise ValueError("not a .mo file: too short")
        if words[0] != self.MAGIC:
            words = self._swapped(data[:usable])
            if words[0] != self.MAGIC:
                raise ValueError("not a .mo file: bad magic number")
        count, originals, translations = words[2], words[3], words[4]
        if originals % 4 or translations % 4 or max(originals, translations) + 8 * count > usable:
            raise ValueError("not a .mo file: tables out of range")
        self._data = data
        self._words = words
        self._count = count
        self._originals = originals // 4
        self._translations = translations // 4

    @staticmethod
    def _swapped(data: bytes) -> Sequence[int]:
        """The words of a file written with the other byte order."""
        from array import array

        words = array("I", data)
        words.byteswap()
        return words

    def _string(self, table: int, i: int) -> bytes:
        length, offset = self._words[table + 2 * i], self._words[table + 2 * i + 1]
        return self._data[offset : offset + length]

    def messages(self) -> dict[tuple[str | None, str], str]:
        """Every ``(msgctxt, msgid) → translation`` the file holds, the header (msgid ``""``) included.

        >>> from dsref.text.catalog import mo_bytes
        >>> MoCatalog(mo_bytes({("a.b", "Hello"): "你好", (None, ""): "Language: zh_CN"})).messages()
        {(None, ''): 'Language: zh_CN', ('a.b', 'Hello'): '你好'}
        """
        found: dict[tuple[str | None, str], str] = {}
        for i in range(self._count):
            context, separator, msgid = self._string(self._originals, i).decode("utf-8").partition("\x04")
            key = (context, msgid) if separator else (None, context)
            found[key] = self._string(self._translations, i).decode("utf-8")
        return found

    def get(self, context: str | None, msgid: str) -> str | None:
        """The translation of ``msgid`` in ``context``; None when the catalog has none."""
        key = (msgid if context is None else f"{context}\x04{msgid}").encode("utf-8")
        low, high = 0, self._count
        while low < high:
            middle = (low + high) // 2
            if self._string(self._originals, middle) < key:
                low = middle + 1
            else:
                high = middle
        if low < self._count and self._string(self._originals, low) == key:
            return self._string(self._translations, low).decode("utf-8") or None
        return None


_warned: set[str] = set()
_catalogs: dict[str, MoCatalog | None] = {}


def _catalog(lang: Lang) -> MoCatalog | None:
    """The compiled catalog of ``lang``, read once; None (after one line on stderr) when it cannot be read."""
    if lang in _catalogs:
        return _catalogs[lang]
    path = catalog_path(lang)
    catalog: MoCatalog | None = None
    try:
        catalog = MoCatalog(_map(path))
    except (OSError, ValueError) as exc:
        if str(path) not in _warned:
            _warned.add(str(path))
            from .escape import visible

            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            said = f"dsref: cannot read the catalog {visible(path, name=True)} ({reason}); showing English"
            print(visible(said), file=sys.stderr)
    _catalogs[lang] = catalog
    return catalog


def _map(path: str) -> bytes:
    """The file's bytes, mapped rather than read: a lookup touches a few pages of the 470 kB catalog."""
    import mmap

    with open(path, "rb") as handle:
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)  # type: ignore[return-value]


def translate(context: str, english: str, lang: Lang) -> str:
    """The text of ``english`` (in ``context``) in ``lang``; English where there is no translation."""
    if lang == "en" or not english:
        return english
    catalog = _catalog(lang)
    if catalog is None:
        return english
    try:
        found = catalog.get(context, english)
    except (UnicodeDecodeError, IndexError):  # a damaged catalog: its strings point at garbage
        found = None
    return english if found is None else found


def option_text(path: str, english: str | None, lang: Lang, note: str | None = None) -> str | None:
    """An option's text: its description (``note=None``) or a note such as ``removal_note`` or ``enum:3``."""
    if english is None:
        return None
    context = path if note is None else f"{path}#{note}"
    return translate(context, english, lang)


def _is_han(char: str) -> bool:
    return "\u3400" <= char <= "\u9fff" or "\uf900" <= char <= "\ufaff"


def _closed_up(text: str) -> str:
    """A Chinese message with no single space left between two Chinese characters. A template puts a space around
    a placeholder for a number or a name (``最大层：{n} 个参数``); when the value is a count in 万 or 亿 it ends in a
    Chinese character, and Chinese writes ``5.4亿个参数`` with none. Runs of spaces (a table's gap) are kept.

    >>> _closed_up("最大层：5.4亿 个参数"), _closed_up("共 5 个参数"), _closed_up("峰值  放得下")
    ('最大层：5.4亿个参数', '共 5 个参数', '峰值  放得下')
    """
    if " " not in text:
        return text
    parts = text.split(" ")
    out = parts[0]
    for part in parts[1:]:
        joined = out and part and _is_han(out[-1]) and _is_han(part[0])
        out += part if joined else " " + part
    return out


class Messages:
    """A table of interface messages belonging to one module (``namespace``)."""

    def __init__(self, namespace: str, table: Mapping[str, str]) -> None:
        self.namespace = namespace
        self.table = dict(table)

    def text(self, key: str, lang: Lang, /, **args: object) -> str:
        english = self.table[key]
        template = translate(f"{self.namespace}.{key}", english, lang)
        if not args:
            return template
        text = template.format(**args)
        return _closed_up(text) if lang == "zh" else text

    def items(self) -> list[tuple[str, str]]:
        """(msgctxt, English msgid) pairs, for catalog extraction."""
        return [(f"{self.namespace}.{key}", text) for key, text in self.table.items()]


_REGISTRY: dict[str, Messages] = {}


def messages(namespace: str, /, **table: str) -> Messages:
    """Declare a module's interface messages: ``M = messages("check", summary="{n} files checked")``."""
    existing = _REGISTRY.get(namespace)
    if existing is not None and existing.table != table:
        raise ValueError(f"message namespace {namespace!r} declared twice with different texts")
    table_obj = Messages(namespace, table)
    _REGISTRY[namespace] = table_obj
    return table_obj


def registered_messages() -> dict[str, Messages]:
    """Every message table declared so far (import the modules first; see ``scripts/catalog.py``)."""
    return dict(_REGISTRY)
