"""Serving beyond this machine: a reachable --address needs --allow-remote and prints a
warning; browsers then need the access token (dashboards/guard.py); Streamlit's own guards are
on in every command line."""

from __future__ import annotations

import subprocess
from html import unescape
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from liujia.cli import main
from liujia.commands import serve as serve_cmd

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
TOKEN = "s3cret-token-for-tests"


class _Proc:
    """Stands in for the Streamlit process: records how it was started, exits at once."""

    started: list[tuple[list[str], dict[str, str]]] = []

    def __init__(self, cmd, env, **kwargs):
        _Proc.started.append((cmd, env))

    def wait(self, timeout=None):
        return 0


@pytest.fixture
def popen(monkeypatch):
    _Proc.started = []
    monkeypatch.setattr(subprocess, "Popen", _Proc)
    monkeypatch.setattr(serve_cmd, "port_in_use", lambda address, port: False)
    monkeypatch.delenv(serve_cmd.TOKEN_ENV, raising=False)
    return _Proc.started


@pytest.mark.parametrize("address", ["127.0.0.1:80", "example.invalid"])
def test_an_address_that_is_none_is_named(tiny_db, popen, capsys, address):
    assert main(["serve", "--db", str(tiny_db), "--address", address]) == 2
    assert f"--address {address}: not an IP address nor a host name" in capsys.readouterr().err
    assert popen == []


@pytest.mark.parametrize("address", ["0.0.0.0", "192.0.2.7", "::"])
def test_a_reachable_address_needs_allow_remote(tiny_db, popen, capsys, address):
    assert main(["serve", "--db", str(tiny_db), "--address", address]) == 2
    err = capsys.readouterr().err
    assert f"--address {address} can be reached from other machines" in err
    assert "add --allow-remote" in err and err.count("\n") == 1
    assert popen == []


def test_allow_remote_warns_and_needs_a_token(tiny_db, popen, capsys):
    assert main(["serve", "--db", str(tiny_db), "--address", "0.0.0.0", "--port", "8600",
                 "--allow-remote"]) == 0
    out, err = capsys.readouterr()
    assert "WARNING: serving on 0.0.0.0, beyond this machine" in err
    ((cmd, env),) = popen
    token = env[serve_cmd.TOKEN_ENV]
    assert len(token) >= 32 and token not in " ".join(cmd)
    assert f"http://127.0.0.1:8600/?token={token}" in out
    assert "--server.allowedHosts" not in cmd       # reached by names we cannot know


def test_allow_remote_takes_the_users_token(tiny_db, popen, capsys, monkeypatch):
    monkeypatch.setenv(serve_cmd.TOKEN_ENV, TOKEN)
    assert main(["serve", "--db", str(tiny_db), "--address", "0.0.0.0", "--allow-remote"]) == 0
    ((_, env),) = popen
    assert env[serve_cmd.TOKEN_ENV] == TOKEN


def test_loopback_needs_no_token_and_checks_the_host(tiny_db, popen, capsys):
    assert main(["serve", "--db", str(tiny_db), "--port", "8601"]) == 0
    ((cmd, env),) = popen
    assert serve_cmd.TOKEN_ENV not in env
    hosts = [v for k, v in zip(cmd[5::2], cmd[6::2], strict=True) if k == "--server.allowedHosts"]
    assert hosts == ["localhost", "127.0.0.1", "::1"]
    assert len(env["STREAMLIT_SERVER_COOKIE_SECRET"]) == 64


def test_streamlit_runs_with_its_guards_on():
    cmd = serve_cmd.streamlit_command(8123, "0.0.0.0")
    opts = dict(zip(cmd[5::2], cmd[6::2], strict=True))
    assert opts["--server.enableCORS"] == opts["--server.enableXsrfProtection"] == "true"
    assert opts["--server.xsrfCookieSameSite"] == "strict"
    assert opts["--server.enableStaticServing"] == opts["--server.enableAgentApi"] == "false"
    assert opts["--client.showErrorDetails"] == "type"


def test_demo_refuses_a_reachable_address_before_any_work(tmp_path, capsys):
    db = tmp_path / "demo.duckdb"
    assert main(["demo", "--db", str(db), "--address", "0.0.0.0"]) == 2
    assert "add --allow-remote" in capsys.readouterr().err
    assert not db.exists()


@pytest.mark.parametrize(("address", "loopback"), [
    ("127.0.0.1", True), ("127.8.9.10", True), ("localhost", True), ("::1", True),
    ("0.0.0.0", False), ("::", False), ("10.0.0.1", False), ("example.invalid", False),
])
def test_is_loopback(address, loopback):
    assert serve_cmd.is_loopback(address) is loopback


def test_access_token():
    assert serve_cmd.access_token("127.0.0.1") is None
    a, b = serve_cmd.access_token("0.0.0.0"), serve_cmd.access_token("0.0.0.0")
    assert a != b and len(a) >= 32



# ---------------------------------------------------------------- the dashboard's guard

def _run(**query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    return at.run()


def _shows_data(at: AppTest) -> bool:
    return bool(at.metric or at.dataframe)


def test_without_the_token_nothing_is_shown(app_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_TOKEN", TOKEN)
    at = _run()
    assert not at.exception and not _shows_data(at)
    assert at.title[0].value == "liujia" and at.text_input(key="lj_token_typed")
    at = _run(token="wrong")
    assert not _shows_data(at)
    assert any("not this dashboard's" in unescape(h.proto.body) for h in at.html)


def test_the_token_in_the_address_opens_the_session_and_leaves_the_address(app_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_TOKEN", TOKEN)
    at = _run(token=TOKEN)
    assert not at.exception and _shows_data(at)
    assert "token" not in at.query_params
    at.run()                                         # the next run of the session: still open
    assert _shows_data(at)


def test_a_typed_token_opens_the_session(app_db, monkeypatch):
    monkeypatch.setenv("LIUJIA_TOKEN", TOKEN)
    at = _run()
    at.text_input(key="lj_token_typed").input("nope").run()
    assert not _shows_data(at)
    at.text_input(key="lj_token_typed").input(TOKEN).run()
    assert _shows_data(at)


def test_no_token_set_means_no_guard(app_db, monkeypatch):
    monkeypatch.delenv("LIUJIA_TOKEN", raising=False)
    assert _shows_data(_run())


def test_serve_refuses_a_doctored_warehouse_before_starting(tiny_db, tmp_path, popen, capsys):
    import shutil

    import duckdb

    db = tmp_path / "sent.duckdb"
    shutil.copyfile(tiny_db, db)
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE VIEW v AS SELECT 1")
    assert main(["serve", "--db", str(db)]) == 2
    assert "is not a liujia warehouse: it holds view(s) 'main'.'v'" in capsys.readouterr().err
    assert popen == []


def test_kill_9_of_serve_stops_streamlit(tiny_db, tmp_path):
    import os
    import signal
    import sys
    import time

    from tests.dashboards.test_dashboard_e2e import _free_port, _get, _wait

    port = _free_port()
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "liujia", "serve", "--db", str(tiny_db),
                             "--port", str(port)], stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True, cwd=Path(__file__).resolve().parents[2])
    health = f"http://127.0.0.1:{port}/_stcore/health"
    try:
        _wait(lambda: _get(health) == b"ok", 60, "the Streamlit server")
        proc.kill()                                   # SIGKILL of `liujia serve` only
        proc.wait(timeout=10)
        _wait(lambda: _get(health) is None, 30, "Streamlit to stop after its parent died")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)       # whatever is left of the group
        except ProcessLookupError:
            pass
        log.close()
        time.sleep(0.1)


def test_demo_refuses_a_warehouse_with_a_garbled_version(tiny_db, tmp_path, capsys):
    import shutil

    import duckdb

    db = tmp_path / "demo.duckdb"
    shutil.copyfile(tiny_db, db)
    with duckdb.connect(str(db)) as con:
        con.execute("UPDATE meta SET value = 'abc' WHERE key = 'schema_version'")
    assert main(["demo", "--db", str(db), "--no-serve"]) == 2
    err = capsys.readouterr().err
    assert "it has schema version 'abc'" in err and "Traceback" not in err
