"""ProtocolBench's Locust master: the load command's `users --engine locust` talks to it; Locust's workers do the calls.

Started by the load command with Debian's /usr/bin/python3 (python3-locust 2.12.1), once for a whole study:

    master.py --bind HOST --port PORT --workers N      (PORT 0: any free port; it prints the one it took)

It waits for N workers (locustfile.py), then reads commands as lines of JSON on its standard input and writes what
happens as lines on its standard output:

    master PORT                 listening for workers on PORT
    workers N [ID ...]          the workers connected now, whenever that changes
    {"cell": JOB}               (in) run a cell: the job goes to every worker ("pb-cell"), then Locust spawns JOB's users
    report JSON                 a worker's report, as it sent it ("pb-report"), with its id added
    warm                        every user has sent its warm-up requests; the master waits for...
    {"go": CELL}                (in) ... this, then lets every user go on ("pb-go"): to its next warm-up pass
                                (JOB's warmup_passes, 1 if absent, each ended by warm and go), after the last to its requests
    measured                    every user has sent its requests (its worker's last report came as its last user ended)
    done                        Locust stopped the users, and the workers are ready again (or a minute passed)
    failed MESSAGE              instead of warm or measured: a worker went missing, left or refused the job, or fewer
                                workers than N were ready within a minute; the master is not to be given another cell
    (end of input)              the workers are told to quit, and so is the master

"master.py --versions" prints the stack's versions.
"""

import argparse
import json
import platform
import sys
import time

import locustfile  # noqa: F401 -- the users' class, and the version every worker is checked against
import gevent
import grpc
import locust.runners
from gevent.fileobject import FileObjectPosix
from locust import events
from locust.env import Environment

POLL_SECONDS = 0.05
# How long a cell waits for its workers to be ready (after the one before it, Locust's stop takes a second or two).
READY_SECONDS = 60


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Master:
    """Locust's master runner, and the counts of the cell in progress."""

    def __init__(self, host, port, workers):
        self.environment = Environment(user_classes=[locustfile.ProtocolUser], events=events)
        self.runner = self.environment.create_master_runner(master_bind_host=host, master_bind_port=port)
        self.expected = workers
        self.cell = None
        self.warm = self.done = 0
        self.problem = None
        self.runner.register_message("pb-report", self.on_report)
        self.runner.register_message("pb-error", self.on_error)
        out(f"master {self.runner.server.port}")

    def connected(self):
        clients = self.runner.clients
        return clients.ready + clients.spawning + clients.running

    def on_report(self, environment, msg, **_):
        report = msg.data
        if report.get("cell") != self.cell:
            return
        self.warm += report["warm"]
        self.done += report["done"]
        report["worker"] = msg.node_id
        out("report " + json.dumps(report, separators=(",", ":")))

    def on_error(self, environment, msg, **_):
        if msg.data.get("cell") == self.cell:
            self.problem = f"worker {msg.node_id} could not take the cell: {msg.data['error']}"

    def watch(self):
        """Says which workers are connected whenever that changes."""
        said = None
        while True:
            now = sorted(client.id for client in self.connected())
            if now != said:
                out(f"workers {len(now)} {' '.join(now)}".rstrip())
                said = now
            gevent.sleep(0.5)

    def lost(self, members):
        """A worker of the cell that is missing (no heartbeat for 3 s) or gone, or None."""
        present = {client.id: client for client in self.runner.clients.all}
        for member in members:
            if member not in present:
                return f"worker {member} left during the cell"
            if present[member].state == locust.runners.STATE_MISSING:
                return f"worker {member} stopped answering (no heartbeat for {locust.runners.HEARTBEAT_LIVENESS} s) during the cell"
        return None

    def wait_for(self, condition, members, limit=None):
        """Waits until condition() holds; instead, the message of a lost worker, of a refused job, or of the limit passed."""
        deadline = None if limit is None else time.monotonic() + limit
        while not condition():
            if self.problem is not None:
                return self.problem
            if members is not None and (problem := self.lost(members)):
                return problem
            if deadline is not None and time.monotonic() > deadline:
                return f"only {len(self.runner.clients.ready)} of {self.expected} workers were ready after {limit} s"
            gevent.sleep(POLL_SECONDS)
        return None

    def ready(self):
        return len(self.runner.clients.ready) >= self.expected

    def run_cell(self, job, commands):
        self.cell, self.warm, self.done, self.problem = job["cell"], 0, 0, None
        problem = self.wait_for(self.ready, None, READY_SECONDS)
        if problem is None:
            members = [client.id for client in self.runner.clients.ready]
            self.runner.send_message("pb-cell", job)
            users = job["users"]
            self.runner.start(users, spawn_rate=users)
            for number in range(job.get("warmup_passes", 1)):
                problem = self.wait_for(lambda passed=number + 1: self.warm >= users * passed, members)
                if problem is not None:
                    break
                out("warm")
                go = json.loads(next(commands))
                self.runner.send_message("pb-go", {"cell": go["go"], "pass": number})
        if problem is None:
            problem = self.wait_for(lambda: self.done >= users, members)
        # Said before Locust stops the users: stopping waits for every worker's, and a lost worker's never come back.
        out("measured" if problem is None else f"failed {problem}")
        self.cell = None
        self.runner.stop()
        if problem is None:
            self.wait_for(self.ready, None, READY_SECONDS)
            out("done")


def main():
    parser = argparse.ArgumentParser(description="ProtocolBench's Locust master")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--versions", action="store_true")
    options = parser.parse_args()
    if options.versions:
        print(f"Python {platform.python_version()}, Locust {locust.runners.__version__}, gevent {gevent.__version__}, grpcio {grpc.__version__}")
        return

    master = Master(options.bind, options.port, options.workers)
    gevent.spawn(master.watch)
    commands = iter(FileObjectPosix(sys.stdin.fileno(), "r", close=False))
    master.wait_for(master.ready, None)
    for line in commands:
        if line.strip():
            master.run_cell(json.loads(line)["cell"], commands)
    master.runner.quit()


if __name__ == "__main__":
    main()
