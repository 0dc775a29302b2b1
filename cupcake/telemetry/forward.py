"""The forwarder: sends a project's spooled decisions to the OpenTelemetry endpoint (cold path).

Started detached by a run at most once per interval (``cupcake.stores.spool``), or by hand, cron or CI as
``cupcake export``. One forwarder works on a project at a time (``forward.lock``). Each cycle counts
what the runs could not spool, claims the spool, drops the oldest batches when what waits is over the
bound, then sends batches signal by signal, oldest first, and moves each signal's position on only
after the receiver accepted the batch (``batches``). A request that fails for a reason that may pass
(no connection, a time-out, 408, 429, 502, 503, 504) is tried again with exponential back-off and
jitter, honouring ``Retry-After`` (``tenacity``, imported when a batch is sent; no run imports this
module); any other answer stops the signal, keeps its records, and is written down
for `doctor`. A redirect is not followed: the credentials would go with it.

Started from a run (``--background``), it stays while decisions keep coming: after sending everything it
waits one interval, keeping the runs from starting another, and sends again what arrived; it ends after
an interval with nothing new, as soon as something could not be sent (the next run after the interval
starts another), or after an hour.

Why plain OTLP/JSON over ``urllib`` and not the OpenTelemetry SDK: the SDK's exporters make spans in the
process that does the work, with ids and clocks of their own, while these spans were made earlier by the
runs and must keep the ids they were given (a batch sent again carries the same ids); the SDK and its
OTLP exporter cost about 110 ms to import in every forwarder; and the receivers Cupcake is tested with
(rotel, an OpenTelemetry collector; MLflow's tracking server) accept OTLP/HTTP JSON, which the
OpenTelemetry protocol defines beside protobuf.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import time
import urllib.error
import urllib.request

from cupcake.project import WORK_DIR
from cupcake.stores import spool
from cupcake.telemetry import batches, config

RETRIES = 3  # tries after the first, for a failure that may pass
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 8.0
RETRY_AFTER_MAX = 30.0
RESPONSE_BYTES = 64 << 10
LIFETIME = 3600.0
RETRYABLE_STATUS = frozenset({408, 429, 502, 503, 504})
USER_AGENT = "cupcake-telemetry"


class SendError(Exception):
    """The receiver did not accept a batch; ``retryable`` when trying again later may help."""

    def __init__(self, message: str, retryable: bool, retry_after: float | None = None):
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None  # urllib then raises HTTPError with the 3xx


_OPENER = urllib.request.build_opener(_NoRedirect)


def _retry_after(value) -> float | None:
    try:
        return max(0.0, min(float(value), RETRY_AFTER_MAX))
    except (TypeError, ValueError):
        return None


def post_once(url: str, body: bytes, headers: dict, timeout: float) -> dict:
    """One POST; the answer's JSON (``{}`` when it has none). SendError when not accepted."""
    request = urllib.request.Request(url, data=body, method="POST")
    for name, value in headers.items():
        request.add_header(name, value)
    try:
        with _OPENER.open(request, timeout=timeout) as answer:
            text = answer.read(RESPONSE_BYTES)
    except urllib.error.HTTPError as exc:
        detail = ""
        try:
            detail = exc.read(600).decode("utf-8", "replace").strip()
        except Exception:
            pass
        if 300 <= exc.code < 400:
            where = exc.headers.get("Location", "elsewhere") if exc.headers else "elsewhere"
            raise SendError(
                f"HTTP {exc.code}: the endpoint redirects to {where}; name that URL instead", False
            ) from None
        retryable = exc.code in RETRYABLE_STATUS
        after = _retry_after(exc.headers.get("Retry-After")) if retryable and exc.headers else None
        message = f"HTTP {exc.code} {exc.reason}" + (f": {detail[:300]}" if detail else "")
        raise SendError(message, retryable, after) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SendError(f"cannot reach the endpoint ({reason})", True) from None
    try:
        parsed = json.loads(text) if text.strip() else {}
    except ValueError:
        return {}
    return parsed if isinstance(parsed, dict) else {}


def post(url: str, body: bytes, headers: dict, timeout: float, retries: int = RETRIES) -> dict:
    """``post_once``, tried again with exponential back-off while the failure may pass."""
    import random

    from tenacity import Retrying, retry_if_exception, stop_after_attempt

    def wait(state) -> float:
        """``Retry-After`` when the receiver said it, else 0.5 s, 1 s, 2 s … up to 8 s, plus up to 1 s jitter."""
        exc = state.outcome.exception() if state.outcome is not None else None
        after = getattr(exc, "retry_after", None)
        if after is not None:
            return after
        return min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** (state.attempt_number - 1)) + random.uniform(0, 1)

    for attempt in Retrying(
        retry=retry_if_exception(lambda exc: isinstance(exc, SendError) and exc.retryable),
        stop=stop_after_attempt(max(1, retries + 1)),
        wait=wait,
        reraise=True,
    ):
        with attempt:
            return post_once(url, body, headers, timeout)
    raise AssertionError("unreachable")  # pragma: no cover


def _rejected(answer: dict, signal: str) -> tuple[int, str]:
    """OTLP's partial success: (records the receiver refused, its message)."""
    partial = answer.get("partialSuccess") or answer.get("partial_success")
    if not isinstance(partial, dict):
        return 0, ""
    field = "rejectedSpans" if signal == "traces" else "rejectedLogRecords"
    try:
        count = int(partial.get(field) or 0)
    except (TypeError, ValueError):
        count = 0
    return count, str(partial.get("errorMessage") or "")


class Outcome:
    """What one project's forwarding did, for `cupcake export` to say."""

    __slots__ = ("root", "sent", "waiting", "dropped", "problems", "error", "targets", "enabled")

    def __init__(self, root: str):
        self.root = root
        self.sent: dict = {}
        self.waiting = 0
        self.dropped = 0  # dropped unsent by this run (the bound) or counted since the last look
        self.problems: list = []
        self.error: str | None = None
        self.targets: dict = {}
        self.enabled = False

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


def _compiled(root: str, env):
    from cupcake.stores.policies.loader import load

    loaded = load(root, env)
    return loaded.compiled if loaded is not None else None


def forward(root: str, env, retries: int = RETRIES, wait: float = 0.0) -> Outcome:
    """One cycle for the project at ``root``: claim, bound, send everything that waits."""
    from cupcake.stores.audit import mask
    from cupcake.telemetry.otlp import Shaper

    out = Outcome(root)
    compiled = _compiled(root, env)
    telemetry = compiled.get("telemetry") if compiled else None
    resolved = config.resolve(telemetry, env)
    out.enabled = resolved.enabled
    out.problems.extend(resolved.problems)
    out.targets = {s: (t.url, t.origin, t.withheld) for s, t in resolved.targets.items()}
    folder = spool.directory(os.path.join(root, WORK_DIR))
    if not os.path.isdir(folder):
        return out
    mask.use_forms(compiled.get("sre") if compiled else None)
    limit = int((telemetry or {}).get("max_spool_bytes") or config.SPOOL_BYTES)
    signals = list(resolved.targets)
    with batches.Forwarding(folder, wait) as fw:
        out.dropped += fw.take_overflow()
        fw.claim()
        out.dropped += fw.bound(limit, signals)
        sendable = resolved.enabled and not any("OTEL_SDK_DISABLED" in p for p in out.problems)
        if not resolved.enabled:
            out.problems.append("telemetry is off ([telemetry] enabled is not true): nothing is sent")
        shaper = Shaper(resolved)
        for signal, target in resolved.targets.items():
            if not sendable:
                break
            if target.url is None:
                out.problems.append(
                    f"no endpoint for {signal}: set [telemetry] endpoint, or OTEL_EXPORTER_OTLP_ENDPOINT where "
                    "the forwarder runs"
                )
                continue
            error = _send_signal(fw, shaper, signal, target, resolved, retries, out, first=signal == signals[0])
            if error:
                out.error = f"{signal} to {target.url}: {error}"
                fw.note_error(signal, error)
                break
        else:
            if sendable and all(t.url for t in resolved.targets.values()):
                fw.clear_error()
        fw.forget_done(signals)
        fw.save()
    out.waiting = batches.waiting(folder, signals)
    return out


def _send_signal(fw, shaper, signal: str, target, resolved, retries: int, out: Outcome, first: bool):
    """Send every batch ``signal`` has waiting; the error that stopped it, or None."""
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **target.headers}
    if resolved.compression == "gzip":
        headers["Content-Encoding"] = "gzip"
    while True:
        records, bad, position = fw.read(signal)
        if position is None or (not records and not bad and fw.at_end(signal)):
            return None
        if not records:
            fw.advance(signal, position, 0, bad if first else 0)
            continue
        dropped = 0
        if signal == "traces":
            dropped = fw.state.get("dropped", 0) - fw.state.get("dropped_reported", 0)
        body = json.dumps(shaper.payload(signal, records, max(0, dropped)), separators=(",", ":")).encode()
        if resolved.compression == "gzip":
            body = gzip.compress(body)
        try:
            answer = post(target.url, body, headers, resolved.timeout, retries)
        except SendError as exc:
            return str(exc)
        rejected, why = _rejected(answer, signal)
        if rejected:
            fw.state["rejected"] = fw.state.get("rejected", 0) + rejected
            out.problems.append(f"the receiver refused {rejected} {signal} records" + (f": {why}" if why else ""))
        if dropped > 0:
            fw.state["dropped_reported"] = fw.state.get("dropped", 0)
        fw.advance(signal, position, len(records) - rejected, bad if first else 0)
        out.sent[signal] = out.sent.get(signal, 0) + len(records) - rejected


def _linger(root: str, env, interval: float) -> None:
    """``--background``: forward, then keep the runs from starting another while decisions keep coming."""
    folder = spool.directory(os.path.join(root, WORK_DIR))
    stamp = os.path.join(folder, spool.STAMP)
    ends = time.monotonic() + LIFETIME
    while True:
        try:
            outcome = forward(root, env)
        except batches.Busy:
            return
        _touch(stamp)
        stamp_line = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        print(f"{stamp_line} sent {outcome.sent or 'nothing'}; {outcome.waiting} waiting", flush=True)
        for problem in outcome.problems:
            print(f"  {problem}", flush=True)
        if outcome.error:
            print(f"  stopped: {outcome.error}", flush=True)
        if outcome.error or (outcome.waiting and not outcome.sent):
            return  # what could not be sent waits for the forwarder of a run after the interval
        if outcome.waiting:
            continue  # decisions came while it was sending
        rest = time.monotonic() + interval
        while time.monotonic() < rest:
            time.sleep(min(1.0, interval))
            _touch(stamp)
        if time.monotonic() > ends or not _spool_has_lines(folder):
            return


def _touch(path: str) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _spool_has_lines(folder: str) -> bool:
    try:
        return os.path.getsize(os.path.join(folder, spool.SPOOL)) > 0
    except OSError:
        return False


def main(argv=None) -> int:
    """``python -m cupcake.telemetry.forward --background <root>``: what a run starts (see ``trigger``)."""
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 2 or args[0] != "--background":
        print("usage: python -m cupcake.telemetry.forward --background <project root> (use `cupcake export`)")
        return 2
    root = args[1]
    try:
        compiled = _compiled(root, os.environ)
        interval = float(((compiled or {}).get("telemetry") or {}).get("interval") or 30)
        _linger(root, os.environ, interval)
    except Exception as exc:  # a detached process: say what happened in its log, never a traceback
        print(f"forwarder stopped: {type(exc).__name__}: {exc}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
