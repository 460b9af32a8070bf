"""Information and positions (KENG-50, KENG-51), a perft regression count and seeded self-play
invariants for 六人坑."""

from __future__ import annotations

import functools
import json
import random
from collections import Counter

import pytest

from engine.cards import format_faces, parse_faces
from engine.errors import InvalidEvent
from engine.games import keng
from engine.games.codec import PositionError
from engine.games.keng import position
from engine.games.keng.cards import deck
from engine.sim import simulate

from .conftest import kinds, pos, run, settle, started

strict = position.from_position          # what `liujia check` loads a position with


@pytest.fixture(autouse=True)
def _hand_built_positions_are_scenarios(monkeypatch):
    """The rule-test helper ``pos`` (conftest) builds hand-built positions no game reaches
    (24-card hands and stocks): it loads them as scenarios. Positions a game wrote are loaded
    with ``strict`` here."""
    monkeypatch.setattr(keng, "from_position",
                        functools.partial(position.from_position, scenario=True))

# ---------------------------------------------------------------- KENG-50 views


def test_keng_50_view_hides_other_hands_and_the_stock():
    """KENG-50: View hides other hands and the stock."""
    sim = next(simulate("keng", 1, 21))
    s = keng.initial_state(sim.events[0])
    for e in sim.events[1:40]:
        s = keng.apply(s, e)
    full = keng.view(s, None)
    assert full["perspective"] == "auditor"
    assert full["hands"] == [format_faces(h).split() for h in s.hands]
    assert full["stock"] == format_faces(s.stock).split()
    for seat in range(6):
        v = keng.view(s, seat)
        assert v["perspective"] == seat
        assert v["hands"][seat] == full["hands"][seat]
        assert v["hands"] == [full["hands"][i] if i == seat else len(s.hands[i])
                              for i in range(6)]
        assert v["stock"] == len(s.stock) and v["deck"] == len(s.deck)
        for public in ("top", "table", "pending_draw", "direction", "cycle", "to_act",
                       "snatch_window_open", "count_used", "options", "duel"):
            assert v[public] == full[public], public


def _differ_in_hidden_cards(hands_a, hands_b, **kw):
    return pos(hands_a, **kw), pos(hands_b, **kw)


def test_keng_50_a_view_depends_only_on_public_facts_and_the_own_hand():
    """KENG-50: A view depends only on public facts and the own hand."""
    a, b = _differ_in_hidden_cards({3: "7h 4s 6s"}, {3: "8h 4s 6s"}, top="7h", cycle=2)
    for seat in (0, 1, 2, 4, 5):
        assert keng.view(a, seat) == keng.view(b, seat)
    assert keng.view(a, 3) != keng.view(b, 3)


def test_keng_50_view_does_not_reveal_a_banned_seats_card_through_the_ban_flags():
    """KENG-50: View does not reveal a banned seat's card through the ban flags."""
    ban = [False, False, False, True, False, False]
    views = []
    for hidden in ("7h 4s 6s", "8h 4s 6s"):
        s = pos({0: "7h 2c 3c", 3: hidden}, top="5h", to_act=0, cycle=2, window=False,
                banned=ban)
        s = keng.apply(s, keng.turn_actions(s)[0])      # seat 0 plays 7h
        views.append(keng.view(s, 1))
    assert views[0] == views[1]


# ---------------------------------------------------------------- KENG-51 positions

def _round_trip(s, scenario=False):
    return position.from_position(json.loads(json.dumps(keng.to_position(s))),
                                  scenario=scenario)


@pytest.mark.parametrize(("seed", "policy"), [(31, "random"), (32, "greedy"), (33, "random")])
def test_keng_51_position_round_trips_and_play_continues_identically(seed, policy):
    """KENG-51: Position round trips and play continues identically."""
    sim = next(simulate("keng", 1, seed, policy_name=policy))
    s = keng.initial_state(sim.events[0])
    for e in sim.events[1:]:
        r = _round_trip(s)
        assert r == s
        assert keng.to_position(r) == keng.to_position(s)
        s = keng.apply(s, e)
        assert keng.apply(r, e) == s
    assert s == sim.final and s.is_over
    assert _round_trip(s) == s


def test_keng_51_position_round_trip_mid_duel_and_owed_draw():
    """KENG-51: Position round trip mid duel and owed draw."""
    d = pos({0: "Ah 2c 3c", 3: "5h 9d 2d"}, top="5h", cycle=2)
    d, _ = settle(run(d, keng.turn_actions(d)[0]))
    assert d.duel is not None and _round_trip(d, True) == d
    o = pos({0: "2c"}, top="Kh", pending=2, stock="2s", table="3h 4h")
    o = run(o, keng.turn_actions(o)[-1])                       # ACCEPT, split by a reshuffle
    assert o.owed == (0, "ACCEPT", 1) and o.reshuffle_due and _round_trip(o, True) == o
    o2 = keng.apply(o, keng.auto_event(o, random.Random(0)))
    assert o2.owed == (0, "ACCEPT", 1) and not o2.reshuffle_due
    assert _round_trip(o2, True) == o2
    with pytest.raises(PositionError, match="pack"):       # 24-card hands: not a real game
        _round_trip(o2)


@pytest.mark.parametrize("field", ["hands", "stock", "top", "duel", "banned", "owed_draw"])
def test_keng_51_position_lacking_a_field_is_rejected(field):
    """KENG-51: Position lacking a field is rejected."""
    p = keng.to_position(pos())
    del p[field]
    with pytest.raises(InvalidEvent) as info:
        strict(p)
    assert info.value.field == field


# ---------------------------------------------------------------- perft

def perft(s, depth: int) -> int:
    """Number of legal action sequences of this length (every listed legal action)."""
    if depth == 0:
        return 1
    return sum(perft(keng.apply(s, a), depth - 1) for a in keng.legal_actions(s))


def turn_perft(s, depth: int) -> int:
    """The same over turn actions only (the owed automatic event when there is one)."""
    if depth == 0:
        return 1
    actions = keng.legal_actions(s) if keng.next_auto(s) else keng.turn_actions(s)
    return sum(turn_perft(keng.apply(s, a), depth - 1) for a in actions)


def _perft_root():
    s = started(3)                                      # seed 3: opener 1, start card Qc
    s = keng.apply(s, keng.turn_actions(s)[0])
    s, done = settle(s)
    assert done == []
    return s


def test_perft_from_seeded_position():
    """Perft regression. Counts computed once with this file's perft()/turn_perft() on the
    position after the start card of the seed-3 game (and its cycle-2 twin); they change only
    if the legal actions change. The structural facts below justify them."""
    s = _perft_root()
    # the start card Qc skipped the opener (KENG-9): seat 2 acts against Qc
    assert (s.opener, s.top, s.to_act, s.pending) == (1, parse_faces("Qc"), 2, 0)
    root = keng.legal_actions(s)
    assert Counter(a.kind for a in root) == {"COUNT": 18, "PLAY": 2}
    assert sorted(format_faces(a.cards) for a in root if a.kind == "PLAY") == ["6c", "Qc"]
    # depth 2: after a count, 15 counts + 2 plays remain; after Qc seat 4 (seat 3 skipped)
    # has 2c, 2c 2c, 3c, 4c; after 6c seat 3 has 3c; every count right is still there.
    after_q = keng.apply(s, next(a for a in root if a.cards == parse_faces("Qc")))
    after_6 = keng.apply(s, next(a for a in root if a.cards == parse_faces("6c")))
    assert (after_q.to_act, after_6.to_act) == (4, 3)
    assert sorted(format_faces(a.cards) for a in keng.turn_actions(after_q)) == \
        ["2c", "2c 2c", "3c", "4c"]
    assert [format_faces(a.cards) for a in keng.turn_actions(after_6)] == ["3c"]
    assert perft(s, 1) == 20
    assert perft(s, 2) == 18 * 17 + (4 + 18) + (1 + 18) == 347
    assert perft(s, 3) == 5155
    assert [turn_perft(s, d) for d in (1, 2, 3, 4, 5)] == [2, 5, 25, 60, 111]
    # the same position in cycle 2 adds snatches: exactly one sequence to depth 3, seat 3
    # snatching seat 4's 3c (seat 2 Qc, seat 4 3c, seat 3 SNATCH 3c)
    p = keng.to_position(s)
    p["cycle"] = 2
    c2 = keng.from_position(p)
    assert perft(c2, 2) == 347
    assert perft(c2, 3) == 5156
    t = run(c2, _play_of(c2, "Qc"), lambda t: _play_of(t, "3c"))
    snatches = [(a.seat, a.cards) for a in keng.legal_actions(t) if a.kind == "SNATCH"]
    assert snatches == [(3, parse_faces("3c"))]


def _play_of(s, cards: str):
    return next(a for a in keng.turn_actions(s) if a.cards == parse_faces(cards))


# ---------------------------------------------------------------- self-play invariants

@pytest.mark.parametrize(("seed", "policy"), [(41, "random"), (42, "greedy")])
def test_selfplay_every_listed_action_is_legal_and_cards_are_conserved(seed, policy):
    sim = next(simulate("keng", 1, seed, policy_name=policy))
    s = keng.initial_state(sim.events[0])
    full = Counter(deck(s.options))
    for e in sim.events[1:]:
        acts = keng.legal_actions(s)
        assert acts, "legal actions exist until the game is over"
        for a in acts:
            if a.kind != "RESHUFFLE":
                keng.check(s, a)
        before = keng.to_position(s)
        nxt = keng.apply(s, e)
        assert keng.to_position(s) == before            # apply never mutates its input
        s = nxt
        if s.phase != "deal":
            held = Counter(s.stock) + Counter(s.table) + Counter(s.top)
            for h in s.hands:
                held += Counter(h)
            assert held == full
    assert s.is_over and keng.legal_actions(s) == []
    assert kinds(sim.events[-1:]) == ["GAME_END"]


def test_keng_50_cards_of_draws_are_private_plays_public(small_games):
    """KENG-50: every seat sees played cards; only the drawer sees drawn cards; nobody sees
    the deck order or a new stock order."""
    events = small_games[0]
    draw = next(e for e in events if e.kind in ("DRAW", "ACCEPT") and e.cards)
    playe = next(e for e in events if e.kind == "PLAY")
    start = events[0]
    for seat in range(6):
        assert keng.cards_visible(playe, seat)
        assert keng.cards_visible(draw, seat) == (seat == draw.seat)
        assert not keng.cards_visible(start, seat)
    assert keng.cards_visible(draw, None) and keng.cards_visible(start, None)


# ---------------------------------------------------------------- KENG-51 positions must be possible

@functools.cache
def _played(seed: int = 76) -> tuple:
    """Every state of a few seeded games."""
    out = []
    for sim in simulate("keng", 4, seed):
        s = keng.initial_state(sim.events[0])
        for e in sim.events[1:]:
            s = keng.apply(s, e)
            out.append(s)
    return tuple(out)


def _real(pick) -> dict:
    """The position JSON of the first played state for which pick(state) holds."""
    s = next(s for s in _played() if pick(s))
    return json.loads(json.dumps(keng.to_position(s)))


def _open_play(s):
    return (s.phase == "play" and s.duel is None and s.duel_due is None and not s.pending
            and s.turn_rule == "KENG-15" and not s.top_duel and not s.drawn and s.cycle >= 2
            and s.window and s.end_due is None and s.owed is None and not s.reshuffle_due
            and not any(s.banned) and s.report_seat < 0 and s.penalty_due is None
            and s.table and s.stock and all(s.hands))


def _cycle_one(s):
    return (s.phase == "play" and s.cycle == 1 and s.duel is None and not s.pending
            and s.turn_rule == "KENG-15" and not s.top_start and s.owed is None)


def _over_limit(p):
    seat = p["to_act"]
    while len(p["hands"][seat]) <= p["options"]["keng_hand_limit"]:
        p["hands"][seat].append(p["stock"].pop())


def _empty_hand(p):
    p["table"] += p["hands"][4]
    p["hands"][4] = []


def _no_top(p):
    p["table"] += p["top"]["cards"]
    p["top"]["cards"] = []


def _owed_without_stock(p):
    p["table"] += p["stock"]
    p["stock"] = []
    p["owed_draw"] = {"seat": 1, "kind": "DUEL_END", "cards": 2}


def _duel_not_opposite(p):
    seat = p["top"]["seat"]
    p["duel_start_due"] = {"challenger": seat, "defender": (seat + 1) % 6,
                           "next_seat": p["to_act"]}


BREAKS = {  # (base, field named) -> how a possible position is made impossible
    ("open", "hands[0]"): lambda p: p["hands"].__setitem__(0, ["Ah"] * 500),
    ("open", "hands[1]"): lambda p: p["hands"][1].extend(["RJ"] * 7),
    ("open", "stock"): lambda p: p["stock"].pop(),
    ("open", "deck"): lambda p: p["deck"].__setitem__(0, "RJ" if p["deck"][0] != "RJ" else "2s"),
    ("open", "pending_draw"): lambda p: p.update(pending_draw=10 ** 30),
    ("open", "top.cards"): _no_top,
    ("open", "top.suit"): lambda p: p["top"].update(suit="shcd"[("shcd".index(
        p["top"]["suit"]) + 1) % 4]) if p["top"]["cards"][0] not in ("BJ", "RJ") else
        p["top"].update(suit=None),
    ("open", "to_act"): lambda p: p.update(to_act=(p["to_act"] + 1) % 6),
    ("open", "turn_rule"): lambda p: p.update(turn_rule="KENG-99"),
    ("open", "ban_ends_with_window[2]"): lambda p: p["ban_ends_with_window"].__setitem__(2,
                                                                                         True),
    ("open", "ban_end_due"): lambda p: p.update(ban_end_due=[3]),
    ("open", "drew_cards"): lambda p: p.update(drew_cards=True),
    ("open", "reshuffle_due"): lambda p: p.update(reshuffle_due=True),
    ("open", "passes_in_a_row"): lambda p: p.update(passes_in_a_row=2),
    ("open", "result"): lambda p: p.update(result={"reason": "stalemate", "deciding_seat": None,
                                                   "winning_team": None, "final_hands": []}),
    ("open", "end_due"): lambda p: p.update(end_due={"reason": "out", "seat": 1, "team": 1}),
    ("open", "seq"): lambda p: p.update(seq=5),
    ("open", "players[0]"): lambda p: p["players"].__setitem__(0, "evil id\n"),
    ("open", "game_id"): lambda p: p.update(game_id=""),
    ("open", "options.keng_jokers"): lambda p: p["options"].update(keng_jokers=9),
    ("open", "result.a.a.a.a.a.a.a"): lambda p: p.update(result=functools.reduce(
        lambda v, _: {"a": v}, range(3000), 1)),
    ("open", "duel_start_due"): _duel_not_opposite,
    ("open", "owed_draw"): _owed_without_stock,
    ("open", "hands[3]"): _over_limit,
    ("open", "hands[4]"): _empty_hand,
    ("cycle1", "snatch_window_open"): lambda p: p.update(snatch_window_open=True),
    ("cycle1", "banned"): lambda p: p["banned"].__setitem__(1, True),
    ("cycle1", "accepted"): lambda p: p.update(accepted=True) if p["top"]["cards"][0][0] not in
        "KR" else p.update(accepted=True, pending_draw=2),
    ("start", "stock"): lambda p: p["stock"].reverse(),
    ("start", "to_act"): lambda p: p.update(to_act=(p["to_act"] + 1) % 6),
    ("start", "table"): lambda p: p["table"].append(p["stock"].pop()),
    ("deal", "seq"): lambda p: p.update(seq=p["seq"] + 1),
    ("deal", "hands[0]"): lambda p: (p["hands"][0].append(p["deck"][-1])),
    ("over", "result.final_hands"): lambda p: p["result"]["final_hands"].reverse(),
    ("over", "result"): lambda p: p.update(result=None),
}
BASES = {
    "open": _open_play,
    "cycle1": _cycle_one,
    "start": lambda s: s.phase == "start",
    "deal": lambda s: s.phase == "deal" and s.seq == 3,
    "over": lambda s: s.phase == "over" and s.result["reason"] == "out",
}


@pytest.mark.parametrize(("base", "field"), sorted(BREAKS))
def test_keng_51_an_impossible_position_is_refused_naming_the_field(base, field):
    """KENG-51 (issue 9): from_position refuses, with one line naming the field, anything no
    game can reach: cards not the pack, fields out of range, broken invariants."""
    p = _real(BASES[base])
    assert strict(json.loads(json.dumps(p))) is not None
    BREAKS[(base, field)](p)
    with pytest.raises(PositionError) as info:
        strict(p)
    assert info.value.field.startswith(field), info.value
    text = str(info.value)
    assert text.startswith("position field '") and "\n" not in text and "seq -1" not in text


def test_keng_51_hostile_findings_are_refused():
    """The hostile tester's 六人坑 positions: 500 Ah in a hand, 7 RJ in a 3-RJ deck, a pending
    draw of 10^30; and scenario loading does not lift the reading checks."""
    p = _real(_open_play)
    for change, field, says in (
            (lambda q: q["hands"].__setitem__(2, ["Ah"] * 500), "hands[2]", "500× Ah"),
            (lambda q: q["hands"][2].extend(["RJ"] * 7), "hands[2]", "× RJ"),
            (lambda q: q.update(pending_draw=10 ** 30), "pending_draw", "31 digits")):
        q = json.loads(json.dumps(p))
        change(q)
        with pytest.raises(PositionError) as info:
            strict(q)
        assert info.value.field == field and says in str(info.value)
    q = json.loads(json.dumps(p))
    q["pending_draw"] = 10 ** 30
    with pytest.raises(PositionError):
        position.from_position(q, scenario=True)


def test_keng_51_every_state_of_seeded_games_is_possible():
    """Positions a game wrote always load (the checks accept every reachable state)."""
    for s in _played():
        assert strict(json.loads(json.dumps(keng.to_position(s)))) == s
