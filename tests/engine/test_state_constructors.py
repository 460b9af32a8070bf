"""Every game state is built by one constructor that names every field (issue 23): keyword-only
parameters, none defaulted, exactly the state's fields; no module outside a state's own builds
one field by field behind ``__new__``. Replay still copies (``copy``) and steps in place."""

from __future__ import annotations

import ast
import inspect
import random
from pathlib import Path

import pytest

from engine.games import GAMES, find_game
from engine.games.frame import SlotState
from engine.sim import simulate

ROOT = Path(__file__).resolve().parents[2]
GAME_IDS = sorted(GAMES)


def _events(game_id: str, seed: int) -> list:
    """The events of one seeded random game (with the game's first demo options, if any)."""
    g = find_game(game_id)
    sets = g.DEMO.get("option_sets") or [{}]
    return next(iter(simulate(game_id, 1, seed=seed, options=g.Options(**sets[0])))).events


def _state_class(game_id: str) -> type[SlotState]:
    """The state class of a game, from the state of its first simulated game."""
    events = _events(game_id, 5)
    cls = type(find_game(game_id).initial_state(events[0]))
    assert issubclass(cls, SlotState)
    return cls


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_constructor_requires_every_field_by_name(game_id):
    cls = _state_class(game_id)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == list(cls.FIELDS)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    assert all(p.default is inspect.Parameter.empty for p in params)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_field_left_out_is_a_type_error_and_all_given_rebuild_the_state(game_id):
    g = find_game(game_id)
    events = _events(game_id, 11)
    s = g.initial_state(events[0])
    for e in events[1:len(events) // 2]:
        g.step(s, e)                  # fold in place, as replay does
    fields = {name: getattr(s, name) for name in type(s).FIELDS}
    assert type(s)(**fields) == s
    left_out = random.Random(game_id).choice(sorted(fields))
    del fields[left_out]
    with pytest.raises(TypeError, match=left_out):
        type(s)(**fields)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_apply_copies_and_step_folds_in_place(game_id):
    g = find_game(game_id)
    events = _events(game_id, 3)
    s = g.initial_state(events[0])
    before = s.copy()
    after = g.apply(s, events[1])
    assert s == before and after is not s and after != s
    g.step(s, events[1])
    assert s == after


def _hand_built(path: Path, root: Path = ROOT) -> list[str]:
    """'path:line' of every ``X.__new__(…)`` of a class named …State in the file."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "__new__" and isinstance(node.func.value, ast.Name) \
                and node.func.value.id.endswith("State"):
            out.append(f"{path.relative_to(root)}:{node.lineno}")
    return out


def test_no_state_is_built_behind_new_outside_its_module():
    found = [hit for layer in ("engine", "ingest", "warehouse", "dashboards", "liujia")
             for p in sorted((ROOT / layer).rglob("*.py")) if p.name != "state.py"
             for hit in _hand_built(p)]
    assert found == []


def test_the_check_finds_a_state_built_behind_new(tmp_path):
    src = tmp_path / "game.py"
    src.write_text("s = KengState.__new__(KengState)\ns.seq = 1\nt = tuple.__new__(tuple)\n")
    assert _hand_built(src, tmp_path) == ["game.py:1"]
