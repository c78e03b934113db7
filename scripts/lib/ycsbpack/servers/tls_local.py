"""A self-signed certificate for local nodes started with --tls (made once per run directory).

The keystore belongs to the nodes, the truststore to clients (cassandra.ssl=true with
-jvm-args "-Djavax.net.ssl.trustStore=... -Djavax.net.ssl.trustStorePassword=..."). Both are
throwaway, for loopback test servers; their password is in a file beside them, never printed.
"""
import secrets
import subprocess
from pathlib import Path

from ..core import java
from ..core.errors import ScriptError


def _keytool() -> str:
    return str(Path(java.java17()).parent / "keytool")


def ensure(directory: Path, addresses: list) -> dict:
    """Creates keystore.jks and truststore.jks in directory if missing; returns their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    keystore, truststore = directory / "keystore.jks", directory / "truststore.jks"
    password_file = directory / "password"
    if not password_file.exists():
        password_file.write_text(secrets.token_hex(12))
        password_file.chmod(0o600)
    password = password_file.read_text().strip()
    if not keystore.exists() or not truststore.exists():
        san = ",".join(f"ip:{a}" for a in addresses)
        cert = directory / "node.crt"
        for cmd in (
            [_keytool(), "-genkeypair", "-alias", "node", "-keyalg", "RSA", "-keysize", "2048",
             "-validity", "3650", "-dname", "CN=ycsbpack-local", "-ext", f"san={san}",
             "-keystore", str(keystore), "-storetype", "JKS", "-storepass", password,
             "-keypass", password],
            [_keytool(), "-exportcert", "-alias", "node", "-keystore", str(keystore),
             "-storepass", password, "-file", str(cert)],
            [_keytool(), "-importcert", "-noprompt", "-alias", "node", "-file", str(cert),
             "-keystore", str(truststore), "-storetype", "JKS", "-storepass", password],
        ):
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise ScriptError(f"keytool failed making the local TLS certificate: "
                                  f"{proc.stderr.strip() or proc.stdout.strip()}")
    return {"keystore": keystore, "truststore": truststore, "password": password,
            "password_file": password_file}


def client_encryption_yaml(tls) -> str:
    if not tls:
        return ""
    return ("client_encryption_options:\n  enabled: true\n  optional: true\n"
            f"  keystore: {tls['keystore']}\n  keystore_password: {tls['password']}\n")
