"""六人坑's worlds for review (engine/games/keng/sample.py): the pass follows the public table
exactly; before any hidden draw every unseen card lands in every other hand and the stock;
after a reshuffle (KENG-43) the stock holds only the reshuffled cards; a seat that drew because
it could not play (KENG-11, KENG-13) held no playable card in any world, and with
``keng_draw_when_able`` on it may have; a duel's loser held no duel card (KENG-30); a card
shown in a 抢 claim is held (KENG-38); a ban ends where it did (KENG-39); the deck options
(KENG-3) hold in every world; and without the marks worlds are not found."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from engine.cards import BLACK_JOKER, RED_JOKER, TEN
from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game
from engine.games.keng import game as kg
from engine.games.keng import sample as ks
from engine.games.keng.cards import RANK, deck
from engine.games.keng.plays import duel_faces, plays
from engine.games.keng.state import KengState
from engine.review import decision_points
from engine.sim import simulate

GAME = "keng"



@cache
def _events(seed: int, policy: str, option_set: int = 0) -> tuple[Event, ...]:
    """One seeded self-played game (options: the conformance set)."""
    g = find_game(GAME)
    opts = g.Options(**g.CONFORMANCE["option_sets"][option_set])
    return tuple(next(iter(simulate(GAME, 1, seed, policy_name=policy, options=opts))).events)


def _points(seed: int, policy: str, option_set: int = 0
            ) -> Iterator[tuple[int, KengState, Event, tuple[Event, ...]]]:
    return decision_points(list(_events(seed, policy, option_set)), range(6))


def _point(seed: int, policy: str, after: int, seat_not: int = -1, option_set: int = 0):
    """The first decision point after seq ``after`` of a seat other than ``seat_not``."""
    return next(p for p in _points(seed, policy, option_set)
                if p[0] > after and p[2].seat != seat_not)


def _replay(log: list[Event]) -> Iterator[tuple[KengState, Event]]:
    """(state before, event) along a world's log."""
    s = kg.initial_state(log[0])
    for e in log[1:]:
        yield s, e
        s = kg.apply(s, e)


def test_the_pass_follows_the_public_table():
    """The pass tracks the top play, its suit, the table, the stock, hand sizes, direction,
    cycle and bans as the engine does: the marks it sets are computed on the right table."""
    checked = 0
    for seed, policy in ((26, "random"), (4, "greedy"), (9, "random")):
        for seq, s, e, seen in list(_points(seed, policy))[::9]:
            sl = ks._pass(s, e.seat, random.Random(0), seen)
            assert (sl.top, sl.top_suit, sl.direction, sl.cycle) == \
                (s.top, s.top_suit, s.direction, s.cycle), seq
            assert sorted(sl.table) == sorted(s.table), seq
            assert len(sl.stock) == len(s.stock), seq
            assert [len(h) for h in sl.hand] == [len(h) for h in s.hands], seq
            assert tuple(sl.banned) == s.banned, seq
            assert sorted(sl.face[x] for x in sl.hand[e.seat]) == list(s.hands[e.seat])
            checked += 1
    assert checked > 50


def test_before_any_hidden_draw_every_unseen_card_can_be_anywhere_hidden():
    g = find_game(GAME)
    seq, s, e, seen = next(p for p in _points(3, "greedy")
                           if not any(x.kind in ks.DRAWS for x in p[3]))
    me = e.seat
    unseen = Counter(deck(s.options)) - Counter(s.hands[me]) - Counter(s.top) - \
        Counter(s.table)
    where: dict[int, set] = {c: set() for c in unseen}
    rng = random.Random(1)
    for _ in range(300):
        w = g.sample_world(s, me, rng, seen)
        assert w.hands[me] == s.hands[me]
        for k in range(6):
            for c in w.hands[k] if k != me else ():
                where.setdefault(c, set()).add(k)
        for c in w.stock:
            where[c].add("stock")
    others = {k for k in range(6) if k != me} | {"stock"}
    assert {c: where[c] for c in unseen} == {c: others for c in unseen}


def test_after_a_reshuffle_the_stock_holds_only_the_reshuffled_cards():
    """KENG-43: the new stock is the table then (public); cards unseen before it stay in
    hands, and the reshuffled cards not drawn since are somewhere in the stock."""
    events = _events(9, "random")
    rs = next(x for x in events if x.kind == "RESHUFFLE")
    seq, s, e, seen = _point(9, "random", rs.seq + 12)
    assert s.cycle == 2
    pool = Counter(rs.cards)            # the auditor's view: the table that was reshuffled
    mine = Counter(c for x in seen if x.seq > rs.seq and x.kind in ks.DRAWS
                   and x.seat == e.seat for c in x.cards)
    outside = [c for c in set(deck(s.options)) if not pool[c]]
    orders = set()
    rng = random.Random(2)
    for _ in range(60):
        w, log = ks.sample_log(s, e.seat, rng, seen)
        wrs = next(x for x in log if x.kind == "RESHUFFLE")
        assert Counter(wrs.cards) == pool
        assert not Counter(w.stock) - (pool - mine)
        assert not any(c in w.stock for c in outside)
        orders.add(w.stock)
    assert len(orders) == 60                        # the order is drawn again, not copied


def _negative_evidence(log: list[Event], me: int, draw_when_able: bool) -> tuple[int, int]:
    """Along a world's log: (draws of other seats that had a legal play, draws checked);
    asserts every duel loser other than me had no legal duel card."""
    able = checked = 0
    for s, x in _replay(log):
        if x.seat == me or x.tag == "continued":
            continue
        if x.kind == "DRAW":
            checked += 1
            able += bool(plays(s, x.seat))
        elif x.kind == "DUEL_END":
            assert not duel_faces(s)
    if not draw_when_able:
        assert able == 0
    return able, checked


def test_a_seat_that_drew_when_unable_held_no_playable_card():
    """KENG-11/KENG-13 (``keng_draw_when_able`` off): in every world, each other seat that
    drew two held no card it could have played then; a duel's loser held no duel card."""
    seq, s, e, seen = _point(4, "greedy", 200)
    draws = sum(x.kind == "DRAW" and x.seat != e.seat for x in seen)
    assert draws >= 20
    rng = random.Random(3)
    for _ in range(10):
        _, log = ks.sample_log(s, e.seat, rng, seen)
        assert _negative_evidence(log, e.seat, False)[1] == draws


def test_without_the_marks_no_world_is_found(monkeypatch):
    """The marks are what make the worlds findable: the same decision without them fails."""
    seq, s, e, seen = _point(4, "greedy", 200)
    tries = []
    real = ks._world

    def counted(*a):
        tries.append(1)
        return real(*a)

    monkeypatch.setattr(ks, "_world", counted)
    for k in range(5):
        ks.sample_world(s, e.seat, random.Random(k), seen)
    assert len(tries) <= 25
    monkeypatch.setattr(ks, "TRIES", 60)
    monkeypatch.setattr(ks._Probe, "playable", lambda self, *a: 0)
    with pytest.raises(EngineError, match="no 六人坑 world"):
        ks.sample_world(s, e.seat, random.Random(0), seen)


def test_with_draw_when_able_on_a_drawer_may_have_held_a_play():
    """KENG-13 on: drawing says nothing, so some worlds give a drawer a playable card."""
    seq, s, e, seen = _point(4, "random", 150, option_set=1)
    assert s.options.keng_draw_when_able
    rng = random.Random(4)
    able = sum(_negative_evidence(ks.sample_log(s, e.seat, rng, seen)[1], e.seat, True)[0]
               for _ in range(10))
    assert able > 0


def test_a_card_shown_in_a_claim_is_held():
    """KENG-34/38: a void claim shows a card the claimant holds; it stays in its hand."""
    claim = next(x for x in _events(6, "random") if x.kind == "SNATCH" and x.cards)
    seq, s, e, seen = _point(6, "random", claim.seq, seat_not=claim.seat)
    assert not any(x.seq > claim.seq and x.seat == claim.seat and claim.cards[0] in x.cards
                   for x in seen)
    rng = random.Random(5)
    for _ in range(30):
        w = ks.sample_world(s, e.seat, rng, seen)
        assert claim.cards[0] in w.hands[claim.seat]


def test_a_ban_ends_where_it_did(monkeypatch):
    """KENG-39: a banned seat's BAN_END says it held the card of the window that ended the
    ban (and not of the windows before it); every world has it end at the same event, and
    the pass binds it (by rejection alone about five times as many draws are refused)."""
    events = _events(26, "random")
    end = next(x for x in events if x.kind == "BAN_END")
    seq, s, e, seen = _point(26, "random", end.seq, seat_not=end.seat)
    tries = []
    real = ks._world

    def counted(*a):
        tries.append(1)
        return real(*a)

    monkeypatch.setattr(ks, "_world", counted)
    for k in range(20):
        _, log = ks.sample_log(s, e.seat, random.Random(k), seen)
        assert [(x.seq, x.seat) for x in log if x.kind == "BAN_END"] == [(end.seq, end.seat)]
    assert len(tries) <= 80                         # 43 with the binding, 205 without


def test_the_deck_options_hold_in_every_world():
    """KENG-3 with no tens and six jokers of each colour: every world has that deck, and a
    face with many copies lands in several hands."""
    g = find_game(GAME)
    opts = g.Options(**g.CONFORMANCE["option_sets"][1])
    full = Counter(deck(opts))
    assert full[BLACK_JOKER] == full[RED_JOKER] == 6 and not any(RANK[c] == TEN for c in full if c < 52)
    rj_seats: set[int] = set()
    for seq, s, e, seen in list(_points(5, "random", 1))[::12]:
        rng = random.Random(seq)
        for _ in range(3):
            w = g.sample_world(s, e.seat, rng, seen)
            assert g.face_counts(w) == full
            rj_seats.update(k for k in range(6) if k != e.seat and RED_JOKER in w.hands[k])
    assert len(rj_seats) >= 4


def test_a_slot_no_face_can_fill_takes_an_earlier_play_of_its_seat(monkeypatch):
    """A long game (a strength match's deal, seat 3 at seq 303, KENG-11/KENG-13 marks from
    eleven draws of seat 4): the pass had bound seat 4's later plays to its newer slots, so a
    slot it drew at event 108 was left marked against every face. ``fill`` now lets that slot
    be the card of a later play of the seat (``reroute``), or takes a face from the marked
    slots filled before it (``free_up``); before, the world of the review's seed 1, world 15
    was refused 400 times."""
    from pathlib import Path

    from engine.jsonl_reader import read_any
    log = read_any(Path(__file__).parent / "data" / "reroute-seat3-seq303.jsonl")
    events = list(log.games[0].events)
    g, seat = find_game(GAME), 3
    s, seen = g.initial_state(events[0]), [g.seen_event(events[0], seat)]
    for e in events[1:]:
        g.step(s, e)
        if not g.event_hidden(e, seat):
            seen.append(g.seen_event(e, seat))
    assert s.seq == 303
    real, moved = ks._Slots.reroute, []

    def counted(self, slot, rerouted):
        got = real(self, slot, rerouted)
        moved.append(got)
        return got

    monkeypatch.setattr(ks._Slots, "reroute", counted)
    for w in (15, 0, 1):
        world = ks.sample_world(s, seat, random.Random(f"1:303:world:{w}"), tuple(seen))
        assert g.view(world, seat) == g.view(s, seat)
    assert any(x is not None for x in moved)
    monkeypatch.setattr(ks._Slots, "reroute", lambda self, slot, rerouted: None)   # the pass before:
    monkeypatch.setattr(ks._Slots, "free_up", lambda self, slot, filled: False)  # no mending
    with pytest.raises(EngineError, match="no 六人坑 world consistent with seat 3's view"):
        ks.sample_world(s, seat, random.Random("1:303:world:15"), tuple(seen))
