"""JSON-RPC 2.0 and LSP's life cycle as the specifications say, around pygls' protocol.

pygls 2.1 answers what it can read into lsprotocol's types and drops the rest without a word, so a client waits
forever: a request with no method, one after ``shutdown`` (a second ``shutdown`` included); it answers requests that
come before ``initialize``, and a request for a method it does not handle gets -32602 when its params do not fit the
method's type; the message ids of notifications stay in a table for ever (2 KB an edit); and ``exit`` ends the
process with status 0 whether ``shutdown`` came or not (its ``sys.exit`` is caught by its own loop). :class:`Protocol`
keeps pygls' dispatch and handlers and takes each message before pygls does:

=========================================================  ===========================================================
message                                                    answer
=========================================================  ===========================================================
a header or body the transport could not read              -32700 ParseError, id null (:mod:`.transport`)
not an object with ``"jsonrpc": "2.0"``; no method         -32600 InvalidRequest (the request's id when it has one)
a request before ``initialize``                            -32002 ServerNotInitialized
a request after ``shutdown``, a second ``initialize``      -32600 InvalidRequest
a method the server does not handle (``$/…`` included)     -32601 MethodNotFound
params that are not the method's                           -32602 InvalidParams
a command's arguments of the wrong shape                   -32602 InvalidParams, naming what the command takes
a handler that failed                                      -32603 InternalError, one line, no traceback
``exit``                                                   the process ends: status 0 after ``shutdown``, 1 without
=========================================================  ===========================================================

Notifications get no answer: before ``initialize`` and after ``shutdown`` they are dropped, as is one whose params do
not fit or whose method the server does not handle.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
from typing import TYPE_CHECKING, Any, TypeGuard

import attrs
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage, LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from ..text.escape import visible
from .texts import TEXTS
from .transport import END, MAX_BODY, Damage

if TYPE_CHECKING:
    from collections.abc import Generator
    from concurrent.futures import Future

    from ..text.i18n import Lang

__all__ = ["Protocol", "Server", "one_line"]

log = logging.getLogger("dsref.server")

_CODES = lsp.ErrorCodes
_LSP_CODES = lsp.LSPErrorCodes


def one_line(error: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    text = str(error).strip().split("\n", 1)[0]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _drop_tracebacks(error: BaseException) -> None:
    """Cut ``error`` and the errors it holds (cattrs' groups, their causes) from their tracebacks: cattrs keeps each
    error in a list of the frame it was raised through, a cycle that would keep the message (up to 100 MB parsed)
    alive until the garbage collector runs, while the next one is read."""
    seen: set[int] = set()
    stack = [error]
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        current.__traceback__ = None
        stack.extend(e for e in (current.__cause__, current.__context__) if e is not None)
        stack.extend(getattr(current, "exceptions", ()))


def _valid_id(value: Any) -> TypeGuard[int | str]:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


class Server(LanguageServer):
    """pygls' server as :class:`Protocol` needs it: one that says which language its answers are written in.
    dsref's own (:class:`dsref.server.app.DsrefServer`) takes it from the settings and the editor."""

    @property
    def lang(self) -> Lang:
        return "en"


class RequestFutures(dict[Any, Any]):
    """The futures of the requests under way. At ``shutdown`` pygls cancels each other one while iterating over
    ``items()``, and cancelling a request runs its callback at once, which removes its entry: iterating over a copy
    lets both happen (the shutdown otherwise failed with "dictionary changed size during iteration" whenever a
    request, such as one the server sent the client, was still waiting)."""

    def items(self) -> Any:
        return list(super().items())


class Protocol(LanguageServerProtocol):
    """pygls' LSP protocol with JSON-RPC's error answers and LSP's life cycle (see the module's table)."""

    _server: Server

    def __init__(self, server: Any, converter: Any) -> None:
        super().__init__(server, converter)
        self._request_futures = RequestFutures()
        self.initialized = False
        """``initialize`` came (pygls keeps no such flag)."""
        self.done: asyncio.Future[int] | None = None
        """Set to the exit status when the session ends (``exit``, or the end of the stream)."""
        self._writes: set[asyncio.Future[Any]] = set()
        self._arguments: dict[Any, Any] = {}
        """The ``arguments`` of each ``workspace/executeCommand`` as the client sent them, by request id: lsprotocol
        reads an object as the list of its keys and a string as a list of characters."""

    # -- in --------------------------------------------------------------------------------------------------------

    def receive(self, item: Any) -> None:
        """One message from the transport: a JSON value, a :class:`~.transport.Damage`, or the end of the stream."""
        try:
            if item is END:
                self._end(0 if self._shutdown else 1)
            elif isinstance(item, Damage):
                self._error(None, _CODES.ParseError, item.key, limit=f"{MAX_BODY // 2**20} MB")
            else:
                self._dispatch(item)
        except OSError:  # the client is gone: nobody to answer
            self._end(1)
        except Exception as exc:
            log.error("a message the server could not handle: %s", one_line(exc))

    def _dispatch(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            msg_id = data.get("id") if isinstance(data, dict) else None
            self._error(msg_id if _valid_id(msg_id) else None, _CODES.InvalidRequest, "not_request")
            return
        msg_id = data.get("id")
        method = data.get("method")
        if "method" not in data and "id" in data and ("result" in data or "error" in data):
            self._response(data)
        elif not isinstance(method, str):
            key = "no_method" if "id" in data else "not_request"
            self._error(msg_id if _valid_id(msg_id) else None, _CODES.InvalidRequest, key)
        elif "id" not in data:
            self._notification(method, data)
        elif not _valid_id(msg_id):
            self._error(None, _CODES.InvalidRequest, "bad_id")
        else:
            self._request(msg_id, method, data)

    def _request(self, msg_id: int | str, method: str, data: dict[str, Any]) -> None:
        if self._shutdown:
            self._error(msg_id, _CODES.InvalidRequest, "after_shutdown")
            return
        if method == lsp.INITIALIZE and self.initialized:
            self._error(msg_id, _CODES.InvalidRequest, "initialized_twice")
            return
        if method != lsp.INITIALIZE and not self.initialized:
            self._error(msg_id, _CODES.ServerNotInitialized, "not_initialized")
            return
        if not self._handles(method, request=True):
            self._error(msg_id, _CODES.MethodNotFound, "no_such_method", method=visible(method[:200]))
            return
        arguments = None
        params = data.get("params")
        if method == lsp.WORKSPACE_EXECUTE_COMMAND and isinstance(params, dict):
            arguments = params.get("arguments")  # the command says what it takes, whatever the shape
            data = {**data, "params": {**params, "arguments": None}}
        message = self._structure(data, method)
        if message is None:
            self._error(msg_id, _CODES.InvalidParams, "bad_params", method=method[:200])
            return
        if method == lsp.INITIALIZE:
            self.initialized = True
        elif method == lsp.WORKSPACE_EXECUTE_COMMAND:
            self._arguments[msg_id] = arguments
        self.handle_message(message)

    def _notification(self, method: str, data: dict[str, Any]) -> None:
        if method == lsp.EXIT:
            self._end(0 if self._shutdown else 1)
            return
        if not self.initialized or self._shutdown or not self._handles(method, request=False):
            log.info("dropped the notification %s", visible(method[:200]))
            return
        message = self._structure(data, method)
        if message is None:
            log.info("dropped the notification %s: its params are not the method's", visible(method[:200]))
            return
        self.handle_message(message)

    def _response(self, data: dict[str, Any]) -> None:
        """A client's answer to a request of the server's (``window/showDocument``, …)."""
        msg_id = data["id"]
        if not _valid_id(msg_id):
            return
        kind = lsp.ResponseErrorMessage if "error" in data else self._result_types.pop(msg_id, None)
        try:
            message = self._converter.structure(data, kind or JsonRPCResponseMessage)
        except Exception:
            future = self._request_futures.pop(msg_id, None)
            if future is not None and not future.done():
                future.set_exception(JsonRpcInvalidParams())
            return
        self.handle_message(message)

    def _handles(self, method: str, *, request: bool) -> bool:
        """Whether there is a handler for ``method``, and it is a request (or a notification) as LSP defines it."""
        if method == lsp.CANCEL_REQUEST:
            return not request
        if method not in self.fm.builtin_features and method not in self.fm.features:
            return False
        kind = self.get_message_type(method)
        return kind is None or ("id" in attrs.fields_dict(kind)) == request

    def _structure(self, data: dict[str, Any], method: str) -> Any:
        kind = self.get_message_type(method) or (JsonRPCRequestMessage if "id" in data else JsonRPCNotification)
        try:
            return self._converter.structure(data, kind)
        except Exception as exc:
            _drop_tracebacks(exc)
            return None

    def _end(self, status: int) -> None:
        if self.done is not None and not self.done.done():
            self.done.set_result(status)

    # -- out -------------------------------------------------------------------------------------------------------

    def _error(self, msg_id: int | str | None, code: int, key: str, **args: object) -> None:
        """Answer with a JSON-RPC error whose message is ``key`` of the server's texts, in the user's language."""
        message = visible(TEXTS.text(key, self._server.lang, **args), lines=True)
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": int(code), "message": message}})

    def encode(self, method: str, params: Any) -> bytes:
        """A notification as the bytes :meth:`send_encoded` writes: header and body. It touches nothing the loop
        uses, so a worker thread can make it."""
        message = {"jsonrpc": "2.0", "method": method, "params": self._converter.unstructure(params)}
        body = json.dumps(message).encode()  # ASCII: JSON's escapes for the rest
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def send_encoded(self, data: bytes) -> None:
        """Write a message :meth:`encode` made."""
        if self.writer is not None:
            written = self.writer.write(data)
            if inspect.isawaitable(written):  # an asynchronous writer (pygls' for a websocket)
                task = asyncio.ensure_future(written)
                self._writes.add(task)
                task.add_done_callback(self._writes.discard)

    def _send_handler_result(self, future: Future[Any] | asyncio.Future[Any], *, msg_id: Any) -> None:
        """pygls' answer to a request, without its traceback: pygls writes one to the log for every error, and sends
        the client one for an error the handler did not expect."""
        self._request_futures.pop(msg_id, None)
        self._arguments.pop(msg_id, None)
        if future.cancelled():
            self._error(msg_id, _LSP_CODES.RequestCancelled, "cancelled")
            return
        error = future.exception()
        if error is None:
            self._send_response(msg_id, result=future.result())
        elif isinstance(error, JsonRpcException):
            message = visible(error.message, lines=True)
            self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": {"code": error.code, "message": message}})
        else:
            log.error("a request failed: %s", one_line(error))
            self._error(msg_id, _CODES.InternalError, "internal_error", error=type(error).__name__)

    def _check_handler_result(self, future: Future[Any] | asyncio.Future[Any]) -> None:
        """A notification's handler failed: one line in the log (pygls writes a traceback)."""
        if not future.cancelled() and (error := future.exception()) is not None:
            log.error("a notification failed: %s", one_line(error))

    def _execute_handler(self, msg_id: Any, handler: Any, callback: Any, args: Any = None, kwargs: Any = None) -> None:
        """pygls' dispatch, forgetting each handler's future once it is done: pygls keeps those of notifications in
        its table of requests for ever."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done: self._forget(msg_id, done))

    def _forget(self, msg_id: Any, future: Any) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    # -- commands --------------------------------------------------------------------------------------------------

    @lsp_method(lsp.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: lsp.ExecuteCommandParams) -> Generator[Any, Any, Any]:
        """Run a command, handing it its ``arguments`` as the client sent them (any JSON value, None when absent):
        each command says what it takes (pygls would read them into the handler's parameters, or fail with a
        traceback)."""
        arguments = self._arguments.pop(self.msg_id, None)
        handler = self.fm.commands.get(params.command)
        if handler is None:
            command = visible(params.command[:200])
            raise JsonRpcInvalidParams(TEXTS.text("no_such_command", self._server.lang, command=command))
        return (yield handler, (arguments,), None)
