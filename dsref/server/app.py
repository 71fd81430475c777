"""The language server: pygls handlers for diagnostics, hover, completion, code actions and settings.

Every handler answers from :mod:`dsref.server.analysis`, :mod:`dsref.server.completion` and dsref's faces; none of
them lets an exception out: a document the server cannot make sense of gets no diagnostics, never a dead server.
What comes in is read by :mod:`.transport` (the base protocol, in a thread of its own) and answered as JSON-RPC and
LSP say by :mod:`.rpc`; documents are checked in a worker when :mod:`.schedule` says, and only the diagnostics of
their current text are published.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.io_ import StdoutWriter

from ..check.report.target import installed_deepspeed, installed_hugging_face, release_to_check, statement
from ..text.escape import visible
from ..text.i18n import Lang
from ..text.language import resolve_language
from ..tree.versions import DSREF_VERSION
from .analysis import Analysis, analyse, looks_like_config
from .rpc import Protocol, Server, one_line
from .schedule import Scheduler
from .settings import Settings, read_settings
from .texts import TEXTS
from .transport import Inbox, read_messages

__all__ = ["COMMANDS", "DsrefServer", "make_server"]

log = logging.getLogger("dsref.server")

COMMANDS = {"explain_rule": "dsref.explainRule", "open_reference": "dsref.openReference"}

STATUS = "dsref/status"
"""The notification that says what the checks are for (``{"text": ..., "deepspeed": ..., "source": ...}``)."""
"""The commands code actions carry (``workspace/executeCommand``)."""


class DsrefServer(Server):
    """pygls' server with dsref's state: the settings, the editor's language, the last analysis of each document."""

    protocol: Protocol

    def __init__(self) -> None:
        super().__init__(
            "dsref",
            DSREF_VERSION,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=Protocol,
        )
        self.settings = Settings()
        self.release = release_to_check(None, installed_deepspeed())
        """The DeepSpeed release the checks are for (:mod:`dsref.check.report.target`), worked out when the settings
        change."""
        self.hugging_face = installed_hugging_face()
        """The transformers and accelerate whose filling of "auto" the checks follow, found with :attr:`release`."""
        self.editor_lang: Lang = "en"
        self.analyses: dict[str, Analysis] = {}
        self.checks = Scheduler(self._snapshot, self._publish)
        self.exit_status = 0

    @property
    def lang(self) -> Lang:
        return self.settings.language or self.editor_lang

    def report_server_error(self, error: Exception, source: Any) -> None:
        """What pygls reports outside a request (its answers are :mod:`.rpc`'s): one line in the log."""
        log.warning("dsref server: %s", one_line(error))

    def apply_settings(self, raw: Any) -> None:
        settings, problems = read_settings(raw)
        self.settings = settings
        for problem in problems:
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, problem.message(self.lang)))
        self.release = release_to_check(settings.deepspeed_version, installed_deepspeed(settings.python))
        self.hugging_face = installed_hugging_face(settings.python)

    def say_status(self) -> None:
        """What the checks are for, as ``dsref check``'s first line says it: in the log, and to an editor that
        shows it in its status bar (``dsref/status``, which dsref's VS Code extension does)."""
        said = statement(
            self.release,
            self.settings.profile,
            self.lang,
            detected=self.settings.profile is None,
            hugging_face=self.hugging_face,
        )
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, "dsref: " + said))
        self.protocol.notify(STATUS, {"text": said, **self.release.to_json(), "profile": self.settings.profile})

    def _snapshot(self, uri: str) -> Callable[[], tuple[int | None, Analysis | None]]:
        """The check of ``uri`` as it is now, to run in the worker: its version and analysis (None for a file that is
        not a DeepSpeed config)."""
        document = self.workspace.text_documents[uri]  # an open one: pygls would read any other from the disk
        text, version, settings, lang = document.source, document.version, self.settings, self.editor_lang
        target, hugging_face = self.release.version, self.hugging_face

        def work() -> tuple[int | None, Analysis | None]:
            if not looks_like_config(uri, text):
                return version, None
            return version, analyse(uri, text, settings, lang, target, hugging_face)

        return work

    def _publish(self, uri: str, result: tuple[int | None, Analysis | None]) -> None:
        version, analysis = result
        if analysis is None:
            self.analyses.pop(uri, None)
        else:
            self.analyses[uri] = analysis
        diagnostics = analysis.diagnostics if analysis is not None else []
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def analysis_of(self, uri: str) -> Analysis | None:
        """The analysis of the document as it is now: the last published one if the text is the same, else a new one
        (a quick fix asked for between an edit and its diagnostics must fit the text it will edit)."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        analysis, text = self.analyses.get(uri), document.source
        if analysis is not None and analysis.text == text:
            return analysis
        if not looks_like_config(uri, text):
            return None
        return analyse(uri, text, self.settings, self.editor_lang, self.release.version, self.hugging_face)

    # -- serving ---------------------------------------------------------------------------------------------------

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdin and stdout until the client says exit; :attr:`exit_status` is the status to exit with."""
        source = stdin if stdin is not None else sys.stdin.buffer
        try:
            read: Callable[[int], bytes] = _fd_reader(source.fileno())
        except (AttributeError, OSError, ValueError):
            read = getattr(source, "read1", source.read)
        self.exit_status = self._serve(read, StdoutWriter(stdout if stdout is not None else sys.stdout.buffer))

    def start_tcp(self, host: str, port: int) -> None:
        """Serve the first client that connects to ``host``:``port`` (for debugging)."""
        import socket

        with socket.create_server((host, port)) as listener:
            connection, _ = listener.accept()
        with connection, connection.makefile("wb") as output:
            self.exit_status = self._serve(connection.recv, StdoutWriter(output))

    def _serve(self, read: Callable[[int], bytes], writer: StdoutWriter) -> int:
        self.protocol.set_writer(writer)
        try:
            return asyncio.run(self._session(read))
        except KeyboardInterrupt:
            return 1
        finally:
            self.checks.stop()

    async def _session(self, read: Callable[[int], bytes]) -> int:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: log.error("dsref server: %s", context.get("message")))
        self.protocol.done = loop.create_future()
        inbox = Inbox(loop.call_soon_threadsafe, self.protocol.receive)
        threading.Thread(target=read_messages, args=(read, inbox.put), name="dsref-read", daemon=True).start()
        return await self.protocol.done


def _fd_reader(fd: int) -> Callable[[int], bytes]:
    """Read the file descriptor itself: a thread blocked there holds none of the locks of ``sys.stdin``, which the
    interpreter takes when it exits."""

    def read(n: int) -> bytes:
        return os.read(fd, n)

    return read


def make_server() -> DsrefServer:
    """A server with every feature registered (a new one each time, so that tests can start several)."""
    server = DsrefServer()

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: DsrefServer, params: lsp.InitializeParams) -> None:
        try:
            ls.editor_lang = resolve_language(None, {"LANG": (params.locale or "").replace("-", "_")})
        except Exception:
            ls.editor_lang = "en"
        ls.apply_settings(params.initialization_options)

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: DsrefServer, params: lsp.InitializedParams) -> None:
        ls.say_status()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: DsrefServer, params: lsp.DidChangeConfigurationParams) -> None:
        ls.apply_settings(params.settings)
        ls.say_status()
        for uri in list(ls.workspace.text_documents):
            ls.checks.changed(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: DsrefServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.checks.forget(params.text_document.uri)  # opened again: what was on the way is for the old text
        ls.checks.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: DsrefServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.checks.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: DsrefServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri in ls.workspace.text_documents:
            ls.checks.publish(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: DsrefServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.checks.forget(params.text_document.uri)
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))

    @server.feature(lsp.SHUTDOWN)
    def shutdown(ls: DsrefServer, *_: Any) -> None:
        ls.checks.stop()

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: DsrefServer, params: lsp.HoverParams) -> lsp.Hover | None:
        try:
            return _hover(ls, params)
        except Exception:
            log.exception("hover failed")
            return None

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=['"', ":", " "]))
    def completion(ls: DsrefServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        try:
            return _completion(ls, params)
        except Exception:
            log.exception("completion failed")
            return None

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix])
    )
    def code_action(ls: DsrefServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        try:
            return _code_actions(ls, params)
        except Exception:
            log.exception("code actions failed")
            return None

    @server.command(COMMANDS["explain_rule"])
    def explain_rule(ls: DsrefServer, arguments: Any) -> None:
        from ..check.repair.fix_notes import fix_note
        from ..check.report.codes import find_code

        code = _one_string(ls, arguments, COMMANDS["explain_rule"], TEXTS.text("rule_argument", ls.lang))
        found = find_code(code)
        if found is None:
            text = str(code)
        elif found.rule is not None:
            text = f"{found.code} {found.name}: {found.explanation(ls.lang)}"
        else:
            text = f"{found.code}: {found.explanation(ls.lang)}"
        text += "\n\n" + fix_note(code, ls.lang)
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, text))

    @server.command(COMMANDS["open_reference"])
    def open_reference(ls: DsrefServer, arguments: Any) -> None:
        """Open a page of dsref's site in the user's browser, and nothing else: the URL comes from the client, and
        ``window/showDocument`` with ``external`` hands it to the system (a ``javascript:`` or ``file:`` URL, a
        look-alike host)."""
        from ..tree.links import SITE, is_site_url

        command = COMMANDS["open_reference"]
        url = _one_string(ls, arguments, command, TEXTS.text("reference_argument", ls.lang, site=SITE))
        if not is_site_url(url):
            shown = visible(url[:200] + ("…" if len(url) > 200 else ""))
            raise JsonRpcInvalidParams(TEXTS.text("not_site_url", ls.lang, command=command, site=SITE, url=shown))
        ls.window_show_document(lsp.ShowDocumentParams(uri=url, external=True))

    return server


def _one_string(ls: DsrefServer, arguments: Any, command: str, expected: str) -> str:
    """The one string a command takes, from its ``arguments`` as the client sent them; else InvalidParams, saying
    what the command takes."""
    if isinstance(arguments, list) and len(arguments) == 1 and isinstance(arguments[0], str):
        return arguments[0]
    raise JsonRpcInvalidParams(TEXTS.text("bad_arguments", ls.lang, command=command, expected=expected))


def _hover(ls: DsrefServer, params: lsp.HoverParams) -> lsp.Hover | None:
    from ..editor.context import cursor_context
    from ..explain.markdown import markdown
    from ..tree.index import OptionIndex
    from ..tree.links import option_url

    uri = params.text_document.uri
    document = ls.workspace.text_documents.get(uri)
    if document is None or not looks_like_config(uri, document.source):
        return None
    text = document.source
    offset = document.offset_at_position(params.position)
    at = cursor_context(text, offset)
    if at is None or at.key is None:
        return None
    hit = OptionIndex.load().resolve(".".join([*at.path, at.key]))
    if hit is None:
        return None
    content = markdown(hit.record, ls.lang, link=option_url(hit.record.path, ls.lang))
    where = None
    if at.role == "key":
        where = lsp.Range(document.client_position_at_offset(at.start), document.client_position_at_offset(at.end))
    return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, content), where)


def _completion(ls: DsrefServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
    from .completion import complete

    uri = params.text_document.uri
    document = ls.workspace.text_documents.get(uri)
    if document is None:
        return None
    text = document.source
    if not looks_like_config(uri, text) and text.strip() not in ("", "{", "{}"):
        return None
    offset = document.offset_at_position(params.position)
    analysis = ls.analyses.get(uri)
    profile = analysis.profile if analysis is not None else (ls.settings.profile or "deepspeed")
    items = complete(text, offset, ls.lang, profile)
    for item in items:
        data = item.data if isinstance(item.data, dict) else None
        if data and "start" in data and item.insert_text is not None:
            start = document.client_position_at_offset(data["start"])
            end = document.client_position_at_offset(max(data["end"], offset))
            item.text_edit = lsp.TextEdit(lsp.Range(start, end), item.insert_text)
            item.insert_text = None
            item.data = {"path": data.get("path")}
    return lsp.CompletionList(is_incomplete=False, items=items)


def _code_actions(ls: DsrefServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    from ..tree.links import page_url

    uri = params.text_document.uri
    analysis = ls.analysis_of(uri)
    if analysis is None:
        return []
    wanted = params.context.diagnostics or [d for d in analysis.diagnostics if _overlaps(d.range, params.range)]
    keys = {(d.code, _key(d.range)) for d in wanted}
    actions: list[lsp.CodeAction] = []
    for diagnostic, _shown, fix in analysis.fixes:
        if (diagnostic.code, _key(diagnostic.range)) not in keys:
            continue
        actions.append(
            lsp.CodeAction(
                title=fix.title_text(analysis.lang)
                if fix.safe
                else TEXTS.text("unsafe_fix", analysis.lang, title=fix.title_text(analysis.lang)),
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=fix.safe,
                edit=lsp.WorkspaceEdit(changes={uri: analysis.edits(fix)}),
            )
        )
    seen: set[str] = set()
    for diagnostic in wanted:
        code = str(diagnostic.code or "")
        if not code.startswith("DS") or code in seen:
            continue
        seen.add(code)
        explain = TEXTS.text("explain_rule", analysis.lang, code=code)
        actions.append(
            lsp.CodeAction(
                title=explain,
                kind=lsp.CodeActionKind.QuickFix,
                command=lsp.Command(title=explain, command=COMMANDS["explain_rule"], arguments=[code]),
            )
        )
        reference = TEXTS.text("open_reference", analysis.lang, code=code)
        actions.append(
            lsp.CodeAction(
                title=reference,
                kind=lsp.CodeActionKind.QuickFix,
                command=lsp.Command(
                    title=reference,
                    command=COMMANDS["open_reference"],
                    arguments=[page_url(f"rules/{code}/", analysis.lang)],
                ),
            )
        )
    return actions


def _key(r: lsp.Range) -> tuple[int, int, int, int]:
    return r.start.line, r.start.character, r.end.line, r.end.character


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return _key(a)[:2] <= _key(b)[2:] and _key(b)[:2] <= _key(a)[2:]


class _OneLine(logging.Formatter):
    """Log records without tracebacks: whatever a client sends, stderr gets no traceback, only the exception's type,
    message and the line that raised it."""

    def formatException(self, ei: Any) -> str:
        _type, error, trace = ei
        if error is None:
            return ""
        where = traceback.extract_tb(trace)[-1] if trace is not None else None
        return one_line(error) + (f" ({where.filename}:{where.lineno})" if where is not None else "")

    def formatStack(self, stack_info: str) -> str:
        return ""


def main(argv: list[str] | None = None, *, tcp: tuple[str, int] | None = None) -> int:
    """Serve over stdio (or TCP on ``tcp``) until the client says exit; the exit status LSP prescribes: 0 after
    ``shutdown``, 1 without."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine(logging.BASIC_FORMAT))
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    server = make_server()
    if tcp is not None:
        server.start_tcp(*tcp)
    else:
        server.start_io()
    return server.exit_status
