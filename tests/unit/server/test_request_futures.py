"""The requests under way can be cancelled while they are iterated over, as pygls does at ``shutdown``."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

from dsref.server.rpc import RequestFutures


def test_cancelling_each_request_while_iterating_removes_them_all() -> None:
    futures = RequestFutures()
    for msg_id in range(3):
        future: Future[Any] = Future()
        future.add_done_callback(lambda _done, msg_id=msg_id: futures.pop(msg_id, None))  # as the answer's callback
        futures[msg_id] = future
    for _msg_id, future in futures.items():  # a plain dict: "dictionary changed size during iteration"
        future.cancel()
    assert futures == {}


def test_a_plain_dict_would_fail() -> None:
    futures: dict[int, Future[Any]] = {}
    for msg_id in range(2):
        future: Future[Any] = Future()
        future.add_done_callback(lambda _done, msg_id=msg_id: futures.pop(msg_id, None))
        futures[msg_id] = future
    try:
        for _msg_id, future in futures.items():
            future.cancel()
    except RuntimeError as error:
        assert "changed size" in str(error)
    else:
        raise AssertionError("cancelling in a loop over a plain dict's items no longer fails: RequestFutures may go")
