"""``liujia rules``: print the text of a rule by its id (KENG-12, GJ-20), from the rules
shipped in engine/rules/ (``engine.rules_text``)."""

from __future__ import annotations

import argparse

from engine.rules_text import PREFIX_FILES, rule_ids, rule_text
from liujia.commands._common import OK, fail

__all__ = ["PREFIX_FILES", "add_parser", "rule_ids", "rule_text", "run"]


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("rules", help="print the text of a rule, e.g. KENG-12 or GJ-20",
                       description="Print the text of a rule by its id, as cited by errors and "
                       "audits. The rules ship with liujia (engine/rules/*.md).")
    p.add_argument("rule_id", nargs="?", metavar="RULE-ID", help="e.g. KENG-12 or GJ-20")
    p.add_argument("--list", action="store_true", help="list every rule id")
    return p


def run(args: argparse.Namespace) -> int:
    """Print the rule."""
    if args.list or not args.rule_id:
        for prefix in PREFIX_FILES:
            print(" ".join(rule_ids(prefix)))
        return OK
    text = rule_text(args.rule_id)
    if text is None:
        return fail(f"unknown rule id {args.rule_id!r}; rules shipped: "
                    f"{', '.join(p + '-n' for p in PREFIX_FILES)} (see 'liujia rules --list')")
    print(text)
    return OK
