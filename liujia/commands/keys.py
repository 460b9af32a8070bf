"""``liujia keys new|list|trust``: the recorder keys that sign logs and the keys trusted here."""

from __future__ import annotations

import argparse

from liujia.commands._common import OK, fail, safe_text
from liujia.keys import KeyProblem, home, known_keys, new_key, trust


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("keys", help="make, list and trust the keys that sign logs",
                       description="Recorder keys (Ed25519) sign sealed logs; validate, ingest "
                       "and audit say which key signed a log and whether it is trusted here. "
                       "Keys live in $LIUJIA_HOME (default ~/.config/liujia).")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True,
                             parser_class=type(p))
    new = verbs.add_parser("new", help="make a new recorder key (trusted here)")
    new.add_argument("name", metavar="NAME")
    verbs.add_parser("list", help="the trusted keys, and which ones this machine can sign with")
    tr = verbs.add_parser("trust", help="trust another recorder's public key")
    tr.add_argument("name", metavar="NAME")
    tr.add_argument("public", metavar="PUBLIC_KEY", help="its 64 hex digits, as `liujia keys "
                    "list` shows them on the recorder's machine")
    return p


def run(args: argparse.Namespace) -> int:
    """Make, list or trust keys."""
    try:
        if args.verb == "new":
            public = new_key(args.name)
            print(safe_text(f"made key {args.name} (trusted here); public key {public}"))
            print(safe_text(f"sign with it: liujia simulate --sign {args.name} …, or "
                            f"liujia sign LOG --key {args.name}"))
        elif args.verb == "trust":
            kid = trust(args.name, args.public)
            print(safe_text(f"trusted {args.name}: key {kid}"))
        else:
            keys = known_keys()
            if not keys:
                print(safe_text(f"no keys in {home()} (make one with `liujia keys new NAME`)"))
            for k in keys:
                print(safe_text(f"{k.name:<20} {k.key_id}  {k.public}"
                                f"{'  (can sign)' if k.private else ''}"))
    except KeyProblem as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"{exc.filename or home()}: {exc.strerror or exc}")
    return OK
