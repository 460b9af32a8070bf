"""``liujia serve``: the Streamlit dashboard (overview, replay, players, quarantine) on 127.0.0.1.

Beyond this machine only on request (``--allow-remote``), with a warning, and then every
browser session needs the access token printed at start (``$LIUJIA_TOKEN`` to choose it);
Streamlit's own guards are on either way (docs/dashboard.md, "Serving beyond this machine").
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from liujia.commands._common import fail, safe_text

# liujia/ and dashboards/ sit side by side (source tree and installed alike); found by path,
# since in the test run `dashboards` may resolve to the tests/dashboards namespace package.
APP = Path(__file__).resolve().parents[2] / "dashboards" / "app.py"
DEFAULT_PORT = 8501
DEFAULT_ADDRESS = "127.0.0.1"
DB_ENV = "LIUJIA_DB"
TOKEN_ENV = "LIUJIA_TOKEN"         # read by dashboards/guard.py; never put on a command line
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("serve", help="start the dashboard (Streamlit) on 127.0.0.1",
                       description="Start the Streamlit dashboard over a warehouse: overview, "
                       "step-by-step replay, players and quarantine. It binds to 127.0.0.1 "
                       "unless --address says otherwise. Ctrl-C stops it.")
    add_server_options(p)
    return p


def add_server_options(p: argparse.ArgumentParser, lake: bool = True) -> None:
    """The --db (and --lake), --port and --address options (shared with ``liujia demo``,
    which writes its warehouse and so has no --lake)."""
    from liujia.commands._common import lake_folder
    one = p.add_mutually_exclusive_group()
    one.add_argument("--db", metavar="FILE", help="warehouse file (default $LIUJIA_DB or the "
                     "per-user default, see `liujia ingest --help`)")
    if lake:
        one.add_argument("--lake", dest="db", metavar="DIR", type=lake_folder,
                         help="serve a Parquet lake (`liujia lake build`) instead")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--live", metavar="DIR", default=None, help="the --data folder of a "
                   "`liujia record-server`: the overview lists its games in progress")
    p.add_argument("--address", default=DEFAULT_ADDRESS,
                   help=f"address to bind (default {DEFAULT_ADDRESS}: this machine only); an "
                   "address other machines can reach needs --allow-remote")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow an --address beyond this machine: prints a warning, and every "
                   f"browser then needs the printed access token (${TOKEN_ENV} chooses it)")


def is_loopback(address: str) -> bool:
    """True if the address (or every address a host name resolves to) is this machine only."""
    if address in LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(address, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def remote_refusal(args: argparse.Namespace) -> int | None:
    """None if the --address may be served (with a warning when it is beyond this machine);
    else the exit code of the refusal: such an address needs --allow-remote."""
    if is_loopback(args.address):
        return None
    if not resolvable(args.address):
        return fail(f"--address {args.address}: not an IP address nor a host name this "
                    "machine can resolve (give the port with --port)")
    if not args.allow_remote:
        return fail(f"--address {args.address} can be reached from other machines, and "
                    "anyone who reaches it could read the warehouse; add --allow-remote to "
                    "serve beyond this machine (browsers then need an access token)")
    print(f"liujia: WARNING: serving on {args.address}, beyond this machine: anyone who "
          "can reach it and has the access token below can read the whole warehouse, over "
          "plain HTTP (put a TLS proxy in front for anything but a trusted network)",
          file=sys.stderr, flush=True)
    return None


def resolvable(address: str) -> bool:
    """True if the address is an IP address or a host name that resolves."""
    try:
        ipaddress.ip_address(address)
        return True
    except ValueError:
        pass
    try:
        return bool(socket.getaddrinfo(address, None))
    except (OSError, UnicodeError):
        return False


def access_token(address: str) -> str | None:
    """The token browsers need: ``$LIUJIA_TOKEN`` if set, else a fresh random one for an
    address beyond this machine, else none."""
    chosen = os.environ.get(TOKEN_ENV) or None
    if chosen or is_loopback(address):
        return chosen
    return secrets.token_urlsafe(24)


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
        # Streamlit's own guards, explicitly on: CORS and XSRF protection, a strict XSRF
        # cookie, no static file serving, no uploads, no agent API, exception details kept
        # to the console, and (on loopback) DNS-rebinding protection by the Host header.
        "--server.enableCORS", "true",
        "--server.enableXsrfProtection", "true",
        "--server.xsrfCookieSameSite", "strict",
        "--server.enableStaticServing", "false",
        "--server.maxUploadSize", "1",
        "--server.enableAgentApi", "false",
        "--client.showErrorDetails", "type",
        *(a for host in (LOOPBACK_HOSTS if is_loopback(address) else ())
          for a in ("--server.allowedHosts", host)),     # a list option: once per item
    ]


def url(address: str, port: int, page: str = "", query: str = "",
        token: str | None = None) -> str:
    """The dashboard's address (optionally of a page, with a query string and the token)."""
    host = "127.0.0.1" if address in ("0.0.0.0", "") else address
    host = f"[{host}]" if ":" in host else host
    query = "&".join(q for q in (query, f"token={quote(token)}" if token else "") if q)
    base = f"http://{host}:{port}/{page}"
    return f"{base}?{query}" if query else base


def serve(db: Path, port: int, address: str = DEFAULT_ADDRESS,
          token: str | None = None, live: str | None = None) -> int:
    """Run the dashboard over the warehouse until interrupted (browsers need the token when
    one is given; ``live``: a recording service's data folder, whose open games the overview
    lists); returns the exit code."""
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
    if live:
        env["LIUJIA_LIVE"] = str(Path(live).resolve())
    env.pop(TOKEN_ENV, None)
    env["STREAMLIT_SERVER_COOKIE_SECRET"] = secrets.token_hex(32)   # in no command line
    if token:
        env[TOKEN_ENV] = token
    print(safe_text(f"liujia dashboard: {url(address, port, token=token)}   (warehouse {db})"),
          flush=True)
    if token:
        print("Browsers need the access token (it is in the address above; a new browser "
              "tab asks for it).", flush=True)
    print("Ctrl-C stops it.", flush=True)
    from ingest.run import set_pdeathsig

    parent = os.getpid()

    def _die_with_serve() -> None:      # in the child before exec: a kill -9 of serve stops it
        if set_pdeathsig(signal.SIGTERM) and os.getppid() != parent:
            os._exit(1)

    proc = subprocess.Popen(streamlit_command(port, address), env=env,
                            preexec_fn=_die_with_serve)  # noqa: PLW1509 (no threads yet)
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
    from warehouse.lake import is_lake
    db = resolve_db(args.db)
    if not db.is_file() and not is_lake(db):
        return fail(f"no warehouse at {db}: run `liujia demo` for a demo corpus, or "
                    f"`liujia ingest LOGS --db {db}` to load hand histories")
    refused = remote_refusal(args)
    if refused is not None:
        return refused
    import duckdb

    from warehouse.db import WarehouseError, connect

    try:                                # refuse what every page would refuse, here and now
        connect(db, read_only=True).close()
    except (WarehouseError, duckdb.Error) as exc:
        return fail(str(exc))
    if args.live is not None and not Path(args.live).is_dir():
        return fail(f"--live {args.live}: not a folder (the --data folder of `liujia "
                    "record-server`)")
    return serve(db, args.port, args.address, access_token(args.address), args.live)
