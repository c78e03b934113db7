"""Asks a node whether it speaks CQL: an OPTIONS request must be answered with SUPPORTED.

A listening port alone is not enough (Cassandra binds it before it can serve requests).
"""
import socket
import struct

_OPTIONS = 0x05
_SUPPORTED = 0x06


def cql_answers(host: str, port: int, timeout: float = 2.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout) as s:
            s.settimeout(timeout)
            # protocol v4 request frame header: version, flags, stream id, opcode, body length
            s.sendall(struct.pack(">BBhBi", 0x04, 0, 1, _OPTIONS, 0))
            header = b""
            while len(header) < 9:
                chunk = s.recv(9 - len(header))
                if not chunk:
                    return False
                header += chunk
            return header[0] == 0x84 and header[4] == _SUPPORTED
    except OSError:
        return False
