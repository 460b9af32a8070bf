"""Golden playthroughs stay as reviewed (regenerate: python -m tests.games.modaoshuang.golden)."""

from __future__ import annotations

import pytest

from .golden import CASES, HERE, playthrough


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_golden(name):
    seed, policy, options = CASES[name]
    expected = (HERE / name).read_text(encoding="utf-8")
    assert playthrough(seed, policy, options) == expected, (
        f"{name} changed: regenerate with 'python -m tests.games.modaoshuang.golden' and "
        "review the diff")
