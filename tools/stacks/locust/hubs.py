"""SignalR's hub for a Locust user: websocket-client over a socket this module opens, the JSON or the MessagePack hub protocol.

As ProtocolBench's own client connects: straight to the WebSocket (negotiation skipped), over TLS trusting exactly the
project's certificate and naming its host; the hub handshake, then one invocation at a time and its completion. The
timed call ends with the result decoded by the hub protocol; one that goes back to ProtocolBench is written as JSON (a
byte array as base64) outside it, as ProtocolBench reads every stack's hub answers.
"""

import base64
import json
import socket

import msgpack
import websocket

RECORD_SEPARATOR = b"\x1e"
INVOCATION, COMPLETION, PING, CLOSE = 1, 3, 6, 7


def _json_ready(value):
    """A MessagePack result as JSON holds it: byte arrays as base64, keys as text."""
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {str(k): _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return value


def _varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _frames(data):
    """The MessagePack messages of a binary frame: each a varint length and that many bytes."""
    position = 0
    while position < len(data):
        length, shift = 0, 0
        while True:
            byte = data[position]
            position += 1
            length |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        yield msgpack.unpackb(data[position:position + length], raw=False)
        position += length


class HubConnection:
    """One WebSocket with the hub's handshake done."""

    def __init__(self, job, context, failed):
        self._failed = failed
        self._messagepack = job["hub_protocol"] == "messagepack"
        self._next_id = 0
        raw = socket.create_connection((job["host"], job["port"]), job["timeout_seconds"])
        raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        name = job["host"]
        if context is not None:
            raw, name = context.wrap_socket(raw, server_hostname=job["tls_host"]), job["tls_host"]
        # websocket-client checks a text frame's UTF-8 in pure Python (2.8 ms for 22 KB here, 180 times Python's codec)
        # unless told not to; the text is decoded, and so checked, by Python's own codec below.
        self._socket = websocket.create_connection(
            f"ws://{name}:{job['port']}/{job['path']}", timeout=job["timeout_seconds"], socket=raw, skip_utf8_validation=True)
        protocol = "messagepack" if self._messagepack else "json"
        self._socket.send(json.dumps({"protocol": protocol, "version": 1}) + "\x1e")
        answer = self._socket.recv()
        handshake = json.loads((answer if isinstance(answer, str) else answer.decode()).rstrip("\x1e"))
        if handshake.get("error"):
            raise failed(f"hub handshake: {handshake['error']}", "HANDSHAKE")

    def invoke(self, target, arguments):
        self._next_id += 1
        invocation_id = str(self._next_id)
        if self._messagepack:
            message = msgpack.packb([INVOCATION, {}, invocation_id, target, arguments, []])
            self._socket.send_binary(_varint(len(message)) + message)
        else:
            message = {"type": INVOCATION, "invocationId": invocation_id, "target": target, "arguments": arguments}
            self._socket.send(json.dumps(message, separators=(",", ":")) + "\x1e")
        while True:
            for completion in self._completions():
                if completion["invocationId"] == invocation_id:
                    if completion.get("error") is not None:
                        raise self._failed(f"hub error: {completion['error']}", "HUB_ERROR")
                    return completion.get("result")

    def _completions(self):
        """The completions in the next frame (pings skipped); a close message fails the call."""
        frame = self._socket.recv()
        if self._messagepack:
            messages = [{"type": m[0], "invocationId": m[2], "error": m[4] if m[3] == 1 else None, "result": m[4] if m[3] == 3 else None}
                        if m[0] == COMPLETION else {"type": m[0], "error": m[1] if m[0] == CLOSE and len(m) > 1 else None}
                        for m in _frames(frame)]
        else:
            text = frame if isinstance(frame, str) else frame.decode()
            messages = [json.loads(part) for part in text.split("\x1e") if part]
        for message in messages:
            if message["type"] == CLOSE:
                raise self._failed(f"the hub closed the connection: {message.get('error')}", "transport")
            if message["type"] == COMPLETION:
                yield message

    def close(self):
        self._socket.close()


class HubCaller:
    """The hub method of the job with its arguments (a JSON array): a connection kept by the user, or one for every call."""

    def __init__(self, job, context, failed):
        self._job, self._context, self._failed = job, context, failed

    def connect(self):
        return HubConnection(self._job, self._context, self._failed)

    def call(self, connection, body):
        """The result as the hub protocol decoded it (compared with the worker's first as it is)."""
        return connection.invoke(self._job["method"], json.loads(body))

    @staticmethod
    def bytes(result):
        """A result as ProtocolBench reads a hub's answers: JSON, byte arrays as base64; outside the timed call."""
        return json.dumps(_json_ready(result), separators=(",", ":")).encode()

    @staticmethod
    def close(connection):
        connection.close()
