"""``liujia sign LOG… --key NAME``: sign sealed logs with a recorder key."""

from __future__ import annotations

import argparse

from engine.errors import LogIntegrityError
from engine.log import scan_log_files, sign_file
from liujia.commands._common import FOUND, OK, USAGE, fail, safe_text
from liujia.keys import KeyProblem, load_key


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("sign", help="sign sealed logs with a recorder key",
                       description="Append a signature (Ed25519, the key NAME made by `liujia "
                       "keys new`) to each sealed, intact, unsigned log. The signature covers "
                       "the file's bytes and lists every game in order with its final digest "
                       "and timestamps, so any later change, dropped, added or reordered game "
                       "is detected.")
    p.add_argument("paths", nargs="+", metavar="LOG", help="log files or folders")
    p.add_argument("--key", required=True, metavar="NAME", help="the recorder key")
    return p


def run(args: argparse.Namespace) -> int:
    """Sign each file; exit 1 if any could not be signed."""
    try:
        key = load_key(args.key)
    except KeyProblem as exc:
        return fail(str(exc))
    files, errors = scan_log_files(args.paths)
    for err in errors:
        fail(f"{err.filename}: {err.strerror or err}", USAGE)
    code = USAGE if errors else OK
    for path in files:
        try:
            sig = sign_file(path, key)
        except LogIntegrityError as exc:
            print(safe_text(f"{path}: not signed: {exc}"))
            code = code or FOUND
            continue
        except OSError as exc:
            fail(f"{path}: {exc.strerror or exc}", USAGE)
            code = USAGE
            continue
        print(safe_text(f"{path}: signed by {args.key} (key {sig.key_id}), "
                        f"{len(sig.games)} game(s)"))
    return code
