"""``liujia rules``: print the text of a rule by its id (KENG-12), from the rules shipped here."""

from __future__ import annotations

import argparse
import re
from importlib import resources

from liujia.commands._common import OK, fail

PREFIX_FILES = {"KENG": "keng.md"}


def rule_text(rule_id: str) -> str | None:
    """The paragraph(s) of a rule, from its bold id to the next rule or heading; None if unknown."""
    m = re.fullmatch(r"([A-Za-z]+)-(\d+[a-z]?)", rule_id.strip())
    if not m or m.group(1).upper() not in PREFIX_FILES:
        return None
    rid = f"{m.group(1).upper()}-{m.group(2)}"
    text = resources.files("liujia").joinpath("rules", PREFIX_FILES[m.group(1).upper()]).read_text(
        encoding="utf-8")
    start = text.find(f"**{rid}**")
    if start < 0:
        return None
    nxt = re.compile(r"^(\*\*[A-Z]+-\d+[a-z]?\*\*|#)", re.M)
    m2 = nxt.search(text, start + len(rid) + 4)
    return text[start: m2.start() if m2 else len(text)].strip()


def rule_ids(prefix: str = "KENG") -> list[str]:
    """Every rule id defined in a shipped rules file, in order."""
    text = resources.files("liujia").joinpath("rules", PREFIX_FILES[prefix]).read_text(
        encoding="utf-8")
    return re.findall(r"^\*\*([A-Z]+-\d+[a-z]?)\*\*", text, re.M)


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("rules", help="print the text of a rule, e.g. KENG-12",
                       description="Print the text of a rule by its id, as cited by errors and "
                       "audits. The rules ship with liujia (liujia/rules/*.md).")
    p.add_argument("rule_id", nargs="?", metavar="RULE-ID", help="e.g. KENG-12")
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
