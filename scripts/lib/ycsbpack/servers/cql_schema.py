"""Runs one CQL schema statement (e.g. `DROP TABLE IF EXISTS test.history`) on a node.

The scenario runner drops a table between S1's table variants; scripts use the standard
library only, so this speaks the native protocol v4 itself: STARTUP, then one QUERY. Servers
that ask for authentication are refused with a message saying what to do.
"""
import socket
import struct

_VERSION = 0x04
_ERROR, _STARTUP, _READY, _AUTHENTICATE, _QUERY, _RESULT = 0x00, 0x01, 0x02, 0x03, 0x07, 0x08
_CONSISTENCY_ONE = 0x0001


class CqlError(Exception):
    """The node refused the statement, or could not be reached; the message says which."""


def _string(s: str) -> bytes:
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def _frame(stream: int, opcode: int, body: bytes) -> bytes:
    return struct.pack(">BBhBi", _VERSION, 0, stream, opcode, len(body)) + body


def _read(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise CqlError("the node closed the connection")
        data += chunk
    return data


def _response(sock: socket.socket):
    _, _, _, opcode, length = struct.unpack(">BBhBi", _read(sock, 9))
    return opcode, _read(sock, length)


def execute(host: str, port: int, statement: str, timeout: float = 60.0) -> None:
    """Runs `statement` on host:port; returns when the node answered (schema agreed)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(_frame(1, _STARTUP, struct.pack(">H", 1) + _string("CQL_VERSION")
                                + _string("3.0.0")))
            opcode, body = _response(sock)
            if opcode == _AUTHENTICATE:
                raise CqlError(f"{host}:{port} requires authentication; run `{statement}` "
                               "yourself (cqlsh), then start the runner again")
            if opcode != _READY:
                raise CqlError(f"{host}:{port} did not accept the CQL connection ({_error(body)})")
            query = struct.pack(">i", len(statement.encode())) + statement.encode()
            sock.sendall(_frame(2, _QUERY, query + struct.pack(">HB", _CONSISTENCY_ONE, 0)))
            opcode, body = _response(sock)
            if opcode == _ERROR:
                raise CqlError(f"`{statement}` failed on {host}:{port}: {_error(body)}")
            if opcode != _RESULT:
                raise CqlError(f"`{statement}` on {host}:{port}: unexpected answer {opcode:#x}")
    except OSError as e:
        raise CqlError(f"cannot run `{statement}` on {host}:{port}: {e}") from e


def _error(body: bytes) -> str:
    if len(body) < 6:
        return "no details"
    code, = struct.unpack(">i", body[:4])
    n, = struct.unpack(">H", body[4:6])
    return f"error {code:#06x}: {body[6:6 + n].decode(errors='replace')}"
