"""Information and positions (KENG-50, KENG-51), a perft regression count and seeded self-play
invariants for 六人坑."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import format_faces, parse_faces
from engine.errors import InvalidEvent
from engine.games import keng
from engine.games.keng.cards import deck
from engine.sim import simulate

from .conftest import kinds, pos, run, settle, started

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

def _round_trip(s):
    return keng.from_position(json.loads(json.dumps(keng.to_position(s))))


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
    assert d.duel is not None and _round_trip(d) == d
    o = pos({0: "2c"}, top="Kh", pending=2, stock="2s", table="3h 4h")
    o = run(o, keng.turn_actions(o)[-1])                       # ACCEPT, split by a reshuffle
    assert o.owed == (0, "ACCEPT", 1) and o.reshuffle_due and _round_trip(o) == o
    o2 = keng.apply(o, keng.auto_event(o, random.Random(0)))
    assert o2.owed == (0, "ACCEPT", 1) and not o2.reshuffle_due and _round_trip(o2) == o2


@pytest.mark.parametrize("field", ["hands", "stock", "top", "duel", "banned", "owed_draw"])
def test_keng_51_position_lacking_a_field_is_rejected(field):
    """KENG-51: Position lacking a field is rejected."""
    p = keng.to_position(pos())
    del p[field]
    with pytest.raises(InvalidEvent) as info:
        keng.from_position(p)
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
