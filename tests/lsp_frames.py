"""LSP's base protocol for the server's tests: a framed message, and a damaged frame of each kind.

Shared by the transport's unit tests (byte streams, in-process) and the server's process tests (the same bytes on
its stdin), so that both send the same damage.
"""

from __future__ import annotations

import json

from dsref.server.transport import MAX_BODY

__all__ = ["DAMAGED", "HOVER", "LOST_ID", "frame", "request"]

HOVER = {"textDocument": {"uri": "file:///work/not-open/ds_config.json"}, "position": {"line": 0, "character": 0}}
"""A request any server answers (with null: the document is not open)."""

LOST_ID = 999
"""The id of the request inside each damaged frame."""


def frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


def request(msg_id: int) -> bytes:
    """The body of a hover request."""
    return json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover", "params": HOVER}).encode()


def _damaged() -> dict[str, tuple[bytes, bool]]:
    body = request(LOST_ID)
    n = len(body)
    damaged = {
        "Content-Length not a number": (b"Content-Length: abc\r\n\r\n" + body, False),
        "no Content-Length": (b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + body, False),
        "Content-Length negative": (b"Content-Length: -5\r\n\r\n" + body, False),
        "Content-Length 10 bytes too short": (b"Content-Length: %d\r\n\r\n" % (n - 10) + body, False),
        "Content-Length 25 bytes too long": (b"Content-Length: %d\r\n\r\n" % (n + 25) + body, False),
        "LF line ends": (b"Content-Length: %d\n\n" % n + body, False),
        "Content-Length of 5,000 digits": (b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n" + body, False),
        "Content-Length of 11 digits": (b"Content-Length: 00000000012\r\n\r\n" + body, False),
        "Content-Length over the cap": (b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1) + body, False),
        "a line without a colon": (b"hello\r\nContent-Length: %d\r\n\r\n" % n + body, True),
        "a 100 KB line": (b"X-Padding: " + b"x" * 100_000 + b"\r\nContent-Length: %d\r\n\r\n" % n + body, True),
        "Content-Length twice, the first wrong": (
            b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (n + 5, n) + body,
            False,
        ),
        "Content-Length twice, the second wrong": (
            b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (n, n + 5) + body,
            False,
        ),
        "Content-Length twice in one line": (b"Content-Length: Content-Length: %d\r\n\r\n" % n + body, True),
        "header ended by a bare CR": (b"Content-Length: %d\r\n\r" % n + body, False),
        "header line ended by a bare CR": (b"Content-Length: %d\r\r\n" % n + body, False),
        "header of bare CRs": (b"Content-Length: %d\r\r" % n + body, False),
        "no empty line after the header": (b"Content-Length: %d\r\n" % n + body, False),
    }
    for extra in range(1, 15):
        damaged[f"Content-Length {extra} bytes too long"] = (b"Content-Length: %d\r\n\r\n" % (n + extra) + body, False)
    return damaged


DAMAGED = _damaged()
"""A damaged frame of each kind (its body the request :data:`LOST_ID`), and whether that request is read after all
(a damaged line before a good header costs only that line)."""
