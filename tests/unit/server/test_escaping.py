"""What the server gives the editor to show passes through the command line's escaping
(:func:`dsref.text.escape.visible`): a rule code the client sent, an installed release's version string, a key of the
file. In-process, with the protocol's output caught."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from tests import needs

needs.module("pygls")  # the server's packages: dsref[server]

from dsref.check.report.target import Release, ReleaseSource  # noqa: E402
from dsref.server.analysis import analyse  # noqa: E402
from dsref.server.app import COMMANDS, STATUS, DsrefServer, make_server  # noqa: E402
from dsref.server.settings import Settings  # noqa: E402
from dsref.tree.profiles import HfReleases  # noqa: E402

ESC = "\x1b]0;owned\x07\x1b[31m\x9b\u202e"
"""A title-setting OSC, a colour, a C1 CSI and a right-to-left override."""


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> tuple[DsrefServer, list[tuple[str, Any]]]:
    server = make_server()
    sent: list[tuple[str, Any]] = []
    monkeypatch.setattr(server.protocol, "notify", lambda method, params=None: sent.append((method, params)))
    return server, sent


def _texts(params: Any) -> list[str]:
    """Every string in a notification's params."""
    if isinstance(params, str):
        return [params]
    if isinstance(params, dict):
        return [text for value in params.values() for text in _texts(value)]
    if isinstance(params, (list, tuple)):
        return [text for value in params for text in _texts(value)]
    if attrs.has(type(params)):
        return _texts(attrs.asdict(params))
    return []


def _raw(texts: list[str]) -> list[str]:
    """The texts that hold one of :data:`ESC`'s control characters as it is."""
    return [text for text in texts if any(char in text for char in "\x1b\x07\x9b\u202e")]


def test_explain_rule_shows_the_code_it_was_given_escaped(said: tuple[DsrefServer, list[tuple[str, Any]]]) -> None:
    server, sent = said
    server.protocol.fm.commands[COMMANDS["explain_rule"]](["DS301" + ESC])  # pygls binds the server
    [(method, params)] = sent
    assert method == "window/showMessage"
    assert _raw(_texts(params)) == []
    assert "DS301\\x1b]0;owned\\x07\\x1b[31m\\x9b\\u202e" in params.message


def test_the_status_and_the_log_escape_the_installed_versions(said: tuple[DsrefServer, list[tuple[str, Any]]]) -> None:
    server, sent = said
    server.release = Release("0.19.8", ReleaseSource.unknown, "0.19.8" + ESC)
    server.hugging_face = HfReleases(transformers="4.46.0" + ESC, accelerate="1.0" + ESC)
    server.settings = Settings(profile="hf")
    server.say_status()
    assert [method for method, _params in sent] == ["window/logMessage", STATUS]
    texts = [text for _method, params in sent for text in _texts(params)]
    assert _raw(texts) == []
    assert sum("4.46.0\\x1b]0;owned" in text for text in texts) == 2  # the log and the status
    assert sent[1][1]["installed"] == "0.19.8\\x1b]0;owned\\x07\\x1b[31m\\x9b\\u202e"


def test_every_message_shown_or_logged_is_escaped(said: tuple[DsrefServer, list[tuple[str, Any]]]) -> None:
    from lsprotocol import types as lsp

    server, sent = said
    server.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, "line one\nline two " + ESC))
    server.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, ESC))
    assert _raw([text for _method, params in sent for text in _texts(params)]) == []
    assert sent[0][1].message.startswith("line one\nline two \\x1b")  # its own lines stay lines


def test_diagnostics_escape_what_the_file_holds() -> None:
    text = '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "stgae\\u001b]0;owned\\u0007": 1}}'
    analysis = analyse("file:///w/ds_config.json", text, Settings(), "en")
    messages = [d.message for d in analysis.diagnostics]
    assert messages and any("stgae\\x1b]0;owned\\x07" in message for message in messages)
    assert _raw(messages) == []
