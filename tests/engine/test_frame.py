"""The shared game frame and registry: variants registered from one package, the options base
(ranges, required options, dependent defaults, recorded in full), the frame checks every
game's ``step`` starts with, the state base, outcomes and their summary."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event
from engine.games import GAMES, find_game, package_of
from engine.games.base import Game
from engine.games.frame import (
    DRAW,
    LOSS,
    REQUIRED,
    WIN,
    OptionsBase,
    Outcome,
    SlotState,
    check_frame,
    check_seat,
    outcome_text,
    team_outcomes,
    winning_side,
)


def test_one_package_registers_several_variants(monkeypatch):
    monkeypatch.setitem(GAMES, "toy_a", "tests.engine.variant_pkg:a")
    monkeypatch.setitem(GAMES, "toy_b", "tests.engine.variant_pkg:b")
    a, b = find_game("toy_a"), find_game("toy_b")
    assert (a.GAME_ID, b.GAME_ID) == ("toy_a", "toy_b") and a.step is b.step
    assert isinstance(a, Game) and isinstance(b, Game)
    assert package_of("toy_a") == package_of("toy_b") == "variant_pkg"


def test_an_unknown_game_names_the_known_ones():
    with pytest.raises(Exception, match="unknown game 'nope'; known: .*keng"):
        find_game("nope")


@dataclass(frozen=True, slots=True)
class ToyOptions(OptionsBase):
    RULE: ClassVar[str] = "TOY-1"
    ALLOWED: ClassVar[dict[str, tuple[Any, ...]]] = {
        "players": (3, 5), "size": (3, 8), "mode": ("a", "b"), "flag": (True, False)}

    players: int = REQUIRED
    size: int | None = None
    mode: str = "a"
    flag: bool = False

    def resolve_defaults(self) -> None:
        self.set_default("size", 6 if self.players == 3 else 5)


def test_required_option_has_no_default_and_says_what_is_allowed():
    with pytest.raises(IllegalMove) as exc:
        ToyOptions()
    assert exc.value.rule_id == "TOY-1" and "players is required: an integer from 3 to 5" in \
        exc.value.reason


def test_options_name_the_allowed_values():
    with pytest.raises(IllegalMove, match=r"size=9 is not allowed: must be an integer from 3 to 8"):
        ToyOptions(players=3, size=9)
    with pytest.raises(IllegalMove, match=r"mode='c' is not allowed: must be 'a' or 'b'"):
        ToyOptions(players=3, mode="c")
    with pytest.raises(IllegalMove, match=r"flag=1 is not allowed: must be on/off"):
        ToyOptions(players=3, flag=1)
    with pytest.raises(IllegalMove, match=r"players=True"):
        ToyOptions(players=True)


def test_defaults_that_depend_on_other_options_are_recorded_in_full():
    assert ToyOptions(players=3).to_dict() == {"players": 3, "size": 6, "mode": "a",
                                               "flag": False}
    assert ToyOptions(players=4).size == 5 and ToyOptions(players=4, size=8).size == 8
    d = ToyOptions(players=5).to_dict()
    assert ToyOptions.from_dict(d) == ToyOptions(players=5)
    with pytest.raises(IllegalMove, match="not recorded in GAME_START"):
        ToyOptions.from_dict({"players": 3})
    with pytest.raises(IllegalMove, match="unknown option"):
        ToyOptions.from_dict({**d, "extra": 1})


class ToyState(SlotState):
    __slots__ = ("game_id", "seq", "players", "phase", "hand")


def _toy(**kw):
    s = ToyState()
    for k, v in {"game_id": "g1", "seq": 3, "players": ("a", "b", "c"), "phase": "play",
                 "hand": (1, 2)}.items():
        setattr(s, k, kw.get(k, v))
    return s


def test_state_base_copies_compares_and_names_itself():
    s = _toy()
    c = s.copy()
    assert c == s and c is not s and ToyState.FIELDS == ("game_id", "seq", "players", "phase",
                                                         "hand")
    c.hand = (1,)
    assert c != s and s.hand == (1, 2)
    assert repr(s) == "ToyState(game_id='g1', seq=3, phase='play')"


def test_frame_checks_game_id_then_seq_then_over():
    s = _toy()
    e = Event("PLAY", seat=1, game_id="g1", seq=3)
    check_frame(s, e, False, "TOY-9")
    with pytest.raises(InvalidEvent) as exc:
        check_frame(s, e._replace(game_id="other"), False, "TOY-9")
    assert exc.value.field == "game_id"
    with pytest.raises(InvalidEvent) as exc:
        check_frame(s, e._replace(seq=4), False, "TOY-9")
    assert exc.value.field == "seq"
    with pytest.raises(IllegalMove) as exc:
        check_frame(s, e, True, "TOY-9")
    assert exc.value.rule_id == "TOY-9" and "seat 1 PLAY at seq 3: the game is over" in str(
        exc.value)
    check_seat(s, e._replace(seat=2))
    with pytest.raises(InvalidEvent, match="seat 3 is not a seat 0-2"):
        check_seat(s, e._replace(seat=3))


def test_outcomes_of_sides_and_of_players():
    sides = ("even", "odd") * 3
    won = team_outcomes([1, -1] * 3, sides, "even")
    assert [o.result for o in won] == [WIN, LOSS] * 3
    assert winning_side(won, sides) == "even" and outcome_text(won, "even") == "even won"
    drawn = team_outcomes([0] * 6, sides, None)
    assert {o.result for o in drawn} == {DRAW}
    assert winning_side(drawn, sides) is None and outcome_text(drawn, None) == "draw"
    solo = (Outcome(None, -5, LOSS), Outcome(1, 0, WIN), Outcome(None, -3, LOSS))
    assert winning_side(solo, (None,) * 3) is None
    assert outcome_text(solo, None) == "seat 1 won"
    assert outcome_text([o._asdict() for o in solo], None) == "seat 1 won"
    assert outcome_text(None, None) == "no result"


def test_position_reader_names_the_dotted_field_and_refuses_unknown_ones():
    from engine.games.codec import Fields, bool_value

    f = Fields({"to_act": 7, "top": {"seat": "x", "cards": ["Th", "ZZ"]}, "flags": [True]}, 6)
    with pytest.raises(InvalidEvent) as exc:
        f.seat("to_act")
    assert exc.value.field == "to_act" and "must be a seat 0-5, got 7" in str(exc.value)
    top = f.sub("top")
    with pytest.raises(InvalidEvent) as exc:
        top.seat("seat", allow_none=True)
    assert exc.value.field == "top.seat" and "seat 0-5 or null" in str(exc.value)
    with pytest.raises(InvalidEvent) as exc:
        top.faces("cards")
    assert exc.value.field == "top.cards"
    with pytest.raises(InvalidEvent) as exc:
        f.per_seat("flags", bool_value)
    assert "a list of 6 values" in str(exc.value)
    with pytest.raises(InvalidEvent) as exc:
        f.get("missing")
    assert exc.value.field == "missing" and "is missing" in str(exc.value)
    g = Fields({"a": 1, "b": {"c": 1, "typo": 2}}, 3)
    g.int("a")
    g.sub("b").int("c")
    with pytest.raises(InvalidEvent) as exc:
        g.done()
    assert exc.value.field == "b.typo" and "is not a field" in str(exc.value)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_position_with_a_foreign_field_is_refused(game):
    import json
    import random

    g = find_game(game)
    opts = g.Options(**g.CONFORMANCE["option_sets"][0])
    n = g.seat_count(opts)
    s = g.initial_state(g.start_event("g", [f"p{i}" for i in range(n)], random.Random(1), opts))
    pos = json.loads(json.dumps(g.to_position(s)))
    assert g.from_position(pos) == s
    pos["hnads"] = []
    with pytest.raises(InvalidEvent) as exc:
        g.from_position(pos)
    assert exc.value.field == "hnads"
