"""ddz6 positions: every state round-trips through JSON; a position that breaks the pack or
the facts the rules tie together is refused naming the field; the terminal table."""

from __future__ import annotations

import copy
import json

import pytest

from engine.games.codec import PositionError
from engine.games.ddz6 import VARIANTS

from .test_game_support import playout


@pytest.fixture(scope="module")
def finals():
    return {v: playout(v, 2, "greedy") for v in VARIANTS}


def test_positions_round_trip_at_every_step(finals):
    for v, (events, _) in finals.items():
        g = VARIANTS[v]
        s = g.initial_state(events[0])
        for e in events[1:]:
            assert g.from_position(json.loads(json.dumps(g.to_position(s)))) == s
            g.step(s, e)
        assert g.from_position(g.to_position(s)) == s


def _refused(v, pos, field):
    with pytest.raises(PositionError) as exc:
        VARIANTS[v].from_position(pos)
    assert exc.value.field.startswith(field), exc.value     # field: a prefix or a tuple


def test_broken_positions_are_refused_naming_the_field(finals):
    v = "2v4"
    g = VARIANTS[v]
    events, final = finals[v]
    mid = g.initial_state(events[0])
    for e in events[1:len(events) // 2]:
        g.step(mid, e)
    pos = g.to_position(mid)
    p = copy.deepcopy(pos)
    p["hands"][0] = p["hands"][0] + [p["hands"][1][0]]
    _refused(v, p, ("hands", "played"))           # the pack's count is exceeded
    p = copy.deepcopy(pos)
    p["deck"] = p["deck"][1:]
    _refused(v, p, "deck")
    p = copy.deepcopy(pos)
    p["case"] = "B1"
    _refused(v, p, "case")
    p = copy.deepcopy(pos)
    p["round"]["passes"] = 5
    _refused(v, p, "round.passes")
    p = copy.deepcopy(pos)
    p["surprise"] = 1
    _refused(v, p, "surprise")
    p = copy.deepcopy(pos)
    p["game"] = "ddz6_3v3"
    with pytest.raises(PositionError):
        g.from_position(p)
    over = g.to_position(final)
    over["result"]["scores"][0] += 1
    _refused(v, over, "result")


# ---------------------------------------------------------------- positions must be possible

SEEDS = (1, 2, 3, 4, 5, 6)


@pytest.fixture(scope="module")
def played():
    """Every state of seeded self-play hands of each variant (random, greedy and timeout bots,
    the default and the second conformance option set)."""
    out = {}
    for v, g in VARIANTS.items():
        states = []
        for k, seed in enumerate(SEEDS):
            opts = g.CONFORMANCE["option_sets"][k % 2]
            policy = ("random", "greedy", "random_timeouts")[k % 3]
            events, _ = playout(v, seed, policy, opts)
            s = g.initial_state(events[0])
            states.append(s.copy())
            for e in events[1:]:
                g.step(s, e)
                states.append(s.copy())
        out[v] = states
    return out


def test_every_position_of_seeded_self_play_round_trips(played):
    for v, states in played.items():
        g = VARIANTS[v]
        for s in states:
            assert g.from_position(json.loads(json.dumps(g.to_position(s)))) == s


def _mid_play(s):
    return s.phase == "play" and not s.owed and s.top is not None and s.round_no > 2


def _lead(s):
    return s.phase == "play" and not s.owed and s.top is None and s.round_no > 2


def _first_pos(p, pred):
    """The first deck position (a dealt card) meeting pred(index, face)."""
    dealt = 162 if p["game"] == "ddz6_3v3" else 204
    return next(i for i in range(dealt) if pred(i, p["deck"][i]))


def _move(src, dst):
    """Move a card from one place (a seat, or 'kitty') to another."""
    def f(p, s):
        take = p["kitty"] if src == "kitty" else p["hands"][src]
        (p["kitty"] if dst == "kitty" else p["hands"][dst]).append(take.pop(0))
    return f


def _top_passed(p, s):
    p["round"]["last"][s.top_seat] = "pass"


def _someone_played(p, s):
    p["round"]["last"][s.turn] = [p["played"][-1]]


def _flip_placed(p, s):
    x = s.placed[0]
    p["side_choosing"]["sides"][x] = 1 - s.side_of[x]


def _not_maker(p, s):
    p["round"]["top_seat"] = next(i for i in range(6) if i != s.top_seat and i != s.turn)


def _other_played(p, s):
    n = len(s.top_cards)
    p["round"]["top_cards"] = p["played"][-1 - n:-1] if len(p["played"]) > n else ["3s"]


def _shown_farmer(p, s):
    p["shown"] = sorted({*p["shown"], next(i for i in range(6) if i not in s.landlords)})


def _key(path, value):
    def f(p, s):
        d = p
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value(d[path[-1]]) if callable(value) else value
    return f


def _mark(which, pred):
    def f(p, s):
        p["marks"][which] = _first_pos(p, lambda i, face: pred(i, face, s))
    return f


WHERE = {
    "play": _mid_play, "lead": _lead,
    "double": lambda s: s.phase == "double" and len(s.doubles) == 2,
    "bid": lambda s: s.phase == "bid" and len(s.bids) >= 1,
    "bidplay": lambda s: _mid_play(s) and s.bid_winner >= 0 and s.bids.count(0) >= 1,
    "hiddenplay": lambda s: _mid_play(s) and len(s.hidden) == 2,
    "revealed": lambda s: _mid_play(s) and bool(s.revealed),
    "first": lambda s: s.phase == "play" and s.round_no == 1 and s.top is None,
    "placed": lambda s: _mid_play(s) and bool(s.placed),
    "duo": lambda s: _mid_play(s) and not s.solo,
}

# (variant, which position, the mutation, the field named): each changes one field of a real
# self-play position (or moves one card between two places).
MUTANTS = [
    # the pack in its places and the hands the deal gives (DDZ-4, DDZ-5, DDZ-7, DDZ-30)
    ("3v3", "double", _move(0, 1), "hands"),
    ("2v4", "bid", _move("kitty", 2), "kitty"),
    ("2v4", "play", _move(0, 1), "hands[1]"),
    ("zhengfan", "duo", _key(("shares",), lambda sh: sh[1:] + sh[:1]), "shares"),
    # the marks and their holders (DDZ-7, DDZ-8, DDZ-10, DDZ-19, DDZ-32)
    ("3v3", "play", _mark("open", lambda i, f, s: f in ("BJ", "RJ")), "marks.open"),
    ("3v3", "play", _mark("open", lambda i, f, s: i % 6 != s.om and f not in ("BJ", "RJ")),
     "marks.open"),
    ("2v4", "play", _mark("open", lambda i, f, s: i % 6 != s.om), "marks.open"),
    ("zhengfan", "duo", _mark("dark", lambda i, f, s: i % 6 not in (s.om, s.dm)),
     "marks.dark"),
    ("2v4", "play", _key(("marks", "dark"), None), "marks.dark"),
    # identities, sides and the records of choices (sections 5, 6, 7)
    ("3v3", "play", _key(("case",), lambda c: "B2" if c != "B2" else "A"), "case"),
    ("3v3", "hiddenplay", _key(("hidden",), lambda h: h[:1]), "hidden"),
    ("2v4", "duo", _key(("landlords",), lambda x: x[::-1]), "landlords"),
    ("zhengfan", "duo", _key(("landlords",), lambda x: x[::-1]), "landlords"),
    ("2v4", "duo", _key(("solo",), True), "solo"),
    ("3v3", "bidplay", _key(("bidding", "bids"), lambda b: [3, *b[1:]]), "bidding.bids"),
    ("2v4", "play", _key(("bidding", "order"), lambda o: o[1:] + o[:1]), "bidding.order"),
    ("2v4", "bidplay", _key(("bidding", "winner"), lambda w: (w + 1) % 6), "bidding.winner"),
    ("zhengfan", "placed", _flip_placed, "side_choosing.sides"),
    ("zhengfan", "placed", _key(("side_choosing", "placed"), []), "side_choosing.placed"),
    ("zhengfan", "duo", _key(("side_choosing", "farmers"), lambda f: f[::-1]),
     "side_choosing.farmers"),
    ("zhengfan", "duo", _key(("side_choosing", "ended"), False), "side_choosing.ended"),
    ("3v3", "play", _key(("doubles",), lambda d: [*d, 1]), "doubles"),
    ("2v4", "play", _key(("shows",), lambda d: [*d, 0]), "shows"),
    ("2v4", "play", _shown_farmer, "shown"),
    ("3v3", "play", _key(("fixed",), False), "fixed"),
    ("2v4", "play", _key(("auto",), {"reason": "a", "seat": None, "side": 0}), "auto"),
    ("3v3", "play", _key(("S",), lambda x: x + 1), "S"),
    # N and its parts (DDZ-81, DDZ-83, DDZ-86)
    ("2v4", "play", _key(("N",), lambda x: x + 1), "N"),
    ("3v3", "play", _key(("bomb_increments",), lambda b: [*b, 2]), "bomb_increments"),
    ("zhengfan", "duo", _key(("bomb_increments",), lambda b: [*b, 1]), "N"),
    # the round: top play and its seat, passes, the seat to act, each seat's act (section 9)
    ("3v3", "play", _not_maker, "round.top_seat"),
    ("2v4", "play", _other_played, "round.top_cards"),
    ("zhengfan", "play", _key(("round", "turn"), lambda x: (x + 1) % 6), "round.turn"),
    ("3v3", "play", _key(("round", "passes"), lambda x: x + 1), "round.passes"),
    ("2v4", "play", _top_passed, "round.last"),
    ("zhengfan", "lead", _someone_played, "round.last"),
    ("3v3", "lead", _key(("round", "leader"), lambda x: (x + 1) % 6), "round.turn"),
    ("2v4", "first", _key(("round", "leader"), lambda x: (x + 1) % 6), "round.leader"),
    ("zhengfan", "play", _key(("round", "number"), 10 ** 5), "round.number"),
    # reveals, the lock, the end (DDZ-26, DDZ-70, DDZ-76, DDZ-92)
    ("3v3", "revealed", _key(("revealed",), []), "revealed"),
    ("2v4", "play", _key(("locked",), "RJ"), "locked"),
    ("3v3", "play", _key(("end", "out_seat"), 0), "end.out_seat"),
    ("zhengfan", "play", _key(("owed",), ["REVEAL"]), "owed"),
    ("2v4", "play", _key(("seq",), lambda x: x - 60), "seq"),
    ("3v3", "double", _key(("seq",), lambda x: x + 1), "seq"),
    ("2v4", "play", _key(("phase",), "show"), "phase"),
]


@pytest.mark.parametrize(("v", "where", "mutation", "field"), MUTANTS,
                         ids=[f"{m[0]}-{m[3]}-{i}" for i, m in enumerate(MUTANTS)])
def test_a_position_mutated_in_one_field_is_refused_naming_it(played, v, where, mutation,
                                                               field):
    g = VARIANTS[v]
    s = next((s for s in played[v] if WHERE[where](s)), None)
    assert s is not None, f"no {v} state of kind {where}"
    p = json.loads(json.dumps(g.to_position(s)))
    assert g.from_position(copy.deepcopy(p)) == s
    mutation(p, s)
    with pytest.raises(PositionError) as exc:
        g.from_position(p)
    assert exc.value.field == field or exc.value.field.startswith(field + "["), str(exc.value)
    assert str(exc.value).startswith("position field ") and "\n" not in str(exc.value)


def test_a_scenario_skips_only_the_pack_and_reachability(played):
    g = VARIANTS["2v4"]
    s = next(s for s in played["2v4"] if _mid_play(s))
    p = g.to_position(s)
    p["hands"][0] = p["hands"][0][:3]                  # a hand-built position: a few cards
    with pytest.raises(PositionError):
        g.from_position(copy.deepcopy(p))
    assert g.from_position(copy.deepcopy(p), scenario=True).hands[0] == s.hands[0][:3]
    p["round"]["top_cards"] = ["3s", "4h"]             # still read: no combination
    with pytest.raises(PositionError) as exc:
        g.from_position(p, scenario=True)
    assert exc.value.field == "round.top_cards"


def test_render_shows_the_table_as_a_seat_saw_it(finals):
    events, final = finals["3v3"]
    g = VARIANTS["3v3"]
    s = g.initial_state(events[0])
    for e in events[1:10]:
        g.step(s, e)
    text = g.render(s, 2)
    assert "view: seat 2" in text and "cards (hidden)" in text
    assert "settlement:" in g.render(final)
