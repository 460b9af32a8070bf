"""Every rule id of rules/gouji.md (GJ-1 … GJ-49) is cited by a 够级 test (by its text or by a
test's name), and every id the game layer cites exists in the rules."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
ENGINE = HERE.parents[2] / "engine" / "games" / "gouji"
RULES = HERE.parents[2] / "engine" / "rules" / "gouji.md"


def _rule_ids() -> set[int]:
    return {int(n) for n in re.findall(r"\*\*GJ-(\d+) ", RULES.read_text(encoding="utf-8"))}


def _cited_by_tests() -> set[int]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("*.py")
                     if p.name != Path(__file__).name)
    ids = {int(n) for n in re.findall(r"GJ-(\d+)", text)}
    for names in re.findall(r"def test_((?:gj\d+_)+)", text):
        ids |= {int(n) for n in re.findall(r"gj(\d+)", names)}
    return ids


def test_every_rule_of_gouji_is_cited_by_a_test():
    ids = _rule_ids()
    assert ids == set(range(1, 50))
    missing = sorted(ids - _cited_by_tests())
    assert not missing, f"rule ids without a test: {missing}"


def test_every_rule_id_the_game_layer_cites_exists():
    code = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    cited = {int(n) for n in re.findall(r'"GJ-(\d+)"', code)}
    assert cited and cited <= _rule_ids()
