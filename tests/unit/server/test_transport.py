"""The base protocol's reader on byte streams: each damaged frame costs one parse error and nothing after it; memory
waiting for the loop stays bounded (the server's process tests send the same bytes to the real server)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from dsref.server.transport import MAX_BODY, Damage, Inbox, Reader, frames
from tests.lsp_frames import DAMAGED, LOST_ID, frame, request


def _read(stream: bytes, chunk: int) -> list[Any]:
    """What :func:`frames` makes of ``stream`` read ``chunk`` bytes at a time: the ids of the messages, and Damage."""
    pieces = iter([stream[i : i + chunk] for i in range(0, len(stream), chunk)])
    return [item if isinstance(item, Damage) else item["id"] for item in frames(Reader(lambda n: next(pieces, b"")))]


@pytest.mark.parametrize("name", list(DAMAGED))
@pytest.mark.parametrize("chunk", [1, 65536])
def test_the_next_message_is_read_after_each_damaged_frame(name: str, chunk: int) -> None:
    damaged, survives = DAMAGED[name]
    got = _read(damaged + frame(request(1)) + frame(request(2)), chunk)
    assert isinstance(got[0], Damage)
    assert got[1:] == ([LOST_ID] if survives else []) + [1, 2]


def test_every_damage_in_one_stream_costs_one_error_each() -> None:
    stream, expected = b"", []
    for number, (damaged, survives) in enumerate(DAMAGED.values(), start=1):
        stream += damaged + frame(request(number))
        expected += [Damage, *([LOST_ID] if survives else []), number]
    got = _read(stream, 7)
    assert [Damage if isinstance(item, Damage) else item for item in got] == expected


def test_damage_is_named() -> None:
    body = request(1)
    keys = {
        b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(body), len(body) + 1): "header_twice",
        b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1): "header_length",
        b"Content-Length: %d\r\n\r" % len(body): "header_line",
        b"Content-Length: %d\r\n\r\n" % (len(body) + 3): "not_json",
    }
    for header, key in keys.items():
        [damage, *_rest] = _read(header + body + frame(request(2)), 64)
        assert damage == Damage(key), header


def test_the_same_content_length_twice_is_no_damage() -> None:
    body = request(1)
    assert _read(b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(body), len(body)) + body, 64) == [1]


def test_a_body_at_the_cap_is_read() -> None:
    body = b'{"id": 1, "pad": "' + b"x" * (MAX_BODY - 20) + b'"}'
    assert len(body) == MAX_BODY
    assert _read(frame(body), 1 << 20) == [1]


def test_the_inbox_holds_at_most_its_budget_of_bytes() -> None:
    """The reader waits while the loop has not handled what it was given: never more than the budget of bodies
    waiting, except one larger message alone."""
    queued: list[Any] = []
    handled: list[Any] = []
    inbox = Inbox(lambda *call: queued.append(call), handled.append, capacity=64, budget=100)

    def reader() -> None:
        for item, size in [("a", 60), ("b", 60), ("c", 500), ("d", 1)]:
            inbox.reserve(size)  # before the body is parsed
            inbox.put(item, size)

    def waiting() -> list[Any]:
        time.sleep(0.2)
        return [box[0] for _run, box, _size in queued]

    def run_first() -> None:
        run, *args = queued.pop(0)
        run(*args)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    assert waiting() == ["a"]  # b would make 120 bytes waiting
    run_first()
    assert waiting() == ["b"]  # c (500) waits until nothing else does
    run_first()
    assert waiting() == ["c"]
    run_first()
    thread.join(timeout=5)
    assert waiting() == ["d"] and handled == ["a", "b", "c"]
