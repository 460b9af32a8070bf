"""``liujia record-server``: the live recording service for game servers (docs/record-server.md).

Game servers open a game with its GAME_START, append its events as they happen (each checked
by the engine, acknowledged once fsync'ed to the game's append log under ``DATA/live/``), and a
finished game is sealed into ``DATA/sealed/GAME.arrows`` for ``liujia ingest DATA/sealed``.
Bound to 127.0.0.1 unless ``--allow-remote``; every call needs a game server's bearer token.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from liujia.commands._common import fail, safe_text
from liujia.commands.serve import is_loopback, resolvable

MAX_AHEAD = 300                    # liujia.server.store's defaults (not imported: no FastAPI
MAX_BEHIND = 86_400                # for `liujia --help`)
DEFAULT_PORT = 8765
DEFAULT_ADDRESS = "127.0.0.1"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("record-server", help="the live recording service for game servers "
                       "(HTTP + JSON)",
                       description="Record games live: a game server opens a game with its "
                       "GAME_START, appends events (each checked by the engine at once, "
                       "acknowledged once on disk) and a finished game is sealed into "
                       "DATA/sealed/. Restarted after a crash it reopens every unfinished "
                       "game. The OpenAPI description is served at /openapi.json (/docs).")
    p.add_argument("--data", metavar="DIR", required=True,
                   help="the data folder (live/ append logs, sealed/ Arrow logs)")
    p.add_argument("--tokens", metavar="FILE",
                   help="the game servers' tokens, one 'name:token' line each (required to "
                   "serve; --new-token adds one)")
    p.add_argument("--new-token", metavar="NAME",
                   help="add a token for game server NAME to --tokens FILE, print it, exit")
    p.add_argument("--admin", action="store_true",
                   help="with --new-token: an admin token, which may also list and read every "
                   "game and the recovery report (a game server's token sees only its games)")
    p.add_argument("--max-ahead", metavar="SECONDS", default=str(MAX_AHEAD),
                   help="refuse an event whose ts is more than SECONDS ahead of this server's "
                   f"clock (default {MAX_AHEAD}; 'none': no bound)")
    p.add_argument("--max-behind", metavar="SECONDS", default=str(MAX_BEHIND),
                   help="refuse an event whose ts is more than SECONDS behind this server's "
                   f"clock (default {MAX_BEHIND}: a day; 'none': no bound, e.g. to record "
                   "games played earlier)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT,
                   help=f"port to listen on (default {DEFAULT_PORT})")
    p.add_argument("--address", default=DEFAULT_ADDRESS,
                   help=f"address to bind (default {DEFAULT_ADDRESS}: this machine only); an "
                   "address other machines can reach needs --allow-remote")
    p.add_argument("--allow-remote", action="store_true",
                   help="allow an --address beyond this machine (prints a warning)")
    p.add_argument("--sign", metavar="KEY", help="sign every sealed log with recorder key KEY "
                   "(`liujia keys new KEY`)")
    return p


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted, or add a token."""
    from liujia.server.tokens import TokenProblem, new_token, read_admins, read_tokens

    if not args.tokens:
        return fail("--tokens FILE is needed (game servers authenticate with a token; make "
                    "one with `liujia record-server --data DIR --tokens FILE --new-token NAME`)")
    if args.new_token:
        try:
            token = new_token(args.tokens, args.new_token, admin=args.admin)
        except (TokenProblem, OSError) as exc:
            return fail(str(exc))
        print(token)
        return 0
    if args.admin:
        return fail("--admin goes with --new-token NAME (it makes an admin token)")
    window: dict[str, int | None] = {}
    for opt in ("max_ahead", "max_behind"):
        text = getattr(args, opt)
        if text != "none" and not text.isdigit():
            return fail(f"--{opt.replace('_', '-')} {text}: expected a number of seconds "
                        "(0 or more) or 'none'")
        window[opt] = None if text == "none" else int(text)
    try:
        tokens = read_tokens(args.tokens)
        admins = read_admins(args.tokens)
    except TokenProblem as exc:
        return fail(str(exc))
    if not tokens:
        return fail(f"{args.tokens}: no tokens (add one with --new-token NAME)")
    if not 0 < args.port < 65536:
        return fail(f"--port {args.port}: expected 1-65535")
    if not is_loopback(args.address):
        if not resolvable(args.address):
            return fail(f"--address {args.address}: not an IP address nor a host name this "
                        "machine can resolve")
        if not args.allow_remote:
            return fail(f"--address {args.address} can be reached from other machines; add "
                        "--allow-remote to record beyond this machine")
        print(f"liujia: WARNING: recording on {args.address}, beyond this machine, over plain "
              "HTTP: tokens travel in clear (put a TLS proxy in front for anything but a "
              "trusted network)", file=sys.stderr, flush=True)
    signer = None
    if args.sign:
        from liujia.keys import KeyProblem, load_key
        try:
            signer = load_key(args.sign)
        except KeyProblem as exc:
            return fail(str(exc))
    data = Path(args.data)
    if not data.is_dir():
        try:
            data.mkdir(parents=True)
        except OSError as exc:
            return fail(f"{data}: cannot make the data folder ({exc.strerror or exc})")

    import uvicorn

    from liujia.server.app import create_app
    from liujia.server.store import DataProblem, Store

    def say(line: str) -> None:
        print(safe_text(f"liujia record-server: recovery: {line}"), file=sys.stderr, flush=True)

    store = Store(data, signer, max_ahead=window["max_ahead"], max_behind=window["max_behind"],
                  say=say)
    try:
        store.start(background=True)         # scanned now; the games recovered once it answers
    except DataProblem as exc:
        return fail(str(exc))
    print(safe_text(f"liujia record-server: http://{args.address}:{args.port}/ "
                    f"(data {data}, {len(store.pending)} open games to recover, {len(tokens)} game "
                    f"servers{', signing with ' + args.sign if signer is not None else ''})"),
          flush=True)
    app = create_app(store, tokens, frozenset(admins), background=True)
    uvicorn.run(app, host=args.address, port=args.port, log_level="warning",
                access_log=False, timeout_graceful_shutdown=5)
    return 0
