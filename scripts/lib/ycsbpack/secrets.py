"""Keeps passwords out of echoed commands, logs and result metadata."""
import re

_SECRET_KEY = re.compile(r"(password|passwd|secret|passphrase|credential|keytab|token)",
                         re.IGNORECASE)
MASK = "*****"


def is_secret(key: str) -> bool:
    return bool(_SECRET_KEY.search(key))


def mask_assignment(text: str) -> str:
    """'cassandra.password=x' -> 'cassandra.password=*****'; '-Dk=v' likewise; others as is."""
    key, eq, _ = text.partition("=")
    return f"{key}={MASK}" if eq and is_secret(key) else text


def mask_command(cmd: list) -> list:
    """Masks the values of secret -p/-D properties in a command line."""
    return [mask_assignment(a) for a in cmd]


def mask_properties(props: dict) -> dict:
    return {k: (MASK if is_secret(k) else v) for k, v in props.items()}
