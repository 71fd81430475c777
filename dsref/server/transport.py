"""LSP's base protocol on a byte stream, read strictly: each message a header (``Content-Length: N``, other fields,
an empty line; every line ended by CRLF) and N bytes of UTF-8 JSON; a damaged stream is found again.

pygls reads the header with one pattern and no limit, and a header it cannot read leaves it waiting for one that
never comes (``Content-Length: abc``, none at all, ``-5``, LF line ends), while a 5,000-digit length is taken as a
number. Here each header line is at most :data:`MAX_LINE` bytes, ``Content-Length`` is 1 to 10 digits and at most
:data:`MAX_BODY`, refused before any of the body is read. After a damaged header or a body that is not UTF-8 JSON,
:func:`frames` yields one :class:`Damage`, which the server answers with JSON-RPC's parse error, and skips to the next
``Content-Length:`` wherever it starts in a line: a body shorter than its header said ends in the middle of the line
that holds the next header, and one longer swallowed the start of the next message, where the search starts (a
body 1 to 14 bytes too long ends inside the next ``Content-Length:``, and the search starts at that piece). A header
damaged by its line ends (a bare CR, no empty line) is searched from its second byte on: the line that broke it may
hold the next header. Two ``Content-Length`` fields that differ are damage, as HTTP says.

>>> import io
>>> stream = b'Content-Length: abc\\r\\n\\r\\n{"a": 1}Content-Length: 8\\r\\n\\r\\n{"b": 2}'
>>> list(frames(Reader(io.BytesIO(stream).read)))
[Damage(key='header_length'), {'b': 2}]
>>> stream = b'Content-Length: 5\\r\\n\\r\\n{"a": 1}Content-Length: 8\\r\\n\\r\\n{"b": 2}'
>>> list(frames(Reader(io.BytesIO(stream).read)))
[Damage(key='not_json'), {'b': 2}]

:func:`read_messages` runs :func:`frames` in a thread of its own, reading the file descriptor directly: the thread
blocked in a read holds no lock the interpreter needs when it exits.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ..records import record

__all__ = ["END", "MAX_BODY", "MAX_LINE", "Damage", "Inbox", "Reader", "frames", "read_messages", "sized_frames"]

log = logging.getLogger("dsref.server")

MAX_BODY = 4 * 1024 * 1024
"""The largest body read: 4 MiB. The largest message an editor sends is a whole document (``didOpen``, or a change
that replaces it); the checker reads a config of at most 256 KiB (:data:`dsref.check.read.loader.MAX_BYTES`), which
JSON writes in at most 1.5 MiB (every character a six-byte ``\\uXXXX``). A larger body is answered with a parse error
and skipped; the server's memory with one in hand is measured in ``tests/functional/test_server.py``."""
MAX_LINE = 8192
"""The longest header line read."""
_MAX_FIELDS = 32
_CHUNK = 65536
_FIELD_NAME = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_HEADER_NAME = b"content-length:"
_CONTENT_LENGTH = re.compile(_HEADER_NAME, re.IGNORECASE)


@record
class Damage:
    """What was wrong where a message should have been: a key of the server's texts (``header_line``,
    ``header_length``, ``header_missing``, ``header_twice``, ``not_utf8``, ``not_json``)."""

    key: str


END = object()
"""What :func:`read_messages` delivers last: the stream ended."""


class Reader:
    """Lines and blocks of the bytes ``read`` gives (``os.read`` of a file descriptor, ``socket.recv``: up to n bytes,
    ``b""`` at the end), through a buffer into which bytes can be put back."""

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._ended = False

    def _fill(self, wanted: int = _CHUNK) -> bool:
        if self._ended:
            return False
        data = self._read(min(max(wanted, _CHUNK), 1 << 20))
        if not data:
            self._ended = True
            return False
        self._buffer += data
        return True

    def _take(self, n: int) -> bytes:
        data = bytes(self._buffer[:n])
        del self._buffer[:n]
        return data

    def readline(self, limit: int) -> bytes:
        """Up to and including the next LF, at most ``limit`` bytes; what is left at the end of the stream; ``b""``
        after it."""
        searched = 0
        while True:
            found = self._buffer.find(b"\n", searched, limit)
            if found >= 0:
                return self._take(found + 1)
            if len(self._buffer) >= limit:
                return self._take(limit)
            searched = len(self._buffer)
            if not self._fill():
                return self._take(len(self._buffer))

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes (fewer at the end of the stream)."""
        while len(self._buffer) < n and self._fill(n - len(self._buffer)):
            pass
        return self._take(n)

    def unread(self, data: bytes) -> None:
        self._buffer[:0] = data


def frames(reader: Reader) -> Iterator[Any]:
    """Each message of the stream as its JSON value, or a :class:`Damage` where a header or a body was wrong (one for
    each stretch of damage: the bytes skipped while looking for the next header are not reported again)."""
    for item, _size in sized_frames(reader):
        yield item


def sized_frames(reader: Reader, room: Callable[[int], None] | None = None) -> Iterator[tuple[Any, int]]:
    """:func:`frames`, each item with the length of its body (0 for a damaged header). ``room(size)`` is called
    before each item is made (a body before it is parsed): it may wait, so that a body is not parsed while the
    server has not yet handled what came before it."""
    wait = room if room is not None else _no_wait
    lost = False
    while True:
        line = reader.readline(MAX_LINE)
        if not line:
            return
        if lost:
            found = _CONTENT_LENGTH.search(line)
            if found is None:
                continue
            line = line[found.start() :]
        elif line in (b"\r\n", b"\n"):  # blank lines between messages are harmless
            continue
        length, last = _header(reader, line)
        if length is None:
            return
        if isinstance(length, Damage):
            if not lost:
                wait(0)
                yield length, 0
            lost = True
            reader.unread(last[1:])  # the line that broke the header may hold the next one (a bare CR, no blank line)
            continue
        body = reader.read(length)
        if len(body) < length:
            return
        lost = False
        wait(length)
        value = _json(body)
        if isinstance(value, Damage):
            yield value, length
            lost = True
            reader.unread(body[_resume(body) :])
            continue
        parsed = [value]
        del value  # while suspended, the generator holds no reference: handled, the message is freed at once
        yield parsed.pop(), length


def _no_wait(size: int) -> None:
    pass


def _resume(body: bytes) -> int:
    """Where the search for the next header goes on in a body that is not a message: at a ``Content-Length:`` in it
    (the header said too much, and the body swallowed the start of the next message), or at the tail that starts one
    (said 1 to 14 bytes too much: ``Content-Le``); else after it.

    >>> [body[_resume(body) :] for body in (b'{"id": 1}Content-Le', b'{"id": 1}\\r\\nCONTENT-LENGTH: 8', b'{"id": 1} ')]
    [b'Content-Le', b'CONTENT-LENGTH: 8', b'']
    """
    found = _CONTENT_LENGTH.search(body)
    if found is not None:
        return found.start()
    tail = body[-(len(_HEADER_NAME) - 1) :].lower()
    for start in range(len(tail)):
        if _HEADER_NAME.startswith(tail[start:]):
            return len(body) - len(tail) + start
    return len(body)


def _header(reader: Reader, line: bytes) -> tuple[int | Damage | None, bytes]:
    """The body length the header starting with ``line`` gives; the damage; None at the end of the stream. With it,
    the last line read."""
    length: int | None = None
    for _ in range(_MAX_FIELDS):
        if not line.endswith(b"\n") and len(line) < MAX_LINE:
            return None, line  # the stream ended inside the header
        if not line.endswith(b"\r\n"):
            return Damage("header_line"), line
        field = line[:-2]
        if not field:
            return (length if length is not None else Damage("header_missing")), line
        name, colon, value = field.partition(b":")
        if not colon or not _FIELD_NAME.fullmatch(name):
            return Damage("header_line"), line
        if name.lower() == b"content-length":
            value = value.strip(b" \t")
            if not (1 <= len(value) <= 10 and value.isdigit()) or int(value) > MAX_BODY:
                return Damage("header_length"), line
            if length is not None and int(value) != length:
                return Damage("header_twice"), line
            length = int(value)
        line = reader.readline(MAX_LINE)
        if not line:
            return None, line
    return Damage("header_line"), line


def _json(body: bytes) -> Any:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return Damage("not_utf8")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # ValueError: not JSON, or an integer of more than 4,300 digits
        return Damage("not_json")


class Inbox:
    """Messages handed from the reading thread to the event loop, in order, at most ``capacity`` waiting and at most
    ``budget`` bytes of their bodies (one larger message alone): the reader stops reading while the server is behind,
    and memory stays bounded whatever the client sends. Room is made before a body is parsed (:meth:`reserve`): a
    4 MiB body of empty JSON objects is 90 MB once parsed, and only one such is in memory at a time."""

    def __init__(
        self,
        call_soon: Callable[..., object],
        handle: Callable[[Any], None],
        capacity: int = 64,
        budget: int = MAX_BODY,
    ) -> None:
        self._call_soon = call_soon
        self._handle = handle
        self._capacity = capacity
        self._budget = budget
        self._waiting = 0
        self._bytes = 0
        self._room = threading.Condition()

    def reserve(self, size: int) -> None:
        """From the reading thread: wait for room for a message whose body is ``size`` bytes, and hold it."""
        with self._room:
            self._room.wait_for(
                lambda: self._waiting < self._capacity and (self._waiting == 0 or self._bytes + size <= self._budget)
            )
            self._waiting += 1
            self._bytes += size

    def put(self, item: Any, size: int) -> None:
        """From the reading thread: have the loop handle ``item``, for which :meth:`reserve` made room."""
        self._call_soon(self._run, [item], size)

    def _run(self, box: list[Any], size: int) -> None:
        try:
            self._handle(box.pop())  # the loop's callback keeps no reference: the item is freed before room is made
        finally:
            with self._room:
                self._waiting -= 1
                self._bytes -= size
                self._room.notify_all()


def read_messages(read: Callable[[int], bytes], inbox: Inbox) -> None:
    """Read the stream to its end, handing each message or damage to ``inbox``, and :data:`END` (a thread's body)."""
    try:
        for item, size in sized_frames(Reader(read), inbox.reserve):
            inbox.put(item, size)
            del item  # the next message is parsed while this name would still hold the last one
    except RuntimeError:  # the event loop is closed: the server has exited
        return
    except Exception as exc:  # the stream broke: the session ends as if the client had closed it
        log.warning("reading from the client failed: %s", exc)
    with contextlib.suppress(RuntimeError):
        inbox.reserve(0)
        inbox.put(END, 0)
