"""The table page's service: the HTTP server on its event loop's thread, wired to its channel
and pairing.

What the composition root starts (companion/bootstrap.py ``build_web``): a
:class:`WebService` builds the :class:`~companion.web.channel.WebChannel` (the loop's side),
the :class:`~companion.web.pairing.Pairing` (over the token store it is handed), the
:class:`~companion.web.routes.Context` every request shares, and the bound
:class:`~companion.web.server.WebServer`. The server starts and stops with the loop's
channels. Everything the web needs from outside (the clock, the token file, the history) is
handed in, so the web imports no adapter of its own but the history's journal reader.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from importlib import resources
from typing import Any

from companion.runtime.channels import PairCodeEvent
from companion.web.admission import ConnectionLimits
from companion.web.answers import Answer
from companion.web.channel import WebChannel
from companion.web.idempotency import LineLedger
from companion.web.pairing import Pairing, TokenStore
from companion.web.policy import Rules, WebSettings
from companion.web.routes import Context
from companion.web.server import WebServer, own_names

SWITCH_INTERVAL_SECONDS = 0.001


def static_root() -> Any:
    """The page's files (companion/web/static), packaged."""
    return resources.files("companion.web") / "static"


class WebService:
    """The server and its channel, wired: what the composition root starts."""

    def __init__(self, settings: WebSettings, *, clock: Callable[[], float],
                 tokens: TokenStore | None = None, channel: WebChannel | None = None,
                 history: Callable[[str], Answer | None] | None = None,
                 limits: ConnectionLimits | None = None) -> None:
        self.channel = channel or WebChannel()
        self.pairing = Pairing(tokens)
        rules = Rules(pair_loopback=settings.pair_loopback,
                      public_mirror=settings.public_mirror, own_names=own_names(settings.host))
        self.context = Context(channel=self.channel, pairing=self.pairing, rules=rules,
                               static=static_root(), history=history, lines=LineLedger(clock))
        self.server = WebServer(self.context, settings.host, settings.port, limits)
        self._thread: threading.Thread | None = None
        self._switch_interval_before: float | None = None
        self.channel.on_start.append(self.serve)
        self.channel.on_close.append(self.stop)

    def forget(self) -> None:
        """"Forget phones" (loop thread): revoke every token, close the pairing window,
        end every event stream, and close every connection that carried a token (issue #38:
        a device with a token held its places after it). When the token file cannot be
        written, nothing is revoked and the store's error is raised for the box to show."""
        self.pairing.forget()
        self.channel.post(PairCodeEvent(None))
        self.channel.drop_streams()
        self.server.revoke()

    @property
    def url(self) -> str:
        return self.server.url

    def serve(self) -> None:
        if self._thread is not None:
            return
        # The loop waking for a deadline waits for the GIL at most one switch interval while
        # a web thread holds it: 1 ms, not CPython's 5 ms, while the web is on (issue #19);
        # stop() puts the interval back, so it is shortened only while the page is served.
        self._switch_interval_before = sys.getswitchinterval()
        sys.setswitchinterval(min(self._switch_interval_before, SWITCH_INTERVAL_SECONDS))
        self._thread = threading.Thread(target=self.server.serve_forever,
                                        name="web-server", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None:
            self.server.server_close()
            return
        self.server.stop()
        self._thread.join(timeout=5)
        self._thread = None
        self.server.server_close()
        if self._switch_interval_before is not None:
            sys.setswitchinterval(self._switch_interval_before)
            self._switch_interval_before = None
