"""Every rule id of sections 4–7 and 9–13 of rules/ddz6.md is cited by a game test (by its
name or by the verdict it checks), and every id the game layer cites exists in the rules."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
ENGINE = HERE.parents[2] / "engine" / "games" / "ddz6"
RULES = HERE.parents[2].parent / "shared" / "rules" / "ddz6.md"
SECTIONS = [*range(7, 40), *range(71, 94)]          # DDZ-7 … DDZ-39, DDZ-71 … DDZ-93


def _test_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_game_*.py")
                     if p.name != Path(__file__).name)


def _cited(text: str) -> set[int]:
    ids = {int(n) for n in re.findall(r"DDZ-(\d+)", text)}
    for names in re.findall(r"def test_((?:ddz\d+_?)+)", text):
        ids |= {int(n) for n in re.findall(r"ddz(\d+)", names)}
    return ids


def test_every_rule_of_the_game_sections_is_cited_by_a_test():
    missing = [n for n in SECTIONS if n not in _cited(_test_text())]
    assert not missing, f"rule ids without a test: {missing}"


def test_every_rule_id_the_game_layer_cites_exists():
    code = "\n".join(p.read_text(encoding="utf-8") for p in ENGINE.glob("*.py"))
    cited = {int(n) for n in re.findall(r'"DDZ-(\d+)"', code)}
    assert cited and max(cited) <= 93 and min(cited) >= 1
    if RULES.is_file():
        text = RULES.read_text(encoding="utf-8")
        assert all(f"**DDZ-{n}**" in text for n in cited)
