"""Keeps passwords out of echoed commands, logs and result metadata."""
import re

# The same words as SecretMaskingStream.SECRET_WORDS (Java), which masks YCSB's own echoes; a
# test keeps the two lists equal.
SECRET_WORDS = ("password", "passwd", "secret", "passphrase", "credential", "keytab", "token",
                "apikey", "api_key", "api-key", "api.key", "accesskey", "access_key",
                "access-key", "access.key", "privatekey", "private_key", "private-key",
                "private.key")
_SECRET_KEY = re.compile("(" + "|".join(re.escape(w) for w in SECRET_WORDS) + ")", re.IGNORECASE)
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
