"""scripts/mysql-local without a server: its my.cnf and its refusals (the real server is started
by the jdbc integration tests and the scenario tests)."""
import os
import socket

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.servers import mysql_local


def test_the_config_keeps_everything_under_the_run_dir_on_loopback(tmp_path):
    server = mysql_local.Server(tmp_path / "run", 23999, "128M")
    cnf = mysql_local._write_config(server, tmp_path / "mariadb").read_text()
    assert "bind-address = 127.0.0.1" in cnf and "port = 23999" in cnf
    for key in ("datadir", "tmpdir", "socket", "pid-file", "log-error"):
        line = next(ln for ln in cnf.splitlines() if ln.startswith(key + " "))
        assert str(tmp_path / "run") in line, line
    assert "innodb_buffer_pool_size = 128M" in cnf
    assert ("user = root" in cnf) == (os.geteuid() == 0), "mariadbd refuses root unless told"


def test_a_taken_port_is_refused_with_what_to_do(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ScriptError, match=f"already listens on 127.0.0.1:{port}.*--port"):
            mysql_local.start(mysql_local.Server(tmp_path, port, "128M"))


def test_a_port_out_of_range_is_refused(tmp_path):
    with pytest.raises(ScriptError, match="--port 80: give a port from 1024 to 65535"):
        mysql_local.main(["status", "--run-dir", str(tmp_path), "--port", "80"])
