"""pygls' language server protocol, with what a client may rely on made true (docs/pygls-upstream.md).

* Every request gets an answer (JSON-RPC 2.0 sec. 5): a body that is not JSON, not a request, or
  whose params do not fit the method is answered with an error (pygls logs it, and the client
  waits forever), with a null id when the id cannot be read; after ``shutdown``, requests get
  InvalidRequest (LSP 3.17, "Shutdown Request"; pygls drops them).
* ``exit`` ends the process with 0 after ``shutdown``, else 1 (pygls' ``sys.exit`` is swallowed by
  its own ``start_io``, which returns: the process exits 0 either way).
* Memory stays flat: pygls files the Future of every notification under a fresh id and removes
  only those of requests (about 2 MB per 1,000 edits); each is dropped here once it is done.
* pygls' copy of a document gets copies of the change events: converting their positions on its own
  lines (``str.splitlines``), it may rewrite them in place, and the events are ours to apply.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future
from typing import Any

import cattrs
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

log = logging.getLogger("iri_lint.lsp")

MsgId = int | str


def _msg_id(data: object) -> MsgId | None:
    """The id of a message, if it has a usable one (JSON-RPC 2.0 sec. 4: a string or a number)."""
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


def _why(exc: BaseException) -> str:
    """One line on why params did not fit (cattrs says where: ``@ $.textDocument``)."""
    cause = exc.__cause__
    if isinstance(cause, cattrs.ClassValidationError):
        return "; ".join(cattrs.transform_error(cause, path="$")[:3])
    return str(exc) or type(exc).__name__


class IriLintProtocol(LanguageServerProtocol):
    """The protocol of ``IriLintServer``; ``receive`` takes each message body from ``lsp.transport``."""

    exit_code: int | None = None  # set by ``exit``: the process ends with it

    # ---------------------------------------------------------------- reading

    def receive(self, body: bytes) -> None:
        """One message body: JSON, then JSON-RPC, then the method's params; each failure answered."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as exc:  # (UnicodeDecodeError is a ValueError)
            self.reply_error(None, types.ErrorCodes.ParseError, f"the message is not JSON: {exc}")
            return
        msg_id = _msg_id(data)
        if not isinstance(data, dict) or data.get("jsonrpc") != self.VERSION or not isinstance(
                data.get("method", ""), str) or ("method" not in data and "result" not in data and "error" not in data):
            self.reply_error(msg_id, types.ErrorCodes.InvalidRequest, "not a JSON-RPC 2.0 message")
            return
        try:
            message = self.structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            if method is None:
                log.warning("a response that does not fit: %s", _why(exc))
            elif "id" in data:
                self.reply_error(msg_id, types.ErrorCodes.InvalidParams, f"invalid params for {method}: {_why(exc)}")
            else:
                log.warning("dropped %s: its params do not fit: %s", method, _why(exc))
            return
        try:
            self.handle_message(message)
        except Exception:
            log.exception("cannot handle %s", data.get("method", "a response"))

    def framing_error(self, why: str) -> None:
        """Bytes that were no message: tell the client (a null id: which request it was is unknown)."""
        self.reply_error(None, types.ErrorCodes.ParseError, f"cannot read a message: {why}; skipped to the next "
                                                            "Content-Length header")

    def reply_error(self, msg_id: MsgId | None, code: types.ErrorCodes, message: str) -> None:
        """An error response; written out by hand, as pygls' converter leaves out a null ``id``."""
        self._send_data({"jsonrpc": self.VERSION, "id": msg_id, "error": {"code": int(code), "message": message}})

    def ended(self) -> int:
        """The input ended without ``exit``: the exit code (1 unless shut down, as for ``exit``)."""
        return 0 if self._shutdown else 1

    # ---------------------------------------------------------------- dispatching

    def handle_message(self, message: Any) -> None:
        if self._shutdown and hasattr(message, "method") and hasattr(message, "id") \
                and message.method != types.EXIT:
            self.reply_error(message.id, types.ErrorCodes.InvalidRequest, "the server is shutting down")
            return
        super().handle_message(message)

    def _execute_handler(self, msg_id: MsgId, handler: Callable[..., Any], callback: Callable[[Future[Any]], None],
                         args: tuple[Any, ...] | None = None, kwargs: dict[str, Any] | None = None) -> None:
        def done(future: Future[Any]) -> None:
            if self._request_futures.get(msg_id) is future:  # (pygls keeps those of notifications forever)
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, done, args, kwargs)

    # ---------------------------------------------------------------- LSP methods

    @lsp_method(types.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """Cancel what is pending (but this request), and answer only ``exit`` from now on. (pygls
        cancels while iterating over the futures, and a cancelled Future's callback removes its own.)"""
        if (handler := self.fm.features.get(types.SHUTDOWN)) is not None:
            yield handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args: Any) -> Generator[Any, Any, None]:
        """End the server (the transport stops reading): 0 after ``shutdown``, else 1."""
        if (handler := self.fm.features.get(types.EXIT)) is not None:
            yield handler, args, None
        self.exit_code = 0 if self._shutdown else 1

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Iterator[Any]:
        for change in copy.deepcopy(params.content_changes):
            self.workspace.update_text_document(params.text_document, change)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None
