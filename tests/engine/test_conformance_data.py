"""The conformance suite's data checks for every registered game: golden playthroughs and
perft counts are data files each game keeps under ``tests/games/<package>/``; the loops live
here, so a registered game without them fails.

- Golden playthroughs: ``tests/games/<package>/golden.py`` defines ``CASES`` (file name ->
  arguments of its ``playthrough``) and ``HERE``; every file must equal what ``playthrough``
  renders today (regenerate with ``python -m tests.games.<package>.golden``; review the diff).
- Perft: ``tests/games/<package>/perft.json`` lists positions and the number of legal action
  sequences from each to depth 1, 2, 3 (regenerate with
  ``python -m tests.engine.test_conformance_data``; a change is a rules change to review).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from engine.games import GAMES, find_game, package_of
from engine.replay import Replay
from engine.sim import simulate

TESTS = Path(__file__).resolve().parents[1]
PERFT_DEPTH = 3
PACKAGES = sorted({package_of(g) for g in GAMES})


def _golden(package):
    path = TESTS / "games" / package / "golden.py"
    assert path.is_file(), f"{package}: add golden playthroughs (tests/games/{package}/golden.py)"
    return importlib.import_module(f"tests.games.{package}.golden")


def _golden_cases():
    out = []
    for p in PACKAGES:
        if (TESTS / "games" / p / "golden.py").is_file():
            out += [(p, name) for name in sorted(_golden(p).CASES)]
    return out


@pytest.mark.parametrize(("package", "name"), _golden_cases())
def test_golden_playthroughs_are_as_reviewed(package, name):
    mod = _golden(package)
    expected = (mod.HERE / name).read_text(encoding="utf-8")
    assert mod.playthrough(*mod.CASES[name]) == expected, (
        f"{name} changed: regenerate with 'python -m tests.games.{package}.golden' and review "
        "the diff")


@pytest.mark.parametrize("package", PACKAGES)
def test_every_game_has_golden_playthroughs(package):
    assert len(_golden(package).CASES) >= 2


def perft(g, s, depth: int) -> int:
    """The number of legal action sequences of this length from the state."""
    if depth == 0 or g.is_over(s):
        return 1
    return sum(perft(g, g.apply(s, a), depth - 1) for a in g.legal_actions(s))


def _perft_file(package):
    return TESTS / "games" / package / "perft.json"


def _perft_cases():
    out = []
    for game in sorted(GAMES):
        path = _perft_file(package_of(game))
        cases = json.loads(path.read_text(encoding="utf-8")).get(game) if path.is_file() else None
        if not cases:
            out.append(pytest.param(game, None, id=f"{game}-missing"))
        for i, case in enumerate(cases or ()):
            out.append(pytest.param(game, case, id=f"{game}-{i}"))
    return out


@pytest.mark.parametrize(("game", "case"), _perft_cases())
def test_perft_counts_are_unchanged(game, case):
    assert case is not None, f"{game}: add perft data (python -m tests.engine.test_conformance_data)"
    g = find_game(game)
    s = g.from_position(case["position"])
    assert [perft(g, s, d) for d in range(1, len(case["counts"]) + 1)] == case["counts"]


def _seeded_positions(game):
    """Three positions of a seeded game of the game's first option set, early, middle and
    late: in each third, the first state with the fewest (but at least two) legal actions,
    so that the counts stay small."""
    g = find_game(game)
    opts = g.Options(**g.CONFORMANCE["option_sets"][0])
    rep = Replay(next(simulate(game, 1, seed=17, options=opts)).events)
    n = len(rep)
    picks = []
    for k in range(3):
        window = [rep.state_at(i) for i in range(max(1, n * k // 3), n * (k + 1) // 3)]
        width = [len(g.legal_actions(x)) for x in window]
        best = min((w for w in width if w >= 2), default=None)
        if best is not None:
            picks.append(window[width.index(best)])
    return picks


def main() -> None:
    """Write each package's perft.json from seeded positions (counts by today's engine)."""
    data: dict[str, dict] = {}
    for game in sorted(GAMES):
        g = find_game(game)
        data.setdefault(package_of(game), {})[game] = [
            {"position": g.to_position(s), "counts": [perft(g, s, d)
                                                      for d in range(1, PERFT_DEPTH + 1)]}
            for s in _seeded_positions(game)]
    for package, games in data.items():
        _perft_file(package).write_text(json.dumps(games, ensure_ascii=False, indent=1) + "\n",
                                        encoding="utf-8")
        print(f"wrote {_perft_file(package)}", file=sys.stderr)


if __name__ == "__main__":
    main()
