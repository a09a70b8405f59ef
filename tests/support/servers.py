"""Servers that are not Dask schedulers, on 127.0.0.1, for the tests of ``--scheduler``: each
accepts connections in a daemon thread and answers in one way (or never), until stopped."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

#: what each kind of server sends as soon as a client connects (None: nothing, ever)
GREETINGS: dict[str, bytes | None] = {
    "silent": None,
    "garbage": bytes(range(256)) * 16,
    "http": b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n",
    # a length prefix announcing 16 TiB, then a trickle
    "huge-frame": (1 << 44).to_bytes(8, "little") + b"\0" * 64,
    # Dask's framing, but a frame count of 2**40
    "bad-frames": (24).to_bytes(8, "little") + (1 << 40).to_bytes(8, "little") + b"\0" * 16,
    "closes": b"",
    # a Dask scheduler's real greeting (msgpack {"compression": None, "python": [3, 11, 7],
    # "pickle-protocol": 5}), then silence: Dask's own handshake then waits in vain
    "greets-then-silent": (58).to_bytes(8, "little") + (1).to_bytes(8, "little")
    + (42).to_bytes(8, "little") + b"\x83\xabcompression\xc0\xa6python\x93\x03\x0b\x07"
    b"\xafpickle-protocol\x05",
}


@contextmanager
def fake_server(kind: str) -> Iterator[str]:
    """``tcp://127.0.0.1:PORT`` of a server of ``kind`` (see :data:`GREETINGS`)."""
    greeting = GREETINGS[kind]
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    listener.settimeout(0.2)
    stop = threading.Event()
    accepted: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            accepted.append(conn)
            try:
                if greeting:
                    conn.sendall(greeting)
                if kind == "closes":
                    conn.close()
            except OSError:
                pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(timeout=5)
        for conn in accepted:
            conn.close()
        listener.close()


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on (just now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


__all__ = ["fake_server", "free_port", "GREETINGS"]
