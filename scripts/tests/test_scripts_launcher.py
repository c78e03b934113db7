"""bin/ycsb's command line: what it builds from YCSB-style arguments, and what it refuses."""
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ycsbpack.core.errors import ScriptError
from ycsbpack.core.secrets import mask_command
from ycsbpack.ycsb import ycsb_launcher


@pytest.fixture
def built(tmp_path, monkeypatch):
    """A build output layout like `mvn package` leaves it, in a temporary directory."""
    runtime = tmp_path / "ycsb-runtime" / "target" / "lib"
    runtime.mkdir(parents=True)
    release = tmp_path / "cassandra4-binding" / "target" / "cassandra4-binding"
    (release / "lib").mkdir(parents=True)
    (release / "conf").mkdir()
    (release / "lib" / "cassandra4-binding-0.1.0.jar").write_text("")
    monkeypatch.setattr(ycsb_launcher, "RUNTIME_LIB", runtime)
    monkeypatch.setattr(ycsb_launcher, "binding_release_dir",
                        lambda module, name: tmp_path / module / "target" / f"{name}-binding")
    monkeypatch.setattr(ycsb_launcher, "_warn_if_stale", lambda module, lib: None)
    return tmp_path


def test_load_runs_the_exit_status_aware_main_with_load_flag_last(built, tmp_path):
    workload = tmp_path / "w.properties"
    workload.write_text("recordcount=1\n")
    cmd = ycsb_launcher.build_command(
        [
            "load",
            "cassandra4",
            "-P",
            str(workload),
            "-p",
            "a=b",
            "-s",
            "-threads",
            "4",
            "-jvm-args",
            "-Xmx2g -Dx=y",
            "-cp",
            "/extra.jar",
        ]
    )
    assert cmd[1:4] == ["-Duser.language=en", "-Duser.country=US", "-Duser.variant="]
    assert cmd[4].startswith("-Dorg.slf4j.simpleLogger.logFile=") and cmd[4].endswith(".log")
    assert cmd[5:7] == ["-Xmx2g", "-Dx=y"], "after the launcher's -D, so they can override it"
    classpath = cmd[cmd.index("-cp") + 1].split(":")
    assert classpath[0] == "/extra.jar"
    assert classpath[-1].endswith("ycsb-runtime/target/lib/*")
    main_at = cmd.index(ycsb_launcher.CLIENT_MAIN)
    assert cmd[main_at + 1:main_at + 3] == ["-db", "org.ycsbpack.cassandra4.Cassandra4Client"]
    assert cmd[-1] == "-load"
    assert cmd[main_at + 3:-1] == ["-P", str(workload), "-p", "a=b", "-s", "-threads", "4"]


def test_run_adds_t_and_shell_uses_ycsbs_command_line(built):
    assert ycsb_launcher.build_command(["run", "basic"])[-1] == "-t"
    shell = ycsb_launcher.build_command(["shell", "basic"])
    assert shell[-3:] == [ycsb_launcher.SHELL_MAIN, "-db", "site.ycsb.BasicDB"]


def test_servers_runs_the_bindings_probe_with_its_options(built):
    cmd = ycsb_launcher.build_command(["servers", "cassandra4", "-p", "hosts=127.0.0.1", "-watch",
                                  "2", "-jvm-args", "-Xmx256m"])
    probe_at = cmd.index("org.ycsbpack.cassandra4.ServerProbe")
    assert cmd[probe_at + 1:] == ["-p", "hosts=127.0.0.1", "-watch", "2"]
    assert "-Xmx256m" in cmd[:probe_at]


@pytest.mark.parametrize("argv, message", [
    (["servers", "basic"], "binding basic has no servers to probe; bin/ycsb servers takes "
                           "cassandra4, hbase-salted, jdbc"),
    (["servers", "cassandra4", "-watch", "0"], "-watch 0: expected the seconds between samples"),
    (["servers", "cassandra4", "-threads", "2"], "option -threads does not apply to bin/ycsb "
                                                 "servers"),
    (["run", "basic", "-watch", "2"], "option -watch does not apply to bin/ycsb run"),
    (["load"], "bin/ycsb load needs a binding name before the options"),
    (["bench", "basic"], "unknown command 'bench'"),
    (["load", "mongodb"], "unknown binding 'mongodb'; known: basic, cassandra4"),
    (["run", "basic", "-P", "no/such/file"], "-P no/such/file: no such workload file"),
    (["run", "basic", "-threads"], "option -threads needs a value: -threads N"),
])
def test_bad_command_lines_are_refused_with_a_reason(built, argv, message):
    with pytest.raises(ScriptError, match=None) as e:
        ycsb_launcher.build_command(argv)
    assert message in str(e.value)


def test_an_unbuilt_binding_names_the_build_command(built, monkeypatch, tmp_path):
    monkeypatch.setattr(ycsb_launcher, "binding_release_dir", lambda m, n: tmp_path / "nowhere")
    with pytest.raises(ScriptError) as e:
        ycsb_launcher.build_command(["run", "cassandra4"])
    assert "the cassandra4 binding is not built: mvn -q -DskipTests package" in str(e.value)


def test_secret_property_values_are_masked_in_the_echoed_command():
    cmd = ["java", "-Djavax.net.ssl.keyStorePassword=k", "-p", "cassandra.password=p",
           "-p", "cassandra.username=u", "-p", "hbase.auth.token=t"]
    assert mask_command(cmd) == ["java", "-Djavax.net.ssl.keyStorePassword=*****", "-p",
                                 "cassandra.password=*****", "-p", "cassandra.username=u",
                                 "-p", "hbase.auth.token=*****"]


def test_python_and_java_mask_the_same_secret_words():
    """secrets.py masks the echoed command, SecretMaskingStream YCSB's own output: one list."""
    from ycsbpack.core.secrets import SECRET_WORDS
    java = (ycsb_launcher.REPO_ROOT / "binding-common" / "src" / "main" / "java" / "org"
            / "ycsbpack" / "common" / "launch" / "SecretMaskingStream.java").read_text()
    block = java[java.index("SECRET_WORDS = {"):java.index("};", java.index("SECRET_WORDS = {"))]
    assert re.findall(r'"([^"]+)"', block) == list(SECRET_WORDS)


def test_api_keys_are_secrets_too():
    assert mask_command(["-p", "service.apikey=k", "-p", "s3.access_key=a"]) == [
        "-p", "service.apikey=*****", "-p", "s3.access_key=*****"]


def test_bin_ycsb_exits_1_with_one_line_for_a_missing_property_file(tmp_path):
    # README's exit-status list: a bad option is refused before Java starts, exit status 1
    ycsb = Path(__file__).resolve().parents[2] / "bin" / "ycsb"
    missing = tmp_path / "missing.properties"
    proc = subprocess.run([sys.executable, str(ycsb), "load", "basic", "-P", str(missing)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [f"ERROR -P {missing}: no such workload file"]


def test_the_standard_library_tools_run_on_a_python_without_the_packs_environment(tmp_path):
    """bin/ycsb and scripts/install-into-ycsb go into other people's YCSB trees and the fleet's
    agent to loaders that have only Ray (docs/developing.md): each runs on a Python whose
    site-packages are switched off (-S: no pandas, no editable install of the pack)."""
    root = Path(__file__).resolve().parents[2]
    missing = tmp_path / "missing.properties"
    ycsb = subprocess.run([sys.executable, "-S", str(root / "bin" / "ycsb"), "load", "basic",
                           "-P", str(missing)], capture_output=True, text=True, timeout=60)
    assert ycsb.stderr.strip().splitlines() == [f"ERROR -P {missing}: no such workload file"]
    install = subprocess.run([sys.executable, "-S", str(root / "scripts" / "install-into-ycsb"),
                              "--help"], capture_output=True, text=True, timeout=60)
    assert install.returncode == 0 and "usage:" in install.stdout
    agent = subprocess.run([sys.executable, "-S", "-c", "import ycsbpack.fleet.agent"],
                           cwd=root / "scripts" / "lib", capture_output=True, text=True,
                           timeout=60)
    assert agent.returncode == 0, agent.stderr
