"""Every rule id of rules/keng.md is cited by a test of the game (as KENG-n, or in a test's
name as keng_n / kengn), and every id the game layer cites exists in the rules (issue 24:
verdicts cite rules that exist)."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
ENGINE = ROOT / "engine" / "games" / "keng"
RULES = ROOT / "engine" / "rules" / "keng.md"


def _rule_ids() -> set[int]:
    """The ids the rules define: **KENG-n** in the text, or a table row | KENG-n |."""
    text = RULES.read_text(encoding="utf-8")
    found = re.findall(r"\*\*KENG-(\d+)\*\*|^\| KENG-(\d+) \|", text, flags=re.M)
    return {int(a or b) for a, b in found}


def _cited_by_tests() -> set[int]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py"))
    ids = {int(n) for n in re.findall(r"\bKENG-(\d+)\b", text)}
    for name in re.findall(r"def (test_\w+)", text):
        ids |= {int(n) for n in re.findall(r"(?:^|_)keng_?(\d+)(?=_|$)", name)}
    return ids


def test_every_rule_id_is_cited_by_a_test():
    ids = _rule_ids()
    assert ids, "no rule ids found"
    missing = sorted(ids - _cited_by_tests())
    assert not missing, f"rule ids without a test: {missing}"


def test_every_rule_id_the_game_layer_cites_exists():
    code = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    cited = {int(n) for n in re.findall(r"\bKENG-(\d+)\b", code)}
    unknown = sorted(cited - _rule_ids())
    assert cited and not unknown, f"cited ids that are no rule: {unknown}"
