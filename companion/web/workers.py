"""A few daemon worker threads for the table page's routes (companion/web/server.py).

The routes wait for the box's loop (a line's reply, a pairing code judged), read the page's
files and render the panel's picture: that must not happen on the server's event loop. A
:class:`Workers` is a :class:`concurrent.futures.Executor` whose threads are daemons, as the
old threading server's were: a route still waiting for a loop that is stopping never holds
the process at exit. Its queue is first come, first served; the server decides who may queue.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

T = TypeVar("T")


class Workers(Executor):
    """``count`` daemon threads named ``name``, each running ``start`` first; started when the
    first work comes."""

    def __init__(self, count: int, name: str, start: Callable[[], None] = lambda: None) -> None:
        self._count, self._name, self._start = count, name, start
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = (
            queue.SimpleQueue())
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._shut = False

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._shut:
                raise RuntimeError("the web's workers are shut down")
            if len(self._threads) < self._count:
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"{self._name}-{len(self._threads) + 1}")
                self._threads.append(thread)
                thread.start()
        self._queue.put((future, lambda: fn(*args, **kwargs)))
        return future

    def _work(self) -> None:
        self._start()
        while (item := self._queue.get()) is not None:
            future, work = item
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(work())
            except BaseException as error:  # handed to whoever waits for it
                future.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shut = True
            threads = list(self._threads)
        for _ in threads:
            self._queue.put(None)
        if wait:
            for thread in threads:
                thread.join()
