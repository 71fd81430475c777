"""The language server: pygls handlers for diagnostics, hover, completion, code actions and settings.

Every handler answers from :mod:`dsref.server.analysis`, :mod:`dsref.server.completion` and dsref's faces; none of
them lets an exception out: a document the server cannot make sense of gets no diagnostics, never a dead server.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcParseError
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from ..text.i18n import Lang
from ..text.language import resolve_language
from ..tree.versions import DSREF_VERSION
from .analysis import Analysis, analyse, looks_like_config
from .settings import TEXTS, Settings, read_settings

__all__ = ["COMMANDS", "DsrefServer", "make_server"]

log = logging.getLogger("dsref.server")

COMMANDS = {"explain_rule": "dsref.explainRule", "open_reference": "dsref.openReference"}
"""The commands code actions carry (``workspace/executeCommand``)."""


class _Protocol(LanguageServerProtocol):
    """pygls' protocol, answering a request whose parameters it cannot read with the JSON-RPC error the spec calls
    for (pygls only logs it, and the client would wait for an answer forever)."""

    def structure_message(self, data: Any) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                error = lsp.ResponseError(code=exc.code, message=f"{exc.message}: {data.get('method')}")
                self._send_response(data["id"], error=error)
            raise


class DsrefServer(LanguageServer):
    """pygls' server with dsref's state: the settings, the editor's language, the last analysis of each document."""

    def __init__(self) -> None:
        super().__init__(
            "dsref",
            DSREF_VERSION,
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=_Protocol,
        )
        self.settings = Settings()
        self.editor_lang: Lang = "en"
        self.analyses: dict[str, Analysis] = {}

    @property
    def lang(self) -> Lang:
        return self.settings.language or self.editor_lang

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Errors outside a request: a message that is not JSON gets JSON-RPC's parse error; one whose request was
        answered with an error already (see :class:`_Protocol`) gets nothing more; the rest are logged."""
        import json

        if isinstance(error, json.JSONDecodeError) or isinstance(error.__cause__, json.JSONDecodeError):
            problem = JsonRpcParseError()
            self.protocol._send_data(
                {"jsonrpc": "2.0", "id": None, "error": {"code": problem.code, "message": problem.message}}
            )
            return
        if isinstance(error, JsonRpcException):
            log.warning("a message the server could not read: %s", error)
            return
        log.error("dsref server error: %s", error)

    def apply_settings(self, raw: Any) -> None:
        settings, problems = read_settings(raw)
        self.settings = settings
        for problem in problems:
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, problem.message(self.lang)))

    def check(self, uri: str) -> None:
        """Check the document and publish its diagnostics (none for a file that is not a DeepSpeed config)."""
        try:
            document = self.workspace.get_text_document(uri)
            text = document.source
            if not looks_like_config(uri, text):
                self.analyses.pop(uri, None)
                diagnostics: list[lsp.Diagnostic] = []
            else:
                analysis = analyse(uri, text, self.settings, self.editor_lang)
                self.analyses[uri] = analysis
                diagnostics = analysis.diagnostics
            self.text_document_publish_diagnostics(
                lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=document.version)
            )
        except Exception:  # a crash here would end the editor's session: log it, publish nothing
            log.exception("checking %s failed", uri)


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

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: DsrefServer, params: lsp.DidChangeConfigurationParams) -> None:
        ls.apply_settings(params.settings)
        for uri in list(ls.workspace.text_documents):
            ls.check(uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: DsrefServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: DsrefServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: DsrefServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.check(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: DsrefServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.analyses.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))

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
    def explain_rule(ls: DsrefServer, code: str) -> None:
        from ..check.fix_notes import fix_note
        from ..check.rules import get_rule

        rule = get_rule(str(code))
        if rule is not None:
            text = f"{rule.code} {rule.name}: {rule.text('explanation', ls.lang)}"
        else:
            from ..check.findings import Kind
            from ..check.messages import explanation

            kind = next((k for k in Kind if k.code == code), None)
            text = f"{code}: {explanation(kind, ls.lang)}" if kind is not None else str(code)
        text += "\n\n" + fix_note(str(code), ls.lang)
        ls.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Info, text))

    @server.command(COMMANDS["open_reference"])
    def open_reference(ls: DsrefServer, url: str) -> None:
        ls.window_show_document(lsp.ShowDocumentParams(uri=str(url), external=True))

    return server


def _hover(ls: DsrefServer, params: lsp.HoverParams) -> lsp.Hover | None:
    from ..explain.markdown import markdown
    from ..tree.index import OptionIndex
    from ..tree.links import option_url
    from .context import cursor_context

    uri = params.text_document.uri
    document = ls.workspace.get_text_document(uri)
    text = document.source
    if not looks_like_config(uri, text):
        return None
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
    document = ls.workspace.get_text_document(uri)
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
    analysis = ls.analyses.get(uri)
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
                + ("" if fix.safe else " (unsafe)" if analysis.lang == "en" else "（不安全）"),
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


def main(argv: list[str] | None = None, *, tcp: tuple[str, int] | None = None) -> int:
    """Serve over stdio (or TCP on ``tcp``) until the client says exit."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    server = make_server()
    if tcp is not None:
        server.start_tcp(*tcp)
    else:
        server.start_io()
    return 0
