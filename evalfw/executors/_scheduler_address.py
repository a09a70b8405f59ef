"""A Dask scheduler's address, checked before Dask is given it.

Dask's client trusts what answers on an address: a server that accepts and never answers
holds it far beyond its timeout, and the first eight bytes of anything else are taken for a
message length ("Unable to allocate 6.93 EiB"). So evalfw first parses the address itself
(:func:`parse`: ``[tcp://|tls://]HOST[:PORT]``, one line naming what is wrong), then
:func:`probe` opens one connection with a deadline and reads the scheduler's greeting: a
Dask comm sends, unasked, a small framed handshake (an 8-byte length, a frame count, the
frames' lengths, a msgpack frame). The probe reads at most :data:`MAX_GREETING` bytes, checks
that framing, and closes; only then does Dask's client connect. The scheduler logs the
probe as a connection "closed before handshake completed" (at level INFO).
"""

from __future__ import annotations

import ipaddress
import re
import socket
import struct
import threading
import time
from dataclasses import dataclass
from typing import Any

#: the longest address accepted (a DNS name is at most 253 characters)
MAX_ADDRESS_CHARS = 300
#: a scheduler's greeting is about 60 bytes; anything announcing more is not one
MAX_GREETING = 64 << 10
DEFAULT_PORT = 8786
SCHEMES = ("tcp", "tls")
_HOSTNAME = re.compile(r"(?!-)[A-Za-z0-9_-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9_-]{1,63}(?<!-))*\.?")
WHERE = "--scheduler / executor.address"


class AddressError(ValueError):
    """An address evalfw cannot use (the message is one line, without the address)."""


class ProbeFailed(Exception):
    """No Dask scheduler answered on the address (the message is one line, the reason)."""


@dataclass(frozen=True)
class Address:
    scheme: str
    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def shown(text: str) -> str:
    """``text`` for a message: quoted, without control characters, at most ~80 characters."""
    cut = text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"
    return repr(cut)


def parse(text: Any) -> Address:
    """``[tcp://|tls://]HOST[:PORT]`` (IPv6 in brackets; port 8786 when omitted)."""
    if not isinstance(text, str) or not text:
        raise AddressError("expected an address such as tcp://10.0.0.5:8786")
    if len(text) > MAX_ADDRESS_CHARS:
        raise AddressError(f"an address is at most {MAX_ADDRESS_CHARS} characters")
    if not text.isprintable() or any(c.isspace() for c in text):
        raise AddressError("an address has no spaces or control characters")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme not in SCHEMES:
        raise AddressError(f"the {scheme}:// protocol is not supported; evalfw reaches Dask "
                           "schedulers over tcp:// (or tls:// with Dask's TLS settings)")
    if "/" in rest or "?" in rest or "@" in rest:
        raise AddressError("expected HOST:PORT after the protocol, nothing more")
    host, port_text = _split(rest)
    if port_text is None:
        port = DEFAULT_PORT
    elif not (port_text.isdigit() and port_text.isascii() and 0 < int(port_text) < 65536):
        raise AddressError(f"port {port_text[:20]!r} is not a number from 1 to 65535")
    else:
        port = int(port_text)
    return Address(scheme, host, port)


def _split(rest: str) -> tuple[str, str | None]:
    """(host, port text or None) of ``HOST[:PORT]`` or ``[IPv6][:PORT]``."""
    if rest.startswith("["):
        inside, close, after = rest[1:].partition("]")
        try:
            ipaddress.IPv6Address(inside)
        except ValueError:
            raise AddressError(f"{inside[:60]!r} in brackets is not an IPv6 address") from None
        if not close or (after and not after.startswith(":")):
            raise AddressError("expected [IPv6]:PORT")
        return inside, after[1:] if after else None
    host, colon, port = rest.partition(":")
    if ":" in port:
        raise AddressError("an IPv6 address goes in brackets: tcp://[::1]:8786")
    if not host or len(host) > 253 or not _HOSTNAME.fullmatch(host):
        raise AddressError(f"{host[:60]!r} is not a host name or IP address")
    return host, port if colon else None


def _resolve(address: Address, deadline: float) -> Any:
    """The first socket address of the host, found within the deadline (a name server that
    does not answer would otherwise hold ``getaddrinfo`` for its own timeouts)."""
    found: list[Any] = []

    def lookup() -> None:
        try:
            found.append(socket.getaddrinfo(address.host, address.port,
                                            type=socket.SOCK_STREAM)[0])
        except OSError as exc:
            found.append(exc)

    thread = threading.Thread(target=lookup, name="evalfw-resolve", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if not found:
        raise TimeoutError(f"the name {address.host} was not resolved in time")
    if isinstance(found[0], OSError):
        raise found[0]
    return found[0]


def _read(sock: socket.socket, n: int, deadline: float) -> bytes:
    data = bytearray()
    while len(data) < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        sock.settimeout(left)
        chunk = sock.recv(min(n - len(data), 1 << 16))
        if not chunk:
            raise ProbeFailed("the server closed the connection without a word")
        data += chunk
    return bytes(data)


def greeting_problem(data: bytes) -> str | None:
    """Why ``data`` (a message body after its 8-byte length) is not a Dask comm's framed
    message, or None."""
    import msgpack  # Dask's own dependency

    if len(data) < 16:
        return "its first message is too short"
    (count,) = struct.unpack_from("<Q", data)
    if not 1 <= count <= 64 or len(data) < 8 + 8 * count:
        return "its first message is not framed as Dask frames its messages"
    sizes = struct.unpack_from(f"<{count}Q", data, 8)
    if sum(sizes) != len(data) - 8 - 8 * count:
        return "its first message is not framed as Dask frames its messages"
    first = data[8 + 8 * count:8 + 8 * count + sizes[0]]
    try:
        msgpack.unpackb(first, raw=False, strict_map_key=False)
    except Exception:
        return "its first message is not msgpack, as Dask's messages are"
    return None


def probe(address: Address, timeout: float, ssl_context: Any = None) -> None:
    """Connect, read the greeting and close, all within ``timeout`` seconds; a
    :class:`ProbeFailed` (a one-line reason) if this is not a Dask scheduler answering."""
    deadline = time.monotonic() + timeout
    try:
        family, kind, proto, _, sockaddr = _resolve(address, deadline)
        sock = socket.socket(family, kind, proto)
    except TimeoutError:
        raise ProbeFailed(f"the name {address.host} was not resolved within {timeout:g} s"
                              ) from None
    except OSError as exc:
        raise ProbeFailed(f"the name {address.host} cannot be resolved "
                              f"({exc.strerror or exc})") from None
    try:
        sock.settimeout(max(0.001, deadline - time.monotonic()))
        sock.connect(sockaddr)
        if ssl_context is not None:
            sock = ssl_context.wrap_socket(
                sock, server_hostname=address.host if ssl_context.check_hostname else None)
        (size,) = struct.unpack("<Q", _read(sock, 8, deadline))
        if not 16 <= size <= MAX_GREETING:
            raise ProbeFailed(
                f"it is not a Dask scheduler: its first message announces {size:,} bytes "
                f"(a scheduler's greeting has about 60)")
        problem = greeting_problem(_read(sock, size, deadline))
        if problem:
            raise ProbeFailed(f"it is not a Dask scheduler: {problem}")
    except TimeoutError:
        raise ProbeFailed(
            f"no Dask scheduler answered within {timeout:g} s (a server that accepts and does "
            "not answer, or a firewall that drops the connection)") from None
    except OSError as exc:  # refused, unreachable, reset, a TLS failure
        raise ProbeFailed(str(exc.strerror or exc).lower()) from None
    finally:
        sock.close()


__all__ = ["Address", "AddressError", "MAX_GREETING", "parse", "probe", "ProbeFailed", "shown", "WHERE"]
