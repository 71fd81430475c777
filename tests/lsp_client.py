"""Waiting for what the language server publishes, for the tests that start its process with pytest-lsp
(tests/functional/test_server.py, test_server_launch.py)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

if TYPE_CHECKING:
    from pytest_lsp import LanguageClient

__all__ = ["diagnostics_of"]


async def diagnostics_of(client: LanguageClient, uri: str, timeout: float = 30) -> list[lsp.Diagnostic]:
    """The next diagnostics published for ``uri`` (others, such as those of a closed file, are passed over).

    The notification can be read before ``wait_for_notification`` starts waiting (its task is scheduled after the
    data already received), so the wait is short and the client's record is looked at again after each one.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while uri not in client.diagnostics:
        try:
            await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=0.5)
        except TimeoutError:
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics for {uri} in {timeout} s") from None
    return list(client.diagnostics[uri])
