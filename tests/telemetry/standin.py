"""A scripted OTLP/HTTP receiver on 127.0.0.1 (the standard library's HTTP server in a thread): it keeps
what it accepted, answers what the test scripts (a status, a Retry-After, a partial success), and can be
stopped and started again on the same port — a receiver that goes down and comes back."""

from __future__ import annotations

import gzip
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cupcake.live.loopback import LoopbackServer


class OtlpStandIn(LoopbackServer):
    max_lifetime = 120.0
    thread_name = "otlp-standin"

    def __init__(self):
        self.accepted: list[tuple[str, dict, dict]] = []  # (path, headers, body) of what it took
        self.seen: list[tuple[str, int]] = []  # (path, status) of every request
        self.script: list[tuple[int, dict, bytes]] = []  # answers to give first: (status, headers, body)
        self.port = 0
        self.lock = threading.Lock()

    def handler(self) -> type[BaseHTTPRequestHandler]:
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.headers.get("Content-Encoding") == "gzip":
                    data = gzip.decompress(data)
                with standin.lock:
                    status, headers, body = standin.script.pop(0) if standin.script else (200, {}, b"{}")
                    standin.seen.append((self.path, status))
                    if status == 200:
                        standin.accepted.append((self.path, dict(self.headers), json.loads(data)))
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        return Handler

    def start(self):
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), self.handler())
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, name=self.thread_name, daemon=True).start()
        self._watchdog = threading.Timer(self.max_lifetime, self.stop)
        self._watchdog.daemon = True
        self._watchdog.start()
        return self

    def spans(self) -> list[dict]:
        """Every span it accepted, in order."""
        return [
            span
            for path, _h, body in self.accepted
            if path.endswith("/v1/traces")
            for resource in body["resourceSpans"]
            for scope in resource["scopeSpans"]
            for span in scope["spans"]
        ]

    def log_records(self) -> list[dict]:
        return [
            record
            for path, _h, body in self.accepted
            if path.endswith("/v1/logs")
            for resource in body["resourceLogs"]
            for scope in resource["scopeLogs"]
            for record in scope["logRecords"]
        ]


def attributes(item: dict) -> dict:
    """A span's or log record's attributes as plain values."""
    out = {}
    for kv in item.get("attributes", []):
        value = kv["value"]
        if "arrayValue" in value:
            out[kv["key"]] = [next(iter(v.values())) for v in value["arrayValue"].get("values", [])]
        else:
            out[kv["key"]] = next(iter(value.values()))
    return out
