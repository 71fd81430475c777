"""The language server: pygls handlers for diagnostics, hover, completion, code actions and settings.

Every handler answers from :mod:`dsref.server.analysis`, :mod:`dsref.server.completion` and dsref's faces; none of
them lets an exception out: a document the server cannot make sense of gets no diagnostics, never a dead server.
What comes in is read by :mod:`.transport` (the base protocol, in a thread of its own) and answered as JSON-RPC and
LSP say by :mod:`.rpc`; documents are checked in a worker when :mod:`.schedule` says, and only the diagnostics of
their current text are published. A launch file (a LLaMA-Factory, axolotl or Accelerate YAML, a shell script) is
checked as ``dsref check LAUNCH`` checks it, and a ds_config with the launch of the workspace that names it
(:mod:`.launches`).

Nothing slow runs on the event loop: a check runs in the scheduler's worker, and a code action answers from the
analysis of the current text (the last published, or the one the worker is computing, waited for) or with no fixes;
the interpreter of the ``python`` setting is asked in a thread of its own, and the status says when it could not be.
Every text the editor shows (messages, the log, the status, diagnostics, code action titles) and every line of the
server's log passes through :func:`dsref.text.escape.visible`, as the command line's does.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO

import attrs
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.io_ import StdoutWriter

from ..check.edits import Fix
from ..check.report.target import (
    Answer,
    ask_interpreter,
    installed_deepspeed,
    installed_hugging_face,
    release_to_check,
    statement,
)
from ..launch.read import is_launch_file
from ..text.escape import visible
from ..text.i18n import Lang
from ..text.language import resolve_language
from ..tree.versions import DSREF_VERSION
from .analysis import Analysis, analyse, analyse_launch, document_path, looks_like_config
from .launches import WALK_LIMIT, Found, launch_for, walk_launch_files
from .rpc import Protocol, Server, one_line
from .schedule import Scheduler
from .settings import Settings, read_settings
from .texts import TEXTS
from .transport import Inbox, read_messages

__all__ = ["COMMANDS", "DsrefServer", "make_server"]

log = logging.getLogger("dsref.server")

COMMANDS = {"explain_rule": "dsref.explainRule", "open_reference": "dsref.openReference"}
"""The commands code actions carry (``workspace/executeCommand``)."""

STATUS = "dsref/status"
"""The notification that says what the checks are for (``{"text": ..., "deepspeed": ..., "source": ...}``); for a
ds_config checked with a launch of the workspace, also ``"file"`` and the ``"launch"`` (None when it has none now)."""


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
        self._asked: asyncio.Future[Answer] | None = None
        self.launch_files: Found | None = None
        """The launch files of the workspace folders, walked in the worker when a ds_config is first checked, and
        again after a launch file is opened or saved (:mod:`.launches`)."""
        self._launch_said: dict[str, str | None] = {}
        """For each ds_config, the launch the status last named for it."""
        """The answer of the environment the settings name, asked off the loop (:meth:`settle`)."""

    @property
    def lang(self) -> Lang:
        return self.settings.language or self.editor_lang

    def report_server_error(self, error: Exception, source: Any) -> None:
        """What pygls reports outside a request (its answers are :mod:`.rpc`'s): one line in the log."""
        log.warning("dsref server: %s", one_line(error))

    def apply_settings(self, raw: Any) -> None:
        """Take the settings, and ask the environment they name for its releases in a thread of its own: a slow
        interpreter delays the status, never the server (:meth:`settle`)."""
        settings, problems = read_settings(raw)
        self.settings = settings
        for problem in problems:
            self.window_show_message(lsp.ShowMessageParams(lsp.MessageType.Warning, problem.message(self.lang)))
        self._asked = _in_thread(_ask_environment, settings.python)

    async def settle(self) -> bool:
        """Wait for the answer of the environment the settings name and check for the release it gives: whether
        that changed what the checks are for. False too when newer settings came meanwhile (they settle on their
        own)."""
        asked = self._asked
        if asked is None:
            return False
        answer = await asyncio.shield(asked)
        if asked is not self._asked:
            return False
        release = release_to_check(self.settings.deepspeed_version, answer.deepspeed, unasked=answer.unasked)
        changed = (release, answer.hugging_face) != (self.release, self.hugging_face)
        self.release, self.hugging_face = release, answer.hugging_face
        return changed

    def check_all(self) -> None:
        """Check every open document again (the settings, or what they are checked for, changed)."""
        for uri in list(self.workspace.text_documents):
            self.checks.changed(uri)

    def say_status(self, launched: tuple[str, str | None] | None = None) -> None:
        """What the checks are for, as ``dsref check``'s first line says it: in the log, and to an editor that
        shows it in its status bar (``dsref/status``, which dsref's VS Code extension does). With ``launched`` (a
        ds_config's path and the launch file it was checked with, or None), which launch that was."""
        said = statement(
            self.release,
            self.settings.profile,
            self.lang,
            detected=self.settings.profile is None,
            hugging_face=self.hugging_face,
        )
        extra: dict[str, Any] = {}
        if launched is not None:
            config, launch = launched
            found = self.launch_files
            if launch is not None:
                sentence = TEXTS.text("with_launch", self.lang, config=config, launch=launch)
            else:
                sentence = TEXTS.text("without_launch", self.lang, config=config)
                if found is not None and found.capped:
                    sentence += " " + TEXTS.text("walk_capped", self.lang, limit=f"{WALK_LIMIT:,}")
            said += " " + sentence
            extra = {"file": config, "launch": launch}
        self.window_log_message(lsp.LogMessageParams(lsp.MessageType.Info, "dsref: " + said))
        status = {"text": said, **self.release.to_json(), "profile": self.settings.profile, **extra}
        self.protocol.notify(STATUS, {k: visible(v, name=True) if isinstance(v, str) else v for k, v in status.items()})

    def window_show_message(self, params: lsp.ShowMessageParams) -> None:
        super().window_show_message(attrs.evolve(params, message=visible(params.message, lines=True)))

    def window_log_message(self, params: lsp.LogMessageParams) -> None:
        super().window_log_message(attrs.evolve(params, message=visible(params.message, lines=True)))

    def _snapshot(self, uri: str) -> Callable[[], tuple[Analysis | None, bytes]]:
        """The check of ``uri`` as it is now, to run in the worker: its analysis (None for a file that is not a
        DeepSpeed config) and the ``publishDiagnostics`` that says it, encoded there too (for 5,600 findings that is
        two tenths of a second the loop would spend)."""
        document = self.workspace.text_documents[uri]  # an open one: pygls would read any other from the disk
        text, version, settings, lang = document.source, document.version, self.settings, self.editor_lang
        target, hugging_face = self.release.version, self.hugging_face
        protocol = self.protocol
        path = document_path(uri)
        is_config, is_launch = looks_like_config(uri, text), is_launch_file(path)
        open_texts = self._open_texts() if is_config or is_launch else {}
        roots = self._roots() if is_config else []

        def work() -> tuple[Analysis | None, bytes]:
            analysis = None
            if is_config:
                found = self.launch_files
                if found is None:
                    found = self.launch_files = walk_launch_files(roots)
                launch = launch_for(path, open_texts, found.paths)
                analysis = analyse(uri, text, settings, lang, target, hugging_face, launch)
            elif is_launch:
                analysis = analyse_launch(uri, text, settings, lang, target, hugging_face, open_texts)
            diagnostics = analysis.diagnostics if analysis is not None else []
            params = lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
            return analysis, protocol.encode(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

        return work

    def _open_texts(self) -> dict[str, str]:
        """The text of each open ds_config and launch document, by the real path of its file."""
        texts = {}
        for uri, document in list(self.workspace.text_documents.items()):
            path = document_path(uri)
            if path.endswith(".json") or is_launch_file(path):
                texts[os.path.realpath(path)] = document.source
        return texts

    def _roots(self) -> list[str]:
        """The folders of the workspace (on the disk), where the launch files are looked for."""
        uris = [folder.uri for folder in self.workspace.folders.values()] or [self.workspace.root_uri or ""]
        paths = [document_path(uri) for uri in uris if uri.startswith("file:")]
        return list(dict.fromkeys(p for p in paths if os.path.isdir(p)))

    def launch_changed(self, uri: str) -> None:
        """A launch file was opened or saved: walk the workspace again when next needed, and check each open
        ds_config again (the launch that runs it may be another now)."""
        if not is_launch_file(document_path(uri)):
            return
        self.launch_files = None
        for other in list(self.workspace.text_documents):
            if other != uri and document_path(other).endswith(".json"):
                self.checks.changed(other)

    def config_saved(self, uri: str) -> None:
        """A ds_config was saved: check again each open launch file (one may name it)."""
        if not document_path(uri).endswith(".json"):
            return
        for other in list(self.workspace.text_documents):
            if is_launch_file(document_path(other)):
                self.checks.changed(other)

    def _publish(self, uri: str, result: tuple[Analysis | None, bytes]) -> None:
        analysis, message = result
        if analysis is None:
            self.analyses.pop(uri, None)
        else:
            self.analyses[uri] = analysis
        self.protocol.send_encoded(message)
        if analysis is not None and not is_launch_file(document_path(uri)):
            # said when the launch is found or changes, or when none is found in a workspace walked only in part
            if uri in self._launch_said:
                changed = self._launch_said[uri] != analysis.launch
            else:
                found = self.launch_files
                changed = analysis.launch is not None or (found is not None and found.capped)
            if changed:
                self._launch_said[uri] = analysis.launch
                self.say_status((visible(document_path(uri), name=True), _shown(analysis.launch)))

    async def analysis_of(self, uri: str) -> Analysis | None:
        """The analysis of the document as it is now: the last published one if the text is the same, else the one
        the worker is computing for this text, waited for; None when no check of this text is under way (one of an
        older text runs, or a burst is waited out: the editor asks again when the new diagnostics come). A quick fix
        must fit the text it will edit, and no request waits for more than one check of it."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        analysis = self.analyses.get(uri)
        if analysis is not None and analysis.text == document.source:
            return analysis
        running = self.checks.running(uri)
        if running is None:
            return None
        await asyncio.shield(running)  # a cancelled request leaves the check and its other waiters alone
        document, analysis = self.workspace.text_documents.get(uri), self.analyses.get(uri)
        if document is None or analysis is None or analysis.text != document.source:
            return None
        return analysis

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
        threading.Thread(target=read_messages, args=(read, inbox), name="dsref-read", daemon=True).start()
        return await self.protocol.done


def _ask_environment(python: str | None) -> Answer:
    """The releases of the environment that ``python`` names (None: the server's own)."""
    if python is None:
        return Answer(installed_deepspeed(), installed_hugging_face())
    return ask_interpreter(python)


def _in_thread(work: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
    """``work(*args)`` in a daemon thread of its own, its result on the running loop: the loop goes on meanwhile,
    and the server can exit before it ends (the default executor would keep it waiting)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(outcome: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(outcome)

    def run() -> None:
        try:
            outcome, error = work(*args), None
        except Exception as exc:
            outcome, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server has exited
            loop.call_soon_threadsafe(settle, outcome, error)

    threading.Thread(target=run, name="dsref-ask", daemon=True).start()
    return future


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
    async def initialized(ls: DsrefServer, params: lsp.InitializedParams) -> None:
        if await ls.settle():
            ls.check_all()  # opened while the interpreter was asked
        ls.say_status()

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: DsrefServer, params: lsp.DidChangeConfigurationParams) -> None:
        ls.apply_settings(params.settings)
        ls.check_all()  # the language, the profile, the world size: at once
        if await ls.settle():  # the release: once the environment has answered
            ls.check_all()
        ls.say_status()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: DsrefServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.checks.forget(params.text_document.uri)  # opened again: what was on the way is for the old text
        ls.checks.changed(params.text_document.uri)
        ls.launch_changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: DsrefServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.checks.changed(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: DsrefServer, params: lsp.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri in ls.workspace.text_documents:
            ls.checks.publish(params.text_document.uri)
            ls.launch_changed(params.text_document.uri)
            ls.config_saved(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: DsrefServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.checks.forget(params.text_document.uri)
        ls.analyses.pop(params.text_document.uri, None)
        ls._launch_said.pop(params.text_document.uri, None)
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
    async def code_action(ls: DsrefServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        try:
            return _code_actions(ls, params, await ls.analysis_of(params.text_document.uri))
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


def _shown(path: str | None) -> str | None:
    """A launch file's path as the status names it: relative to the working directory where it lies below it."""
    if path is None:
        return None
    from ..check.pipeline import display_path

    return visible(display_path(path), name=True)


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


def _code_actions(ls: DsrefServer, params: lsp.CodeActionParams, analysis: Analysis | None) -> list[lsp.CodeAction]:
    """The fixes of the diagnostics asked about, from ``analysis`` (of the document's current text), and for each
    rule the explanation and its page; without an analysis, no fixes."""
    from ..tree.links import page_url

    uri = params.text_document.uri
    lang = analysis.lang if analysis is not None else ls.lang
    if analysis is not None:
        wanted = params.context.diagnostics or [d for d in analysis.diagnostics if _overlaps(d.range, params.range)]
    else:
        wanted = [d for d in params.context.diagnostics if d.source == "dsref"]
    keys = {(d.code, _key(d.range)) for d in wanted}
    actions: list[lsp.CodeAction] = []
    if analysis is not None:
        for diagnostic, _shown, fix in analysis.fixes:
            if (diagnostic.code, _key(diagnostic.range)) in keys:
                actions.append(_fix_action(uri, analysis, diagnostic, fix))
    seen: set[str] = set()
    for diagnostic in wanted:
        code = str(diagnostic.code or "")
        if not _RULE_CODE.fullmatch(code) or code in seen:
            continue
        seen.add(code)
        explain = TEXTS.text("explain_rule", lang, code=code)
        actions.append(
            lsp.CodeAction(
                title=explain,
                kind=lsp.CodeActionKind.QuickFix,
                command=lsp.Command(title=explain, command=COMMANDS["explain_rule"], arguments=[code]),
            )
        )
        reference = TEXTS.text("open_reference", lang, code=code)
        actions.append(
            lsp.CodeAction(
                title=reference,
                kind=lsp.CodeActionKind.QuickFix,
                command=lsp.Command(
                    title=reference,
                    command=COMMANDS["open_reference"],
                    arguments=[page_url(f"rules/{code}/", lang)],
                ),
            )
        )
    return actions


def _fix_action(uri: str, analysis: Analysis, diagnostic: lsp.Diagnostic, fix: Fix) -> lsp.CodeAction:
    title = visible(fix.title_text(analysis.lang))
    return lsp.CodeAction(
        title=title if fix.safe else TEXTS.text("unsafe_fix", analysis.lang, title=title),
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=fix.safe,
        edit=lsp.WorkspaceEdit(changes={uri: analysis.edits(fix)}),
    )


_RULE_CODE = re.compile(r"DS\d{3}")
"""A rule's code as check writes it: what the explanation and the reference page are offered for (the client sends
back the diagnostics it was given, or any it likes)."""


def _key(r: lsp.Range) -> tuple[int, int, int, int]:
    return r.start.line, r.start.character, r.end.line, r.end.character


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    return _key(a)[:2] <= _key(b)[2:] and _key(b)[:2] <= _key(a)[2:]


class _OneLine(logging.Formatter):
    """Log records without tracebacks: whatever a client sends, stderr gets no traceback, only the exception's type,
    message and the line that raised it; the editor shows stderr, so each record is :func:`visible`."""

    def format(self, record: logging.LogRecord) -> str:
        return visible(super().format(record), lines=True)

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
