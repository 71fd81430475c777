"""Read a config file exactly as its reader does, and remember where every key and value is written.

Two readers, called profiles:

* ``deepspeed`` — DeepSpeed's own ``load_ds_config``: ``hjson.load(open(path), object_pairs_hook=
  dict_raise_error_on_duplicate_keys)``. Hjson allows comments, trailing or missing commas, unquoted keys and
  values (an unquoted value is a string to the end of the line, so ``NaN`` or ``0x10`` are strings), single quotes,
  ``'''`` strings and a BOM; ``1e9`` and ``1.0`` come out as ints. A duplicate key at any depth is an error.
* ``hf`` — Hugging Face Trainer and Accelerate: ``json.load(io.open(path, encoding="utf-8"))``. Strict JSON; a
  duplicate key silently keeps the last value.

The values are the reader's own (``hjson.loads`` or ``json.loads`` on the same text), never re-derived. Positions
come from :mod:`dsref.check.read.scanner`, which walks the text the way the reader does. Both readers open the file in
text
mode, so line ends are translated (``\\r\\n`` and ``\\r`` become ``\\n``) before parsing, and the text is UTF-8.

Nothing here raises for bad input: :func:`load` and :func:`load_text` return a :class:`LoadedConfig` or a
:class:`LoadError`, both plain data.

>>> cfg = load_text('{\\n  // ZeRO\\n  zero_optimization: {stage: 3, offload_param: {device: "cpu"}}\\n}')
>>> cfg.data
{'zero_optimization': {'stage': 3, 'offload_param': {'device': 'cpu'}}}
>>> spans = cfg.positions[("zero_optimization", "stage")]
>>> spans.key, spans.form
(Span(line=3, col=23, end_line=3, end_col=28), 'number')

An unquoted value runs to the end of the line, braces included, so ``{device: cpu}}`` would not close; the error
stands at that value, not at the end of the file where Hjson gave up:

>>> err = load_text('{offload_param: {device: cpu}}')
>>> err.line, err.col, err.text().split(": ", 1)[1][:23]
(1, 26, "'cpu' has no quotes, so")
>>> err = load_text('{"train_batch_size": 8  // comment\\n}', profile="hf")
>>> err.kind.value, err.line, err.col, err.hint
('syntax', 1, 25, 'hint_hjson_only')
"""

from __future__ import annotations

import errno
import json
import os
import re
import shlex
import stat
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from enum import Enum
from pathlib import Path
from typing import Any, BinaryIO

from ...records import record
from ...text.i18n import Lang, messages
from ...text.oserror import os_reason
from ...text.punctuation import quoted
from ...tree.profiles import PROFILES, Profile, might_write_auto, writes_auto
from ..positions import Extent, LineIndex, Location, Span, Written
from .parse_errors import said
from .scanner import scan_hjson, scan_json, scan_valid_json
from .walker import MAX_DEPTH, Entries, Scan

__all__ = [
    "MAX_BYTES",
    "Duplicate",
    "FileBytes",
    "LoadError",
    "LoadErrorKind",
    "Loaded",
    "LoadedConfig",
    "Positions",
    "Span",
    "Spans",
    "load",
    "load_bytes",
    "load_text",
    "read_bytes",
    "read_file",
    "read_stdin",
]


MAX_BYTES = 256 * 1024
"""Largest file read (256 KiB). Real DeepSpeed configs are a few kilobytes (the largest of 340 public ones is
13 KB); hjson, in pure Python, and the position scanner take a second or two for 256 KiB of the densest input."""

_BINARY_SNIFF = 8192

_DIGITS = re.compile(r"[-+]?([0-9]+)")

M = messages(
    "loader",
    not_found="file not found; check the path",
    is_directory="this is a directory; give the path of the config file",
    directory_unreadable="cannot read this directory: {detail}",
    not_a_file=("this is a {what}, not a regular file; dsref reads config files (give '-' to read standard input)"),
    what_fifo="named pipe (FIFO)",
    what_device="device",
    what_socket="socket",
    what_other="special file",
    unreadable="cannot read the file: {detail}",
    stdin_closed="standard input is closed, so there is no config to read on it; give one (dsref check - < "
    "ds_config.json) or name the file",
    stdin_unreadable="cannot read standard input: {detail}",
    too_large="the file is larger than {limit} bytes, far more than any DeepSpeed config; is it the right file?",
    too_costly=(
        "this line is too long for the Hjson parser to read in reasonable time (it re-reads an unquoted value at "
        "every comma); break it over several lines or put its values in quotes"
    ),
    binary="this is a binary file, not a JSON config (it contains NUL bytes)",
    encoding="the file is not valid UTF-8 (byte {byte} cannot be decoded); save it as UTF-8",
    encoding_utf16=(
        "the file is saved as {encoding}, but DeepSpeed and Hugging Face read UTF-8; save it as UTF-8, or convert "
        "it: iconv -f {encoding} -t UTF-8 {name} > {name}.utf8 && mv {name}.utf8 {name}"
    ),
    syntax_hjson="DeepSpeed's Hjson parser cannot read this file: {detail}",
    syntax_json="not valid JSON, so Hugging Face Trainer and Accelerate (json.load) cannot read this file: {detail}",
    json_comment="a comment, which JSON does not allow: Hugging Face Trainer and Accelerate (json.load) stop here",
    unterminated_comment="this /* comment is never closed with */; DeepSpeed's Hjson parser crashes on it (IndexError)",
    unterminated_multiline="this ''' string is never closed; DeepSpeed's Hjson parser crashes on it (IndexError)",
    multiline_one_line=(
        "a ''' string in a file without any line break crashes DeepSpeed's Hjson parser (IndexError); "
        "break the file into lines"
    ),
    number_overflow="this number is too large; DeepSpeed's Hjson parser crashes on it (OverflowError: {detail})",
    too_many_digits=(
        "this integer has {digits} digits, and Python converts at most {limit} digits to a number, so neither "
        "json.load nor DeepSpeed's Hjson parser can read the file; write a shorter number"
    ),
    too_deep="nesting is {depth} levels deep here, too deep for the parser (RecursionError); flatten the structure",
    internal="the parser failed unexpectedly: {detail}",
    hint_hjson_only=(
        "DeepSpeed's own launcher would read this file (it accepts Hjson: comments, trailing commas, unquoted "
        "keys); Hugging Face needs strict JSON"
    ),
    hint_quoteless=(
        "the value at line {line}, column {col} has no quotes, so Hjson reads it to the end of the line, "
        "including any ',', '}}' or ']'; put it in quotes"
    ),
    hint_bom="the file starts with a byte-order mark (BOM), which json.load refuses; save it as UTF-8 without BOM",
    python_literal="{word} is Python; JSON writes {fix}",
    placeholder="{word} looks like a template placeholder that was never filled in; put the value there",
    missing_comma="a comma is missing before {word}",
    single_quotes="JSON strings take double quotes, not single ones: {word}",
    bare_word="{word} is not a JSON value; if it is a string, put it in double quotes",
    trailing_comma="a comma after the last member, which json.load refuses; remove it",
    quoteless=(
        "{word} has no quotes, so Hjson reads it to the end of the line, including the ',', '}}' or ']' after it; "
        "put it in quotes"
    ),
    hint_placeholder=(
        "a config file is read as it is: fill the template (envsubst, jinja2, the launcher script) before DeepSpeed "
        "reads it, or write the value"
    ),
    hint_python=(
        "a config written from Python with str() or print() is not JSON; write it with json.dump(config, file)"
    ),
)


@record
class Spans:
    """Where one entry is written: its key (``None`` for the root and for list items) and its value."""

    key: Span | None
    value: Span
    form: str
    """How the value is written (see :class:`~dsref.check.positions.Written`)."""


@record
class Duplicate:
    """A key written twice in the same object. The reader keeps the later value (DeepSpeed refuses the file)."""

    location: Location
    first: Span
    later: Span
    first_key: Extent = field(compare=False, default=Extent(-1, -1))
    """Where the first key stands, as offsets into the text (what a fix edits)."""
    later_key: Extent = field(compare=False, default=Extent(-1, -1))
    first_value: Extent = field(compare=False, default=Extent(-1, -1))
    """Where the first value stands: the member a fix removes ends there (with its comma, if any)."""


class Positions(Mapping[Location, Spans]):
    """Location (keys and list indices, as in :class:`dsref.check.findings.Location`) → :class:`Spans`.

    Built from the scanner's offsets and the text's :class:`~dsref.check.positions.LineIndex`; lines and columns are
    worked out when an entry is looked up.
    """

    def __init__(self, entries: Entries, index: LineIndex) -> None:
        self._entries = entries
        self.index = index
        """The line index of the text the reader parsed (built once; fixes and the server use it too)."""
        self._located: dict[tuple[Location, str], Span] = {}
        """What :meth:`locate` answered: a check sorts its findings by line and then draws each at its place."""

    def __getitem__(self, location: Location) -> Spans:
        written = self._entries[location]
        key = None if written.key is None else self.index.span(written.key.start, written.key.end)
        return Spans(key, self.index.span(written.value.start, written.value.end), written.form)

    def __iter__(self) -> Iterator[Location]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Positions({len(self)} entries)"

    def written(self, location: Location) -> Written | None:
        """Where ``location`` is written, as offsets into the text; None when it is not written."""
        return self._entries.written(location)

    def locate(self, location: Location, part: str = "key") -> Span:
        """See :meth:`LoadedConfig.locate`."""
        loc = tuple(location)
        span = self._located.get((loc, part))
        if span is None:
            span = self._located[loc, part] = self._nearest(loc, part)
        return span

    def _nearest(self, loc: Location, part: str) -> Span:
        while True:
            written = self._entries.written(loc)
            if written is not None:  # only the part pointed at is turned into lines and columns
                extent = written.key if part == "key" and written.key is not None else written.value
                return self.index.span(extent.start, extent.end)
            if not loc:
                return Span(1, 1, 1, 1)
            loc = loc[:-1]

    def span(self, start: int, end: int) -> Span:
        """The lines and columns of an edit of ``text[start:end]`` (the byte-order mark at column 0:
        :meth:`~dsref.check.positions.LineIndex.edit_span`)."""
        return self.index.edit_span(start, end)

    @property
    def bom(self) -> bool:
        """Whether the text starts with a byte-order mark (offset 0; it takes no column)."""
        return self.index.bom


@record(eq=False)
class LoadedConfig:
    """A config as its reader sees it, with the place of every key and value in the file."""

    data: Any
    """What the reader returns: usually a dict, but a file may hold a list, a number or a string."""
    positions: Positions
    duplicates: tuple[Duplicate, ...]
    """Keys written twice in one object, at any depth, in file order."""
    profile: Profile
    path: Path | None
    source_lines: tuple[str, ...]
    """The text's lines (line ends removed), for showing a line under a message; ``source_lines[0]`` is line 1."""
    json_reads: bool = False
    """True when ``json.loads`` read the text as it is (strict JSON, what Hugging Face reads); False when the loader
    does not know (it read the text with hjson)."""

    @property
    def text(self) -> str:
        """The text the reader parsed: the file's text with line ends read as ``\\n`` (offsets of
        :meth:`Positions.written` point into it)."""
        return self.positions.index.text

    @property
    def accepted_by_reader(self) -> bool:
        """False when the reader refuses the file after parsing it: DeepSpeed raises on duplicate keys."""
        return not (self.profile == "deepspeed" and self.duplicates)

    def locate(self, location: Location, part: str = "key") -> Span:
        """Where to point for ``location``: its key (``part="key"``; a list item's value) or its value
        (``part="value"``), else the same for the nearest enclosing entry that is written.

        >>> cfg = load_text('{"zero_optimization": {"stage": 3}}')
        >>> cfg.locate(("zero_optimization", "stage"), "value")
        Span(line=1, col=33, end_line=1, end_col=34)
        >>> cfg.locate(("zero_optimization", "offload_param", "device"))
        Span(line=1, col=2, end_line=1, end_col=21)
        """
        return self.positions.locate(location, part)


class LoadErrorKind(str, Enum):
    """What kind of failure stopped the load."""

    syntax = "syntax"
    encoding = "encoding"
    binary = "binary"
    too_large = "too_large"
    too_deep = "too_deep"
    unreadable = "unreadable"
    not_found = "not_found"
    is_directory = "is_directory"


@record
class LoadError:
    """Why a file could not be read, and where: data for the caller to render, never an exception.

    ``reason`` names the message (finer than ``kind``); ``args`` fill it, ``detail`` being the parser's own words.
    """

    kind: LoadErrorKind
    reason: str
    profile: Profile
    path: Path | None = None
    line: int | None = None
    col: int | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    hint: str | None = None
    hint_args: Mapping[str, Any] = field(default_factory=dict)
    source_lines: tuple[str, ...] = ()

    def text(self, lang: Lang = "en") -> str:
        args = dict(self.args)
        if "what" in args:  # a kind of file, itself a message
            args["what"] = M.text(args["what"], lang)
        detail = self.detail(lang)
        if detail is not None:
            args["detail"] = detail
        return M.text(self.reason, lang, **args)

    def detail(self, lang: Lang = "en") -> str | None:
        """What went wrong in the reader's or the system's own words, without dsref's sentence around them (a syntax
        error's message, or the first wrong token named); None when the message has none.

        >>> load_text('{"lr": True}', profile="hf").detail()
        "'True' is Python; JSON writes true"
        """
        args = self.args
        if args.get("errno") is not None:  # the system's reason, said in the user's language where dsref can
            return os_reason(args["errno"], lang, args.get("detail", ""))
        if args.get("mistake"):  # the first wrong token, named in place of the reader's own words
            return M.text(args["mistake"], lang, word=_shown_token(args["word"], lang), fix=args["fix"])
        detail = args.get("detail")
        if detail is not None and self.reason in ("syntax_hjson", "syntax_json"):  # the parser's words, said in ours
            return said(str(detail), lang) or str(detail)
        return None if detail is None else str(detail)

    @property
    def parser_words(self) -> str | None:
        """The parser's own message, as it wrote it (kept in the JSON output beside dsref's words)."""
        detail = self.args.get("detail")
        return str(detail) if detail is not None and self.reason in ("syntax_hjson", "syntax_json") else None

    def hint_text(self, lang: Lang = "en") -> str | None:
        return None if self.hint is None else M.text(self.hint, lang, **self.hint_args)

    @property
    def message(self) -> str:
        """The English message."""
        return self.text("en")


Loaded = LoadedConfig | LoadError
"""What :func:`load` and :func:`load_text` return."""


def load(path: str | os.PathLike[str], profile: Profile | None = "deepspeed", *, max_bytes: int = MAX_BYTES) -> Loaded:
    """Read the config file at ``path`` as ``profile``'s reader does (None: the reader the file is written for,
    :mod:`dsref.tree.profiles`).

    >>> load("/no/such/ds_config.json").kind
    <LoadErrorKind.not_found: 'not_found'>
    """
    _check_profile(profile)
    where = Path(os.fspath(path))  # made once, for reading and for the record
    read = _read_file(where, profile, max_bytes)
    if isinstance(read, LoadError):
        return read
    return _load_bytes(read.data, profile, where, max_bytes)


def read_bytes(
    path: str | os.PathLike[str], profile: Profile | None = "deepspeed", *, max_bytes: int = MAX_BYTES
) -> bytes | LoadError:
    """The bytes of the file at ``path`` (at most ``max_bytes`` + 1), or why it cannot be read. Never waits: a FIFO,
    a device or a socket is refused, not opened for reading.

    >>> read_bytes("/dev/null").reason
    'not_a_file'
    """
    read = read_file(path, profile, max_bytes=max_bytes)
    return read if isinstance(read, LoadError) else read.data


@record
class FileBytes:
    """What :func:`read_file` read: the bytes, and the status of the file they were read from (``fstat`` of the
    descriptor read, so a symbolic link's target)."""

    data: bytes
    """At most ``max_bytes`` + 1: more than ``max_bytes`` means the file was not read whole."""
    status: os.stat_result


def read_stdin(stream: BinaryIO | None, *, max_bytes: int = MAX_BYTES) -> bytes | LoadError:
    """What standard input (``stream``: ``sys.stdin.buffer``, or None where Python found no descriptor 0) holds, at
    most ``max_bytes`` + 1 bytes, or why it cannot be read: closed (``dsref check - <&-``), or a read that fails
    (a folder given as input, a terminal gone). An empty input is read, as empty.

    >>> read_stdin(None).reason
    'stdin_closed'
    >>> import io; read_stdin(io.BytesIO(b"{}"))
    b'{}'
    """
    where = Path("-")
    if stream is None:
        return LoadError(LoadErrorKind.unreadable, "stdin_closed", "deepspeed", where)
    try:
        return stream.read(max_bytes + 1)
    except OSError as exc:
        if exc.errno == errno.EBADF:
            return LoadError(LoadErrorKind.unreadable, "stdin_closed", "deepspeed", where)
        args = {"detail": _reason(exc), "errno": exc.errno}
        return LoadError(LoadErrorKind.unreadable, "stdin_unreadable", "deepspeed", where, args=args)
    except ValueError:  # a file object already closed
        return LoadError(LoadErrorKind.unreadable, "stdin_closed", "deepspeed", where)


def read_file(
    path: str | os.PathLike[str], profile: Profile | None = "deepspeed", *, max_bytes: int = MAX_BYTES
) -> FileBytes | LoadError:
    """:func:`read_bytes` with the file's status as it was read (what ``check --fix`` compares before writing)."""
    return _read_file(Path(os.fspath(path)), profile, max_bytes)


def _read_file(where: Path, profile: Profile | None, max_bytes: int) -> FileBytes | LoadError:
    def fail(kind: LoadErrorKind, reason: str, **args: Any) -> LoadError:
        return LoadError(kind, reason, profile or "deepspeed", where, args=args)

    try:
        if os.path.isdir(where):
            try:
                os.listdir(where)
            except OSError as exc:
                return fail(LoadErrorKind.unreadable, "directory_unreadable", detail=_reason(exc), errno=exc.errno)
            return fail(LoadErrorKind.is_directory, "is_directory")
        # Opened without waiting (a FIFO would block until a writer came), then refused unless a regular file.
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as handle:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                return fail(LoadErrorKind.unreadable, "not_a_file", what=_special(status.st_mode))
            # As many bytes as the file holds, and one more: asking for the limit at once would have every read
            # allocate (and the kernel map) a buffer of the largest size dsref reads.
            data = handle.read(min(status.st_size, max_bytes) + 1)
            if status.st_size < len(data) <= max_bytes:  # it grew since: read on, up to the limit
                data += handle.read(max_bytes + 1 - len(data))
    except (FileNotFoundError, NotADirectoryError):
        return fail(LoadErrorKind.not_found, "not_found")
    except IsADirectoryError:
        return fail(LoadErrorKind.is_directory, "is_directory")
    except OSError as exc:
        return fail(LoadErrorKind.unreadable, "unreadable", detail=_reason(exc), errno=exc.errno)
    except ValueError as exc:  # e.g. a NUL character in the path
        return fail(LoadErrorKind.unreadable, "unreadable", detail=str(exc))
    return FileBytes(data, status)


def load_bytes(
    data: bytes,
    profile: Profile | None = "deepspeed",
    *,
    path: str | os.PathLike[str] | None = None,
    max_bytes: int = MAX_BYTES,
) -> Loaded:
    """Decode and parse ``data`` as :func:`load` does a file's bytes (standard input, for one); ``path`` is only
    recorded.

    >>> load_bytes(b'\\xef\\xbb\\xbf{"steps_per_print": 5}').data, load_bytes("{}".encode("utf-16")).reason
    ({'steps_per_print': 5}, 'encoding_utf16')
    """
    _check_profile(profile)
    return _load_bytes(data, profile, None if path is None else Path(os.fspath(path)), max_bytes)


def _load_bytes(data: bytes, profile: Profile | None, where: Path | None, max_bytes: int) -> Loaded:
    if len(data) > max_bytes:
        return LoadError(LoadErrorKind.too_large, "too_large", profile or "deepspeed", where, args={"limit": max_bytes})
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _undecodable(data, exc, profile or "deepspeed", where)
    if "\x00" in text[:_BINARY_SNIFF]:
        encoding = _wide_encoding(data)
        if encoding is not None:
            return _utf16(data, encoding, profile or "deepspeed", where)
    return _parse(_universal_newlines(text), profile, where)


def _shown_token(word: str, lang: Lang) -> str:
    """A token quoted for a message, cut when long (a runaway string)."""
    word = word if len(word) <= 40 else word[:39] + "…"
    return quoted(word, lang) if not word.startswith(("'", '"')) else word


def _reason(exc: OSError) -> str:
    """The system's words for an error, in English, in lower case as they continue a sentence."""
    return os_reason(exc, "en")


def _special(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "what_fifo"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "what_device"
    if stat.S_ISSOCK(mode):
        return "what_socket"
    return "what_other"


def load_text(
    text: str,
    profile: Profile | None = "deepspeed",
    *,
    path: str | os.PathLike[str] | None = None,
    max_bytes: int = MAX_BYTES,
) -> Loaded:
    """Parse ``text`` as if it had been read from a file (line ends translated); ``path`` is only recorded.

    >>> load_text("train_batch_size: 1e3\\nsteps_per_print: 01").data
    {'train_batch_size': 1000, 'steps_per_print': '01'}
    """
    _check_profile(profile)
    where = None if path is None else Path(os.fspath(path))
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        return LoadError(LoadErrorKind.too_large, "too_large", profile or "deepspeed", where, args={"limit": max_bytes})
    return _parse(_universal_newlines(text), profile, where)


# --- inside ----------------------------------------------------------------------------------------------------


def _check_profile(profile: str | None) -> None:
    if profile is not None and profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {', '.join(PROFILES)}")


def _universal_newlines(text: str) -> str:
    """What ``open(path, "r")`` hands the reader: ``\\r\\n`` and a lone ``\\r`` read as ``\\n``."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _source_lines(text: str) -> tuple[str, ...]:
    return tuple(text.removeprefix("\ufeff").split("\n"))


def _undecodable(data: bytes, exc: UnicodeDecodeError, profile: Profile, where: Path | None) -> LoadError:
    encoding = _wide_encoding(data)
    if encoding is not None:
        return _utf16(data, encoding, profile, where)
    shown = _universal_newlines(data.decode("utf-8", "replace"))
    lines = _source_lines(shown)
    if b"\x00" in data[:_BINARY_SNIFF]:
        return LoadError(LoadErrorKind.binary, "binary", profile, where)
    before = _universal_newlines(data[: exc.start].decode("utf-8"))
    line, col = LineIndex(before).point(len(before))
    byte = f"0x{data[exc.start]:02x}"
    return LoadError(LoadErrorKind.encoding, "encoding", profile, where, line, col, {"byte": byte}, source_lines=lines)


_WIDE_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32LE"),
    (b"\x00\x00\xfe\xff", "UTF-32BE"),
    (b"\xff\xfe", "UTF-16LE"),
    (b"\xfe\xff", "UTF-16BE"),
)


def _wide_encoding(data: bytes) -> str | None:
    """UTF-16 or UTF-32 (little or big endian) when the bytes are text in it, with a byte-order mark or, like a
    file Windows' PowerShell 5 writes with ``>``, without one; None otherwise.

    >>> _wide_encoding('{"a": 1}'.encode("utf-16-le")), _wide_encoding('{"零": 1}'.encode("utf-32"))
    ('UTF-16LE', 'UTF-32LE')
    >>> _wide_encoding(b'{"stage": 3}') is None
    True
    """
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            return name
    sample = data[: _BINARY_SNIFF - _BINARY_SNIFF % 4]
    if len(sample) < 4:
        return None
    for name, width, at in (("UTF-32LE", 4, 0), ("UTF-32BE", 4, 3), ("UTF-16LE", 2, 0), ("UTF-16BE", 2, 1)):
        # ASCII text (all JSON punctuation and keys) puts its byte at one place of each unit and zeros elsewhere.
        units = [sample[i : i + width] for i in range(0, len(sample) - width + 1, width)]
        ascii_units = sum(1 for u in units if u[at] and not any(b for j, b in enumerate(u) if j != at))
        if ascii_units >= 0.9 * len(units):
            return name
    return None


def _utf16(data: bytes, encoding: str, profile: Profile, where: Path | None) -> LoadError:
    # a name that starts with "-" would be read by iconv and mv as an option: ./-n.json
    name = "CONFIG.json" if where is None else shlex.quote(("./" if where.name.startswith("-") else "") + where.name)
    family = encoding[:6]  # iconv reads the byte order from the mark, or needs it named when there is none
    has_bom = any(data.startswith(bom) for bom, _ in _WIDE_BOMS)
    args = {"encoding": family if has_bom else encoding, "name": name}
    return LoadError(LoadErrorKind.encoding, "encoding_utf16", profile, where, 1, 1, args)


class _Failure(Exception):
    """Carries a LoadError out of the profile parsers."""

    def __init__(self, kind: LoadErrorKind, reason: str, pos: int | None, **args: Any) -> None:
        super().__init__(reason)
        self.kind, self.reason, self.pos, self.args_ = kind, reason, pos, args
        self.hint: str | None = None
        self.hint_pos: int | None = None
        self.reader: Profile | None = None
        """The reader that failed, when the file chose it (:func:`_read_as_written`)."""


def _parse(text: str, profile: Profile | None, where: Path | None) -> Loaded:
    index = LineIndex(text)
    try:
        if profile is None:
            data, scan, profile = _read_as_written(text, index)
        else:
            data, scan = _read_hjson(text, index) if profile == "deepspeed" else _read_json(text, index)
    except _Failure as failure:
        profile = failure.reader or profile or "deepspeed"
        kind = failure.kind
        if kind is LoadErrorKind.syntax and "\x00" in text:
            return LoadError(LoadErrorKind.binary, "binary", profile, where)
        line, col = (None, None) if failure.pos is None else index.point(failure.pos)
        hint_args: dict[str, Any] = {}
        if failure.hint_pos is not None:
            line_, col_ = index.point(failure.hint_pos)
            hint_args = {"line": line_, "col": col_}
        return LoadError(
            kind,
            failure.reason,
            profile,
            where,
            line,
            col,
            failure.args_,
            failure.hint,
            hint_args,
            _source_lines(text),
        )
    duplicates = tuple(
        Duplicate(
            d.location,
            index.span(d.first.start, d.first.end),
            index.span(d.later.start, d.later.end),
            d.first,
            d.later,
            d.first_value,
        )
        for d in scan.duplicates
    )
    positions = Positions(scan.entries, index)
    return LoadedConfig(data, positions, duplicates, profile, where, _source_lines(text), scan.json_reads)


def _scan_failure(scan: Scan) -> _Failure | None:
    """The failure to report without running the reader: hjson would take too long or recurse too deep."""
    error = scan.error
    if error is None:
        return None
    if error.reason == "too_costly":
        return _Failure(LoadErrorKind.too_large, "too_costly", error.pos)
    if error.reason == "too_deep":
        return _Failure(LoadErrorKind.too_deep, "too_deep", error.pos, depth=scan.max_depth)
    return None


def _read_as_written(text: str, index: LineIndex) -> tuple[Any, Scan, Profile]:
    """The file read by the reader it is written for (:mod:`dsref.tree.profiles`): Hugging Face's when it writes an
    ``"auto"`` value, the ``deepspeed`` launcher's otherwise. A file that writes ``"auto"`` but is not strict JSON
    (comments, trailing commas) fails as Hugging Face's ``json.load`` fails on it: that is what its launch meets."""
    if not might_write_auto(text):
        data, scan = _read_hjson(text, index)
        return data, scan, "deepspeed"
    try:
        data, scan = _read_json(text, index)
    except _Failure as strict:
        data, scan = _read_hjson(text, index)  # a file the launcher cannot read either fails as the launcher's
        if writes_auto(data):
            strict.reader = "hf"
            raise strict from None
        return data, scan, "deepspeed"
    if writes_auto(data):
        return data, scan, "hf"
    data, scan = _read_hjson(text, index)
    return data, scan, "deepspeed"


def _refuse_too_deep(text: str, scanner: Callable[[str], Scan]) -> None:
    """Nesting deeper than :data:`~.walker.MAX_DEPTH` refused before a reader recurses into it, as the reader's own
    scanner finds it (the place and depth a reader's ``RecursionError`` is reported with). Python's recursion limit
    would stop the reader in time on a native stack, but not on every stack: in a browser (Pyodide) ``json``'s C
    reader can exhaust the JavaScript stack first, which kills the interpreter. A text with fewer brackets than the
    limit cannot nest past it, so most texts cost two counts."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    scan = scanner(text)
    if scan.error is not None and scan.error.reason == "too_deep":
        raise _Failure(LoadErrorKind.too_deep, "too_deep", scan.error.pos, depth=scan.max_depth)


def _read_hjson(text: str, index: LineIndex) -> tuple[Any, Scan]:
    """``hjson.loads`` as DeepSpeed calls it, duplicates kept (last value wins) so the rest can still be checked."""
    _refuse_too_deep(text, scan_hjson)
    fast = _strict_json_as_hjson(text)
    if fast is not None:
        return fast
    scan = scan_hjson(text)
    early = _scan_failure(scan)
    if early is not None:
        raise early
    if scan.error is not None and scan.error.reason == "decode":
        # hjson's own syntax error, met by the scanner driving hjson's lexical functions as hjson.loads does: the
        # same place and words (tests/unit/check/test_loader_fast.py holds them equal), without reading the text again
        raise _syntax_hjson(scan.error.pos, scan.error.detail, scan, index)
    import hjson  # only here: most files are strict JSON, read above without it (a few ms of every start-up)
    from hjson.scanner import HjsonDecodeError

    try:
        data = hjson.loads(text, object_pairs_hook=dict)
    except HjsonDecodeError as exc:
        detail = exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1]))
        raise _syntax_hjson(exc.pos, detail, scan, index) from None
    except RecursionError:
        raise _Failure(LoadErrorKind.too_deep, "too_deep", scan.deepest, depth=scan.max_depth) from None
    except Exception as exc:
        raise _crash(exc, scan, text) from None
    if scan.error is not None:  # pragma: no cover - the scanner disagrees with hjson; keep the data, lose positions
        return data, Scan()
    return data, scan


def _syntax_hjson(pos: int, detail: str, scan: Scan, index: LineIndex) -> _Failure:
    """hjson's syntax error at ``pos``, moved to the first wrong token before it when there is one."""
    failure = _Failure(LoadErrorKind.syntax, "syntax_hjson", pos, detail=detail)
    if not _first_mistake(failure, index, strict=False) and scan.suspect is not None and scan.suspect[0] <= pos:
        failure.hint, failure.hint_pos = "hint_quoteless", scan.suspect[0]
    return failure


_FAST_DEPTH = 100
"""Deepest nesting the shortcut reads; hjson itself recurses and gives up some way below 1000 levels."""


def _hjson_number(text: str) -> float | int:
    """A JSON number with a fraction or exponent as hjson reads it: an integral value below 1e10 becomes an int."""
    value = float(text)
    if int(value) == value and abs(value) < 1e10:  # int(inf) raises, as in hjson: the slow path reports it
        return int(value)
    return value


def _not_hjson(name: str) -> Any:
    raise ValueError(f"{name} is a string to hjson")


def _strict_json_as_hjson(text: str) -> tuple[Any, Scan] | None:
    """Most configs are strict JSON, which hjson reads exactly as ``json`` does but for numbers (``1e9``, ``1.0``
    are ints to hjson) and ``NaN``/``Infinity`` (strings to hjson): read them with ``json`` and its scanner, the
    former in C. None for any other text (a root that is not an object or array, anything unusual), which takes the
    hjson path; ``tests/unit/check/test_loader_fast.py`` compares both paths."""
    if not text.lstrip(" \t\n\r").startswith(("{", "[")):  # a BOM, or a bare root value hjson tries two ways
        return None
    try:
        data = json.loads(text, parse_float=_hjson_number, parse_constant=_not_hjson)
    except (ValueError, RecursionError, OverflowError):
        return None
    scan = scan_valid_json(text)
    if scan.error is not None or scan.max_depth > _FAST_DEPTH:  # deep nesting: let hjson meet its recursion limit
        return None
    return data, scan


def _read_json(text: str, index: LineIndex) -> tuple[Any, Scan]:
    """``json.loads`` as Hugging Face calls it (duplicate keys: last value wins)."""
    _refuse_too_deep(text, scan_json)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        failure = _Failure(LoadErrorKind.syntax, "syntax_json", exc.pos, detail=exc.msg)
        if text.startswith("\ufeff"):
            failure.hint = "hint_bom"
        elif _hjson_accepts(text):
            failure.hint = "hint_hjson_only"
            _first_mistake(failure, index, strict=True)
            if failure.pos is not None and text.startswith(("#", "//", "/*"), failure.pos):
                failure.reason, failure.args_ = "json_comment", {}  # said as what it is, not as json's guess
        else:
            _first_mistake(failure, index, strict=True)
        raise failure from None
    except RecursionError:
        scan = scan_json(text)
        raise _Failure(LoadErrorKind.too_deep, "too_deep", scan.deepest, depth=scan.max_depth) from None
    except Exception as exc:
        raise _crash(exc, scan_json(text), text) from None
    # json.loads accepted the text: the one-pass tokenizer finds the same positions as the full scanner
    # (tests/unit/check/test_loader_fast.py compares them), at any depth; the full one is for texts json refuses
    scan = scan_valid_json(text)
    early = _scan_failure(scan)
    if early is not None:
        raise early
    if scan.error is not None:  # pragma: no cover - the scanner disagrees with json; keep the data, lose positions
        return data, Scan()
    return data, scan


def _first_mistake(failure: _Failure, index: LineIndex, *, strict: bool) -> bool:
    """Move ``failure`` to the first wrong token before where the reader stopped, and say what it is
    (:mod:`dsref.check.read.diagnose`); False when there is none to name."""
    from .diagnose import first_mistake

    mistake = first_mistake(index.text, strict=strict, lines=index)
    if mistake is None or (failure.pos is not None and mistake.pos > failure.pos):
        return False
    failure.pos = mistake.pos
    failure.args_ = {**failure.args_, "mistake": mistake.reason, "word": mistake.word, "fix": mistake.fix}
    if mistake.reason == "placeholder":
        failure.hint, failure.hint_pos = "hint_placeholder", None
    elif mistake.reason == "python_literal":
        failure.hint, failure.hint_pos = "hint_python", None
    elif failure.hint == "hint_quoteless":
        failure.hint = None
    return True


def _crash(exc: Exception, scan: Scan, text: str) -> _Failure:
    """A reader failure other than its syntax error (hjson's IndexError, OverflowError, ...), placed by the scanner."""
    error = scan.error
    if error is not None and error.reason in ("unterminated_comment", "unterminated_multiline", "multiline_one_line"):
        return _Failure(LoadErrorKind.syntax, error.reason, error.pos)
    if error is not None and error.reason == "number_overflow":
        return _Failure(LoadErrorKind.syntax, error.reason, error.pos, detail=str(exc))
    if error is not None and error.reason == "too_many_digits":
        # said in words: Python's own message ends with advice to call sys.set_int_max_str_digits()
        limit: int = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
        match = _DIGITS.match(text, error.pos)
        digits = len(match.group(1)) if match else limit + 1
        return _Failure(LoadErrorKind.syntax, error.reason, error.pos, digits=f"{digits:,}", limit=f"{limit:,}")
    return _Failure(LoadErrorKind.syntax, "internal", None, detail=f"{type(exc).__name__}: {exc}")


def _hjson_accepts(text: str) -> bool:
    scan = scan_hjson(text)
    if scan.error is not None:
        return False
    import hjson

    try:
        hjson.loads(text, object_pairs_hook=dict)
    except Exception:
        return False
    return True
