"""Golden playthroughs stay as reviewed (regenerate: python -m tests.games.gouji.golden)."""

from __future__ import annotations

import pytest

from .golden import CASES, HERE, playthrough


@pytest.mark.parametrize("name", sorted(CASES))
def test_gouji_playthrough_matches_golden(name):
    expected = (HERE / name).read_text(encoding="utf-8")
    assert playthrough(*CASES[name]) == expected, (
        f"{name} changed: regenerate with 'python -m tests.games.gouji.golden' and review the "
        "diff")
