"""``liujia serve``: the Streamlit dashboard (overview, replay, players, quarantine) on 127.0.0.1."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from liujia.commands._common import fail

# liujia/ and dashboards/ sit side by side (source tree and installed alike); found by path,
# since in the test run `dashboards` may resolve to the tests/dashboards namespace package.
APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
DEFAULT_PORT = 8501
DEFAULT_ADDRESS = "127.0.0.1"
DB_ENV = "LIUJIA_DB"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("serve", help="start the dashboard (Streamlit) on 127.0.0.1",
                       description="Start the Streamlit dashboard over a warehouse: overview, "
                       "step-by-step replay, players and quarantine. It binds to 127.0.0.1 "
                       "unless --address says otherwise. Ctrl-C stops it.")
    add_server_options(p)
    return p


def add_server_options(p: argparse.ArgumentParser) -> None:
    """The --db, --port and --address options (shared with ``liujia demo``)."""
    p.add_argument("--db", metavar="FILE", help="warehouse file (default $LIUJIA_DB or the "
                   "per-user default, see `liujia ingest --help`)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--address", default=DEFAULT_ADDRESS,
                   help=f"address to bind (default {DEFAULT_ADDRESS}: this machine only)")


def free_port(address: str = DEFAULT_ADDRESS) -> int:
    """A port that is free on the address right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((address, 0))
        return int(s.getsockname()[1])


def port_in_use(address: str, port: int) -> bool:
    """True if something already listens on (address, port)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((address, port))
        except OSError:
            return True
    return False


def streamlit_command(port: int, address: str = DEFAULT_ADDRESS) -> list[str]:
    """The ``streamlit run`` command line of the dashboard: headless, no telemetry."""
    return [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.address", address,
        "--server.port", str(port),
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--browser.gatherUsageStats", "false",
        "--browser.serverAddress", address,
        "--browser.serverPort", str(port),
        "--global.developmentMode", "false",
        "--theme.base", "light",
        "--client.toolbarMode", "minimal",
        "--runner.magicEnabled", "false",
    ]


def url(address: str, port: int, page: str = "", query: str = "") -> str:
    """The dashboard's address (optionally of a page and with a query string)."""
    host = "127.0.0.1" if address in ("0.0.0.0", "") else address
    base = f"http://{host}:{port}/{page}"
    return f"{base}?{query}" if query else base


def serve(db: Path, port: int, address: str = DEFAULT_ADDRESS) -> int:
    """Run the dashboard over the warehouse until interrupted; returns the exit code."""
    if not APP.is_file():
        return fail(f"dashboard entry script {APP} is missing (is the project installed "
                    "from its source tree with `pip install -e .`?)")
    if port == 0:
        port = free_port(address)
    if not 0 < port < 65536:
        return fail(f"--port {port}: expected 1-65535 (or 0 for a free port)")
    try:
        busy = port_in_use(address, port)
    except OSError as exc:
        return fail(f"cannot bind {address}: {exc.strerror or exc}")
    if busy:
        return fail(f"port {port} on {address} is in use; choose another with --port "
                    "(0 picks a free one)")
    env = dict(os.environ)
    env[DB_ENV] = str(db.resolve())
    print(f"liujia dashboard: {url(address, port)}   (warehouse {db})", flush=True)
    print("Ctrl-C stops it.", flush=True)
    proc = subprocess.Popen(streamlit_command(port, address), env=env)
    previous = signal.signal(signal.SIGTERM, lambda *_: proc.terminate())
    try:
        code = proc.wait()
        return 0 if code in (0, -signal.SIGTERM) else code
    except KeyboardInterrupt:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)


def resolve_db(arg: str | None) -> Path:
    """The warehouse file named by --db, else the default one."""
    from warehouse.db import default_db

    return Path(arg).expanduser() if arg else Path(default_db())


def run(args: argparse.Namespace) -> int:
    """Start the dashboard."""
    db = resolve_db(args.db)
    if not db.is_file():
        return fail(f"no warehouse at {db}: run `liujia demo` for a demo corpus, or "
                    f"`liujia ingest LOGS --db {db}` to load hand histories")
    return serve(db, args.port, args.address)
