"""What every scripted stand-in for a model API shares: an HTTP server on 127.0.0.1 (an ephemeral port,
a thread per request), and a watchdog that stops it, so that no test leaves a server behind."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class LoopbackServer:
    """Subclasses set ``max_lifetime`` (seconds) and give ``handler()``: the request handler class bound
    to this server's script. ``start()`` and ``stop()``, or ``with server:``."""

    max_lifetime: float = 300.0
    thread_name = "model-api-standin"
    _server: ThreadingHTTPServer | None = None
    _watchdog: threading.Timer | None = None

    def handler(self) -> type[BaseHTTPRequestHandler]:
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        assert self._server is not None, "server not started"
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self):
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self.handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name=self.thread_name, daemon=True).start()
        self._watchdog = threading.Timer(self.max_lifetime, self.stop)
        self._watchdog.daemon = True
        self._watchdog.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if self._watchdog is not None:
            self._watchdog.cancel()
        if server is not None:
            server.shutdown()
            server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
