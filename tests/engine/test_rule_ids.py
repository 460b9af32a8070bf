"""For every registered game: every rule id of its shipped rules file is cited by a test (as
``PREFIX-n`` in a test file, or in a test's name as ``prefixn`` / ``prefix_n``), and every
rule id its package's code cites exists in that file (a verdict never cites a rule that is
not there). Driven by each game's declared ``RULE_PREFIX`` and ``RULES_FILE``; a game whose
rules have an id no test cites fails here."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from engine.games import GAMES, find_game
from engine.rules_text import rule_ids

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


@cache
def _test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(TESTS.rglob("test_*.py")))


@cache
def _cited_by_tests(prefix: str) -> frozenset[str]:
    text = _test_text()
    found = {f"{prefix}-{n}" for n in re.findall(rf"\b{prefix}-(\d+[a-z]?)\b", text)}
    low = prefix.lower()
    for name in re.findall(r"def (test_\w+)", text):
        found |= {f"{prefix}-{n}" for n in re.findall(rf"(?:^|_){low}_?(\d+)(?=_|$)", name)}
    return frozenset(found)


def _prefixes() -> list[tuple[str, str]]:
    """(rule prefix, the path of its game's package) once per prefix (variants share one)."""
    out: dict[str, str] = {}
    for game in sorted(GAMES):
        out.setdefault(find_game(game).RULE_PREFIX, GAMES[game].partition(":")[0])
    return sorted(out.items())


@pytest.mark.parametrize(("prefix", "package"), _prefixes())
def test_every_rule_id_is_cited_by_a_test(prefix, package):
    ids = rule_ids(prefix)
    assert ids, f"{prefix}: no rule ids in its rules file"
    missing = [rid for rid in ids if rid not in _cited_by_tests(prefix)]
    assert not missing, f"{prefix}: rule ids without a test: {missing}"


@pytest.mark.parametrize(("prefix", "package"), _prefixes())
def test_every_rule_id_the_package_cites_exists(prefix, package):
    folder = ROOT.joinpath(*package.split("."))
    code = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py")))
    cited = set(re.findall(rf'"({prefix}-\d+[a-z]?)"', code))
    unknown = sorted(cited - set(rule_ids(prefix)))
    assert cited and not unknown, f"{package}: cited ids that are no rule: {unknown}"
