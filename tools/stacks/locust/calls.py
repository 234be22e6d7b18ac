"""The call a Locust user of ProtocolBench makes: the request's bytes as ProtocolBench's own client sends them.

The job (ProtocolBench's StackRunner writes it, the master hands it to every worker) names the service, the request's
bytes and how to decode the answer. HTTP (REST, GraphQL) goes over the standard library's http.client, gRPC over
grpcio, SignalR's hub over websocket-client (hubs.py); gevent's monkey patching (Locust's) and grpcio's gevent mode make
all three cooperative, so thousands of users share a worker's one thread. Each answer is decoded as a Python program reads
it (json.loads, the reply message parsed) inside the timed call. The certificate travels in the job, so a worker on
another machine needs only this folder and ../python (the reply's reading, shared with the Python stack).
"""

import http.client
import json
import os
import socket
import ssl
import sys

import grpc

import hubs

# The Python stack's reading of a gRPC reply (tools/stacks/python/replies.py): a worker on another machine needs both folders.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from replies import reply_class  # noqa: E402


class Failed(Exception):
    """A call that failed; code names how, as ProtocolBench's own errors do (HTTP_404, NOT_FOUND, transport, timeout)."""

    def __init__(self, message, code="transport", timed_out=False):
        super().__init__(message)
        self.code = code
        self.timed_out = timed_out


def classify(error):
    """Any exception a call raised, as a Failed."""
    if isinstance(error, Failed):
        return error
    if isinstance(error, grpc.RpcError):
        late = error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        return Failed(error.details() or str(error.code()), "timeout" if late else error.code().name, late)
    if isinstance(error, (socket.timeout, TimeoutError)):
        return Failed(str(error) or "timed out", "timeout", True)
    return Failed(f"{type(error).__name__}: {error}", "transport")


def tls_context(job):
    """Trusts exactly the project's certificate, and checks the name the job gives (tls_host)."""
    return ssl.create_default_context(cadata=job["certificate_pem"]) if job["tls"] else None


class NamedHostConnection(http.client.HTTPSConnection):
    """HTTPS to the services' address with the certificate's host name in SNI and the name check (as the .NET client connects)."""

    def __init__(self, host, port, tls_host, context, timeout):
        super().__init__(host, port, timeout=timeout, context=context)
        self._tls_host = tls_host

    def connect(self):
        # HTTPConnection's own: the TCP connection, with Nagle's algorithm off (headers and body go in two writes).
        http.client.HTTPConnection.connect(self)
        self.sock = self._context.wrap_socket(self.sock, server_hostname=self._tls_host)


class BytesAnswers:
    """A caller whose answers are the bytes received (HTTP's body, gRPC's reply), sent to ProtocolBench as they are."""

    @staticmethod
    def bytes(answer):
        return answer


class HttpCaller(BytesAnswers):
    """REST and GraphQL over HTTP/1.1: a connection kept by the user, or one of its own for every call (Connection: close)."""

    def __init__(self, job):
        self._job = job
        self._context = tls_context(job)
        self._headers = {"Content-Type": job["content_type"]} if job.get("body") else {}
        if job["new_connection"]:
            self._headers["Connection"] = "close"
        self._decode = json.loads if job["decode"] == "json" else (lambda raw: raw)
        self._path = "/" + job["path"]

    def connect(self):
        job, timeout = self._job, self._job["timeout_seconds"]
        if self._context is None:
            return http.client.HTTPConnection(job["host"], job["port"], timeout=timeout)
        return NamedHostConnection(job["host"], job["port"], job["tls_host"], self._context, timeout)

    def call(self, connection, body):
        try:
            connection.request(self._job["method"], self._path, body=body, headers=self._headers)
            response = connection.getresponse()
            raw = response.read()
        except BaseException:
            connection.close()
            raise
        if not 200 <= response.status < 300:
            raise Failed(f"HTTP {response.status}: {raw[:200].decode('utf-8', 'replace')}", f"HTTP_{response.status}")
        self._decode(raw)
        return raw

    @staticmethod
    def close(connection):
        connection.close()


class GrpcCaller(BytesAnswers):
    """grpcio, unary calls: a channel (one HTTP/2 connection) shared by users_per_connection users, or one for every call."""

    def __init__(self, job):
        self._job = job
        self._parse = reply_class(job).FromString
        self._options = [("grpc.max_receive_message_length", 16 * 1024 * 1024)]
        # Without a subchannel pool of its own, grpcio quietly shares one connection between channels to one target.
        self._options.append(("grpc.use_local_subchannel_pool", 1))
        self._credentials = None
        if job["tls"]:
            self._credentials = grpc.ssl_channel_credentials(root_certificates=job["certificate_pem"].encode())
            if job["tls_host"] != job["host"]:
                self._options.append(("grpc.ssl_target_name_override", job["tls_host"]))

    def connect(self):
        target = f"{self._job['host']}:{self._job['port']}"
        if self._credentials is None:
            return grpc.insecure_channel(target, options=self._options)
        return grpc.secure_channel(target, self._credentials, options=self._options)

    def call(self, channel, body):
        raw = channel.unary_unary(self._job["path"])(body, timeout=self._job["timeout_seconds"])
        self._parse(raw)
        return raw

    @staticmethod
    def close(channel):
        channel.close()


def caller(job):
    """
    The job's caller: connect() opens what a user (or users_per_connection users) keeps, call(connection, body) makes one
    call and returns its answer, bytes(answer) is the answer as ProtocolBench reads it.
    """
    if job["protocol"] == "grpc":
        return GrpcCaller(job)
    if job["protocol"] == "signalr":
        return hubs.HubCaller(job, tls_context(job), Failed)
    return HttpCaller(job)
