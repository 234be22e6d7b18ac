"""ProtocolBench's virtual users on Locust's workers (the load command's `users --engine locust`).

A worker runs `locust -f locustfile.py --worker --master-host HOST --master-port PORT` (Debian's python3-locust 2.12.1;
the load command starts as many as --locust-workers says, on this machine). ProtocolBench's master (master.py)
sends each cell's job to every worker ("pb-cell"), then asks Locust for the cell's users, whom Locust spreads over the
workers. Each user opens its connection (or shares one, users_per_connection to a gRPC channel), sends warmup requests
and waits until every user of every worker has ("pb-go"), warmup_passes times (the load command waits for the service to
be quiet in between), then sends its requests back to back (or one every interval_seconds, the first after a random share
of one) and idles until the cell ends.
Every request is timed to its answer decoded, in microseconds; a read's answer equal to the worker's first counts as that
one, any other goes to ProtocolBench with its time to be checked (a create's every answer: each names its own author).
Four times a second the worker sends the master what is new ("pb-report"): raw times, outcomes, answers, counts, and
the time since "pb-go" to its last user's last answer.
"""

import base64
import random
import time

import locust.runners

# Debian's package ships an empty version, and a master turns away a worker that reports one ("An old (pre 2.0) worker").
locust.runners.__version__ = locust.runners.__version__ or "2.12.1"

import gevent  # noqa: E402
import grpc.experimental.gevent  # noqa: E402
from gevent.event import Event  # noqa: E402
from locust import User, events, task  # noqa: E402
from locust.runners import WorkerRunner  # noqa: E402

import calls  # noqa: E402

# grpcio's own threads would otherwise block gevent's one: without this, 20 users calling a 200 ms method took 4 s, not 0.2.
grpc.experimental.gevent.init_gevent()

REPORT_SECONDS = 0.25


class Cell:
    """This worker's part of one cell: its job, its users' connections, and what it has not yet reported."""

    def __init__(self, job, worker):
        self.job = job
        self.worker = worker
        self.caller = calls.caller(job)
        self.body = base64.b64decode(job["body"]) if job.get("body") else b""
        self.placeholder = (job.get("marker_placeholder") or "").encode()
        # One gate a warm-up pass, opened by the master's "pb-go" for it; the users are measured past the last.
        self.gates = [Event() for _ in range(job.get("warmup_passes", 1))]
        self.go_at = None
        self.users = 0
        self.ended = 0
        self.shared = {}
        self.first = None
        self.news = {"warm": 0, "done": 0, "times": {"warmup": [], "measured": []}, "others": [], "connections": 0}
        self.last_end = None

    def take(self):
        """What is new since the last report, and the window so far."""
        news = self.news
        self.news = {"warm": 0, "done": 0, "times": {"warmup": [], "measured": []}, "others": [], "connections": 0}
        news["window_us"] = None if self.go_at is None or self.last_end is None else (self.last_end - self.go_at) // 1000
        news["cell"] = self.job["cell"]
        return news

    def has_news(self):
        n = self.news
        return n["warm"] or n["done"] or n["others"] or n["connections"] or n["times"]["warmup"] or n["times"]["measured"]

    def connection_for(self, user):
        """A user's own connection (HTTP/1.1, the hub), or its share of a gRPC channel; None: one for every call."""
        if self.job["new_connection"]:
            return None
        group = user // self.job["users_per_connection"] if self.job["protocol"] == "grpc" else user
        if group not in self.shared:
            self.shared[group] = self.caller.connect()
            self.news["connections"] += 1
        return self.shared[group]

    def attempt(self, phase, user, index, connection):
        """One request, timed; its outcome recorded for the next report."""
        marker = None
        body = self.body
        if self.placeholder:
            # The create's name: the cell's prefix and this request's own suffix, as wide as the placeholder it replaces.
            marker = f"{self.worker:03d}-{user:06d}-{index:05d}"[-len(self.placeholder):].rjust(len(self.placeholder), "0")
            body = body.replace(self.placeholder, marker.encode())
        started = time.perf_counter_ns()
        try:
            if connection is None:
                connection = self.caller.connect()
                self.news["connections"] += 1
                try:
                    answer = self.caller.call(connection, body)
                finally:
                    self.caller.close(connection)
            else:
                answer = self.caller.call(connection, body)
            failure = None
        except Exception as error:  # every failure is a request's outcome, never the user's end
            failure = calls.classify(error)
        ended = time.perf_counter_ns()
        elapsed = (ended - started) // 1000
        if phase == "measured":
            self.last_end = ended
        if failure is not None:
            kind = "timedout" if failure.timed_out else "failed"
            self.note(phase, elapsed, kind, marker, code=failure.code, message=str(failure)[:300])
        elif marker is None and (self.first == answer or self.first is None):
            if self.first is None:
                self.first = answer
                self.note(phase, elapsed, "ok", None, answer=self.encoded(answer))
            else:
                self.news["times"][phase].append(elapsed)
        else:
            self.note(phase, elapsed, "ok", marker, answer=self.encoded(answer))

    def finished(self, runner):
        """A user has sent its requests; the worker's last one reports at once, so the cell's measurement ends with it."""
        self.news["done"] += 1
        self.ended += 1
        if self.ended == self.users:
            runner.send_message("pb-report", self.take())

    def encoded(self, answer):
        return base64.b64encode(self.caller.bytes(answer)).decode()

    def note(self, phase, elapsed, kind, marker, **details):
        """A request that is not a plain copy of the first answer: the first itself, a different answer, a failure."""
        self.news["others"].append({"phase": phase, "us": elapsed, "kind": kind, "marker": marker, **details})

    def close(self):
        for connection in self.shared.values():
            try:
                self.caller.close(connection)
            except Exception:  # closing a broken connection is not a request
                pass
        self.shared.clear()


CELL = None


def start_cell(environment, msg, **_):
    """A new cell's job; a job this worker cannot take is said to the master, which fails the cell."""
    global CELL
    if CELL is not None:
        CELL.close()
        CELL = None
    try:
        CELL = Cell(msg.data, environment.runner.worker_index)
    except Exception as error:  # noqa: BLE001 -- whatever it is, the master must hear it rather than wait
        environment.runner.send_message("pb-error", {"cell": msg.data.get("cell"), "error": f"{type(error).__name__}: {error}"})


def go(msg, **_):
    if CELL is not None and CELL.job["cell"] == msg.data["cell"]:
        gate = msg.data.get("pass", 0)
        if gate == len(CELL.gates) - 1:
            CELL.go_at = time.perf_counter_ns()
        CELL.gates[gate].set()


def report(runner):
    """Four times a second: what is new, to the master."""
    while True:
        gevent.sleep(REPORT_SECONDS)
        if CELL is not None and CELL.has_news():
            runner.send_message("pb-report", CELL.take())


@events.init.add_listener
def on_init(environment, **_):
    if isinstance(environment.runner, WorkerRunner):
        environment.runner.register_message("pb-cell", lambda msg, **kw: start_cell(environment, msg))
        environment.runner.register_message("pb-go", go)
        gevent.spawn(report, environment.runner)


class ProtocolUser(User):
    """One virtual user of the cell: its warm-up passes, each ended by the wait for every other user's, its requests, then idle until the cell ends."""

    @task
    def run_cell(self):
        cell = CELL
        if cell is None:  # the job was refused (pb-error): idle until the master stops the cell
            Event().wait()
        user = cell.users
        cell.users += 1
        try:
            connection = cell.connection_for(user)
        except Exception:  # noqa: BLE001 -- then each request opens its own, and fails or not on its own
            connection = None
        warmup = cell.job["warmup"]
        for number, gate in enumerate(cell.gates):
            for index in range(warmup):
                cell.attempt("warmup", user, number * warmup + index, connection)
            cell.news["warm"] += 1
            gate.wait()
        interval = cell.job.get("interval_seconds")
        # With an interval, one request every interval seconds, the first after a random share of one (the users spread).
        due = time.monotonic() + (interval or 0) * random.Random(f"{cell.worker}-{user}").random()
        for index in range(cell.job["requests"]):
            if interval:
                gevent.sleep(max(0.0, due - time.monotonic()))
                due += interval
            cell.attempt("measured", user, len(cell.gates) * warmup + index, connection)
        cell.finished(self.environment.runner)
        Event().wait()
