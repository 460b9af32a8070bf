"""扑克六湖's worlds for review (engine/games/liuhu/sample.py): the pass follows the public
table; at the first decision every unseen face lands in every other hand and in the wall; no
card the seat saw (its hand, the pool, the melds) is ever hidden in a world, and the hand and
wall sizes are exact (LH-11, LH-12, LH-19); the wall is drawn again; the world's log replays
and shows the seat what it saw; a call lost to a higher one (LH-33, LH-69) leaves its cards in
the caller's hand; a pass says nothing (LH-30); the answers the seat did not see in the window
it is answering are the greedy policy's; around a 加杠 nobody robbed the worlds show the seat
its robbing window open until the replacement draw (LH-70)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

from engine.cards import parse_face
from engine.events import Event
from engine.games import find_game
from engine.games.liuhu import game as lg
from engine.games.liuhu import sample as ls
from engine.games.liuhu.bots import GreedyPolicy
from engine.games.liuhu.cards import pack
from engine.games.liuhu.info import event_hidden, seen_event, view
from engine.games.liuhu.options import LiuhuOptions
from engine.games.liuhu.state import LhState
from engine.review import decision_points
from engine.sim import simulate

GAME = "liuhu"


@cache
def _events(seed: int, policy: str) -> tuple[Event, ...]:
    """One seeded self-played hand (default options)."""
    return tuple(next(iter(simulate(GAME, 1, seed, policy_name=policy))).events)


def _points(seed: int, policy: str) -> Iterator[tuple[int, LhState, Event, tuple[Event, ...]]]:
    return decision_points(list(_events(seed, policy)), range(6))


def _point(seed: int, policy: str, seq: int):
    """The decision at seq."""
    return next(p for p in _points(seed, policy) if p[0] == seq)


def _visible(s: LhState, me: int) -> Counter[int]:
    """The cards the seat sees: its hand, the pool, every meld."""
    c = Counter(s.hands[me]) + Counter(card for _, card in s.pool)
    for row in s.melds:
        for m in row:
            c.update(m[1])
    return c


def _replay(log: list[Event]) -> Iterator[tuple[LhState, Event]]:
    """(state before, event) along a world's log."""
    s = lg.initial_state(log[0])
    for e in log[1:]:
        yield s, e
        s = lg.apply(s, e)


def test_the_pass_follows_the_public_table():
    """The slots' hands and wall pointers are the engine's (LH-11, LH-12, LH-24), and the
    seat's own slots hold its cards."""
    checked = 0
    for seed, policy in ((15, "greedy"), (1, "random")):
        for seq, s, e, seen in list(_points(seed, policy))[::7]:
            sl = ls._Slots(s.options, s.dealer, e.seat, random.Random(0))
            for x in seen[1:]:
                sl.see(x)
            assert (sl.front, sl.tail) == (s.front, s.tail), seq
            assert [len(h) for h in sl.hand] == [len(h) for h in s.hands], seq
            assert sorted(sl.face[x] for x in sl.hand[e.seat]) == list(s.hands[e.seat]), seq
            checked += 1
    assert checked > 30


def test_at_the_first_decision_every_unseen_face_can_be_anywhere_hidden():
    g = find_game(GAME)
    seq, s, e, seen = next(p for p in _points(4, "greedy") if p[2].seat != p[1].dealer)
    me = e.seat
    unseen = Counter(pack(4, 0)) - _visible(s, me)
    where: dict[int, set] = {c: set() for c in unseen}
    rng = random.Random(1)
    for _ in range(300):
        w = g.sample_world(s, me, rng, seen)
        assert w.hands[me] == s.hands[me]
        for k in range(6):
            for c in w.hands[k] if k != me else ():
                where[c].add(k)
        for c in w.wall[w.front:w.tail + 1]:
            where[c].add("wall")
    others = {k for k in range(6) if k != me} | {"wall"}
    assert where == {c: others for c in unseen}


def test_no_seen_card_is_hidden_and_the_sizes_are_exact():
    """Late in hands with melds and a long pool: in every world the hidden cards (other hands,
    the wall) are exactly the pack less what the seat sees, every hand and the wall have their
    sizes, and the wall still to draw is drawn again."""
    g = find_game(GAME)
    checked = 0
    for seed, policy in ((15, "greedy"), (21, "random")):
        pts = list(_points(seed, policy))
        for seq, s, e, seen in pts[len(pts) // 2::len(pts) // 6]:
            me = e.seat
            hidden = Counter(pack(4, 0)) - _visible(s, me)
            walls = set()
            for k in range(12):
                w = g.sample_world(s, me, random.Random(k), seen)
                got = Counter(w.wall[w.front:w.tail + 1])
                for x in range(6):
                    got.update(w.hands[x] if x != me else ())
                assert got == hidden, seq
                assert [len(h) for h in w.hands] == [len(h) for h in s.hands], seq
                assert w.wall_size() == s.wall_size() and w.melds == s.melds, seq
                assert w.pool == s.pool and sorted(w.ring) == sorted(s.ring), seq
                walls.add(w.wall[w.front:w.tail + 1])
            assert len(walls) == 12 or s.wall_size() < 10, seq
            checked += 1
    assert checked >= 6


def test_the_worlds_log_replays_and_shows_the_seat_what_it_saw():
    for seq, s, e, seen in list(_points(17, "greedy"))[::11]:
        w, log = ls.sample_log(s, e.seat, random.Random(seq), seen)
        end = lg.initial_state(log[0])
        for x in log[1:]:
            end = lg.apply(end, x)
        assert end == w
        shown = [seen_event(x, e.seat) for x in log if not event_hidden(x, e.seat)]
        assert [x[:8] for x in shown] == [x[:8] for x in seen], seq
        assert log[0].cards != _events(17, "greedy")[0].cards        # a new ring


def _lost_call_point():
    """Greedy hand 15: seat 1 called 吃 on 7s with Ts 2h at seq 121 and lost it to seat 5's 碰
    (the AWARD at seq 123 shows both calls); the next decision of seat 3."""
    events = _events(15, "greedy")
    award = events[123]
    assert award.kind == "AWARD" and '[1,"chi","Ts","2h"]' in award.payload
    return next(p for p in _points(15, "greedy") if p[0] > 123 and p[2].seat == 3)


def test_a_call_lost_to_a_higher_one_leaves_its_cards_in_the_callers_hand(monkeypatch):
    seq, s, e, seen = _lost_call_point()
    tries = []
    real = ls._world

    def counted(*a, **k):
        tries.append(1)
        return real(*a, **k)

    monkeypatch.setattr(ls, "_world", counted)
    for k in range(10):
        w, log = ls.sample_log(s, e.seat, random.Random(k), seen)
        before = next(st for st, x in _replay(log) if x.kind == "AWARD" and x.cards == (
            _events(15, "greedy")[123].cards))
        assert {parse_face("Ts"), parse_face("2h")} <= set(before.hands[1])
    assert len(tries) == 10                                      # bound, not found by luck
    monkeypatch.setattr(ls._Slots, "calls", lambda self, x: None)
    tries.clear()
    for k in range(2):
        ls.sample_log(s, e.seat, random.Random(k), seen)
    assert len(tries) > 10                     # unbound: mostly refused (~80 draws a world)


def test_a_pass_says_nothing():
    """LH-30: a seat that could have claimed and passed is a world like any other: in some
    worlds a seat other than the reviewer was eligible in a window that closed with nothing."""
    seq, s, e, seen = next(p for p in _points(8, "greedy") if p[0] > 150)
    passed = 0
    for k in range(20):
        _, log = ls.sample_log(s, e.seat, random.Random(k), seen)
        for st, x in _replay(log):
            if x.kind == "RESPOND" and x.seat != e.seat and x.tag == "pass":
                assert dict(st.eligible)[x.seat]                # it could have claimed
                passed += 1
    assert passed > 0


def test_the_answers_before_the_seat_in_its_window_are_the_greedy_policys():
    """Greedy hand 15, seq 122: seat 5 answers the window on 7s after seat 1, whose answer it
    does not see (LH-70): in each world the seats before it answer as greedy would there."""
    seq, s, e, seen = _point(15, "greedy", 122)
    assert e.kind == "RESPOND" and e.seat == 5
    answered = 0
    for k in range(30):
        w, log = ls.sample_log(s, 5, random.Random(k), seen)
        window = max(i for i, x in enumerate(log) if x.kind == "WINDOW")
        for st, x in list(_replay(log))[window:]:
            assert x.kind == "RESPOND" and x.seat != 5
            assert x == GreedyPolicy().choose(st, random.Random(0))
            answered += 1
        assert lg.to_move(w) == 5
    assert 0 < answered < 30            # seat 1 holds what makes a 吃 in some worlds only


def _passed_rob():
    """Greedy hand 1200 (min_hu 0, 吃 of any card, the 混子): seat 5 adds 2s to its 碰 (加杠)
    at seq 170 and seat 0 alone could rob it (LH-29) — it did; here it passes instead: the log
    to the WINDOW, then that pass, the empty AWARD and the replacement DRAW (LH-24)."""
    opts = LiuhuOptions(min_hu=0, chi_card="any", hunzi=1)
    events = list(next(iter(simulate(GAME, 1, 1200, policy_name="greedy", options=opts))).events)
    assert [(x.kind, x.seat, x.value) for x in events[170:173]] == [
        ("JIA_GANG", 5, -1), ("WINDOW", -1, 1), ("RESPOND", 0, -1)]
    log, s = events[:172], lg.initial_state(events[0])
    states = [s]
    for e in events[1:172]:
        s = lg.apply(s, e)
        states.append(s)
    for _ in range(3):
        e = lg.auto_event(s) or Event("RESPOND", 0, (), -1, -1, "pass", None, s.game_id, s.seq)
        s = lg.apply(s, e)
        log.append(e)
        states.append(s)
    assert [x.kind for x in log[-3:]] == ["RESPOND", "AWARD", "DRAW"] and s.phase == "turn"
    return log, states


def test_a_jia_gang_window_closed_with_no_hu_is_sampled_as_the_seat_saw_it_lh70():
    """Around a 加杠 that a seat could rob and did not (LH-29), each seat's worlds replay to
    its view, where the robbing window looks open until the replacement draw (LH-70): before
    it, worlds in which some seat could rob and passed and worlds in which nobody could are
    both kept (a pass says nothing, LH-30)."""
    log, states = _passed_rob()
    for i in range(170, 175):                         # after the JIA_GANG … after the DRAW
        s = states[i]
        for seat in range(6):
            seen = [seen_event(x, seat) for x in log[:i + 1] if not event_hidden(x, seat)]
            for k in range(3 if seat else 1):
                w, wlog = ls.sample_log(s, seat, random.Random(k), seen)
                assert view(w, seat) == view(s, seat), (i, seat)
                shown = [seen_event(x, seat) for x in wlog if not event_hidden(x, seat)]
                assert [x[:8] for x in shown] == [x[:8] for x in seen], (i, seat)
    robbable: Counter[bool] = Counter()
    seen = [seen_event(x, 3) for x in log[:174] if not event_hidden(x, 3)]
    for k in range(30):                               # seat 3, once the window has closed
        _, wlog = ls.sample_log(states[173], 3, random.Random(k), seen)
        window = next(x for x in reversed(wlog) if x.kind == "WINDOW")
        assert window.tag == "rob"                    # its eligible seats, if any
        robbable[window.value != 0] += 1
    assert states[173].phase == "tail" and set(robbable) == {True, False}, robbable
