"""One cell measured through Kaminski et al.'s kind of client: Python's requests (HTTP/1.1) and grpcio.

ProtocolBench's benchmark command (--client python) starts this with /usr/bin/python3 (Debian's packages: python3-requests,
python3-grpcio, python3-protobuf) and writes one job as a line of JSON on its standard input: the service, the request's
bytes exactly as ProtocolBench's own client sends them, and how many calls to make. Each call is timed from the request
to the answer decoded as a Python program reads it (json.loads, or the reply message parsed). A read's answers must
all equal the first, whose bytes go back to the harness to be checked as the .NET client's answers are; a create's
differ (a new id each time), so every one goes back. Lines written:

    answer BASE64       the first answer's bytes (a create's: every answer's)
    iteration NS        one iteration's mean time per call, in nanoseconds
    done
    error MESSAGE       instead of the rest, and exit 1

A paced job (ProtocolBench's load command, "mode": "paced") sends warmup_count requests back to back, pauses
settle_ms, then count requests on a fixed schedule of rate a second from one thread (a request that outlasts the
interval delays the next, which shows as its lateness). Lines written:

    answer BASE64                       the first good answer's bytes, which the harness checks
    sample INDEX LATE_MS ELAPSED_MS ok [BASE64]
                                        a paced request: how late it started, how long it took; an answer that
                                        differs from the first goes back with it, to be checked on its own
    sample INDEX LATE_MS ELAPSED_MS failed|timedout CODE MESSAGE
    done

"cell.py --versions" prints the stack's versions.
"""

import base64
import json
import platform
import sys
import time

# requests and urllib3 take simplejson and brotli when they are installed (Locust's packages bring both): kept out, so this
# stack decodes with the standard json module and offers gzip and deflate, whatever else the machine has.
sys.modules["simplejson"] = sys.modules["brotli"] = sys.modules["brotlicffi"] = None

import grpc  # noqa: E402
import requests  # noqa: E402
import google.protobuf  # noqa: E402
from replies import reply_class  # noqa: E402


class Failed(Exception):
    """A call that failed; code names how, as the .NET client's errors do (HTTP_404, NOT_FOUND, transport, timeout)."""

    def __init__(self, message, code="failed"):
        super().__init__(message)
        self.code = code


def outcome(error):
    """A failed call's outcome word and code for a paced sample line."""
    if isinstance(error, requests.Timeout) or (isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.DEADLINE_EXCEEDED):
        return "timedout", "timeout"
    if isinstance(error, Failed):
        return "failed", error.code
    if isinstance(error, grpc.RpcError):
        return "failed", error.code().name
    return "failed", "transport"


def http_caller(job):
    """requests over HTTP/1.1: one Session kept open, or a new one (a new connection) for every call."""
    url = job["host_url"] + job["path"]
    body = base64.b64decode(job["body"]) if job.get("body") else None
    headers = {"Content-Type": job["content_type"]} if body is not None else {}
    verify = job["certificate"] if url.startswith("https:") else True
    decode = json.loads if job["decode"] == "json" else (lambda raw: raw)
    timeout = job["timeout_seconds"]

    def mount(session):
        if url.startswith("https:") and job["tls_host"] != job["host"]:
            session.mount("https://", NamedHostAdapter(job["tls_host"]))
        return session

    def send(session):
        response = session.request(job["method"], url, data=body, headers=headers, verify=verify, timeout=timeout)
        if not 200 <= response.status_code < 300:
            raise Failed(f"HTTP {response.status_code}: {response.text[:200]}", f"HTTP_{response.status_code}")
        raw = response.content
        decode(raw)
        return raw

    if job["new_connection"]:
        headers["Connection"] = "close"

        def call():
            with mount(requests.Session()) as session:
                return send(session)

        return call, lambda: None

    kept = mount(requests.Session())
    return (lambda: send(kept)), kept.close


class NamedHostAdapter(requests.adapters.HTTPAdapter):
    """HTTPS to the services' address with the certificate's host name in SNI and the name check (as the .NET client connects)."""

    def __init__(self, tls_host):
        self._tls_host = tls_host
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["server_hostname"] = self._tls_host
        kwargs["assert_hostname"] = self._tls_host
        super().init_poolmanager(*args, **kwargs)


def grpc_caller(job):
    """grpcio: one channel kept open, or a new channel with a connection of its own for every call."""
    target = f"{job['host']}:{job['port']}"
    options = [("grpc.max_receive_message_length", 16 * 1024 * 1024)]
    credentials = None
    if job["tls"]:
        with open(job["certificate"], "rb") as pem:
            credentials = grpc.ssl_channel_credentials(root_certificates=pem.read())
        if job["tls_host"] != job["host"]:
            options.append(("grpc.ssl_target_name_override", job["tls_host"]))
    request = base64.b64decode(job["body"])
    parse = reply_class(job).FromString
    timeout = job["timeout_seconds"]

    def open_channel(extra=()):
        all_options = options + list(extra)
        if credentials is None:
            return grpc.insecure_channel(target, options=all_options)
        return grpc.secure_channel(target, credentials, options=all_options)

    def send(channel):
        raw = channel.unary_unary(job["path"])(request, timeout=timeout)
        parse(raw)
        return raw

    if job["new_connection"]:
        # Without a subchannel pool of its own, grpcio quietly shares one connection between channels to the same target.
        def call():
            channel = open_channel([("grpc.use_local_subchannel_pool", 1)])
            try:
                return send(channel)
            finally:
                channel.close()

        return call, lambda: None

    kept = open_channel()
    return (lambda: send(kept)), kept.close


def measure(job, out):
    call, close = (grpc_caller if job["protocol"] == "grpc" else http_caller)(job)
    each = job["answers"] == "each"
    try:
        first = call()
        out(f"answer {base64.b64encode(first).decode()}")

        def check(index, answer):
            """Outside the timed call: a read's answer equals the first; a create's goes back to be checked."""
            if each:
                out(f"answer {base64.b64encode(answer).decode()}")
            elif answer != first:
                raise Failed(f"answer {index} differs from the first ({len(answer)} bytes against {len(first)})")

        # The warm-up: calls for one iteration's time, which sizes the measured iterations (as the .NET cells are sized).
        clock = time.perf_counter_ns
        calls = 1
        if job["warmup"]:
            started, calls = clock(), 0
            while calls == 0 or clock() - started < job["iteration_ns"]:
                check(calls, call())
                calls += 1
        for _ in range(job["iterations"]):
            elapsed = 0
            for index in range(calls):
                started = clock()
                answer = call()
                elapsed += clock() - started
                check(index, answer)
            out(f"iteration {elapsed / calls:.1f}")
        out("done")
    finally:
        close()


def pace(job, out):
    """The paced stream: the warm-up back to back, a pause, then one request every 1/rate seconds on a fixed schedule."""
    call, close = (grpc_caller if job["protocol"] == "grpc" else http_caller)(job)
    first = None

    def attempt():
        nonlocal first
        try:
            answer = call()
        except (Failed, OSError, requests.RequestException, grpc.RpcError) as e:
            return None, e
        if first is None:
            first = answer
            out(f"answer {base64.b64encode(answer).decode()}")
        return answer, None

    try:
        for _ in range(job["warmup_count"]):
            attempt()
        time.sleep(job["settle_ms"] / 1000)
        clock = time.perf_counter_ns
        interval = 1_000_000_000 / job["rate"]
        origin = clock()
        for index in range(job["count"]):
            due = origin + int(index * interval)
            if due > clock():
                time.sleep((due - clock()) / 1e9)
            started = clock()
            answer, error = attempt()
            elapsed = clock() - started
            timing = f"sample {index} {(started - due) / 1e6:.3f} {elapsed / 1e6:.3f}"
            if error is not None:
                word, code = outcome(error)
                out(f"{timing} {word} {code} {error}".replace("\n", " "))
            else:
                out(f"{timing} ok" + ("" if answer == first else f" {base64.b64encode(answer).decode()}"))
        out("done")
    finally:
        close()


def main():
    if sys.argv[1:] == ["--versions"]:
        print(f"Python {platform.python_version()}, requests {requests.__version__}, grpcio {grpc.__version__}, protobuf {google.protobuf.__version__}")
        return

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    try:
        job = json.loads(sys.stdin.readline())
        (pace if job.get("mode") == "paced" else measure)(job, out)
    except (Failed, OSError, ValueError, requests.RequestException, grpc.RpcError) as e:
        out(f"error {type(e).__name__}: {e}".replace("\n", " "))
        sys.exit(1)


if __name__ == "__main__":
    main()
