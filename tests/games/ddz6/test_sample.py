"""六人斗地主's worlds for review (engine/games/ddz6/sample.py): every world keeps what the seat
saw (its hand and kitty share, the cards played, hand sizes, shown hands, the unseen faces as
a whole, DDZ-91); before the kitty is taken every unseen face lands in every other hand and
the kitty (DDZ-5); the 三打三 hidden landlords are drawn among the seats that may be one — never
M, P, a bidder (DDZ-16) or a seat the seat knows, always the revealed ones (DDZ-26) and the
seat itself when it holds a lone F card — with the F cards where the case puts them (DDZ-24);
the 二打四 dark mark is anywhere until LANDLORDS names DM (DDZ-12, DDZ-28) and with DM after;
the 正反 farmers' sides follow DDZ-35 and what the seat saw of them (DDZ-36); each world's log
replays to it and shows the seat the events it saw."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest

from engine.cards import RED_JOKER
from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game
from engine.games.ddz6 import VARIANTS
from engine.games.ddz6 import game as dg
from engine.games.ddz6 import sample as ds
from engine.games.ddz6.combos import classify
from engine.games.ddz6.info import seen_event
from engine.games.ddz6.play import play_event
from engine.games.ddz6.setup import deal_event
from engine.games.ddz6.state import CASE_A, CASE_B1, DdzState
from engine.review import decision_points
from engine.sim import simulate

from .reference import faces
from .test_game_support import PLAYERS, arrange

Point = tuple[int, DdzState, Event, tuple[Event, ...]]


@cache
def _games(variant: str) -> tuple[tuple[Event, ...], ...]:
    """Twelve seeded greedy hands of a variant (default options)."""
    gid = f"ddz6_{variant}"
    return tuple(tuple(sim.events) for sim in simulate(gid, 12, 5, policy_name="greedy"))


def _points(variant: str, game: int) -> Iterator[Point]:
    return decision_points(list(_games(variant)[game]), range(6))


def _worlds(p: Point, n: int, first: int = 0) -> list[DdzState]:
    _, s, e, seen = p
    return [ds.sample_world(s, e.seat, random.Random(k), seen) for k in range(first, first + n)]


def _refused(p: Point, n: int) -> int:
    """How many draws the engine's replay refused while n worlds were sampled at p."""
    tries = 0
    real = ds._world

    def counted(*args, **kw):
        nonlocal tries
        tries += 1
        return real(*args, **kw)

    ds._world = counted
    try:
        _worlds(p, n)
    finally:
        ds._world = real
    return tries - n


def _unseen(s: DdzState, me: int) -> Counter[int]:
    """The faces the seat cannot see: the other seats' hands not shown, and the kitty."""
    c = Counter(s.kitty)
    for x, h in enumerate(s.hands):
        if x != me and x not in s.shown:
            c.update(h)
    return c


def _f_held(s: DdzState, seat: int) -> int:
    """The F cards the seat was dealt (in hand or played)."""
    dealt = s.deck[seat:len(s.deck):6]
    return dealt.count(s.mark_face)


@pytest.mark.parametrize("variant", ["3v3", "2v4", "zhengfan"])
def test_every_world_keeps_what_the_seat_saw(variant):
    """DDZ-91: the seat's hand and kitty share, the cards played, every hand size, the shown
    hands (DDZ-38) and the unseen faces as a whole are those of the state; no played card is
    in a hidden hand (the face counts are conserved)."""
    checked = 0
    for game in range(0, 12, 3):
        for seq, s, e, seen in list(_points(variant, game))[::17]:
            me = e.seat
            for w in _worlds((seq, s, e, seen), 3):
                assert w.hands[me] == s.hands[me] and w.shares[me] == s.shares[me], seq
                assert w.played == s.played and w.mult == s.mult, seq
                assert [len(h) for h in w.hands] == [len(h) for h in s.hands], seq
                assert [len(k) for k in w.shares] == [len(k) for k in s.shares], seq
                assert len(w.kitty) == len(s.kitty), seq
                assert all(w.hands[x] == s.hands[x] for x in s.shown), seq
                assert _unseen(w, me) == _unseen(s, me), seq
                assert (w.om, w.mark_pos, w.mark_face) == (s.om, s.mark_pos, s.mark_face)
                checked += 1
    assert checked > 60


def _places(w: DdzState, me: int) -> Iterator[tuple[int, int]]:
    """(face, place) of every card the seat cannot see: place a seat, or 6 the kitty."""
    for x, h in enumerate(w.hands):
        if x != me:
            yield from ((c, x) for c in h)
    yield from ((c, 6) for c in w.kitty)


def test_before_the_kitty_every_unseen_face_lands_in_every_other_hand_and_the_kitty():
    """二打四 at its first bid: nothing is known but the seat's hand and the open mark, so each
    unseen face lands in each of the five other hands and in the kitty (DDZ-5)."""
    p = next(_points("2v4", 0))
    _, s, e, _ = p
    assert s.phase == "bid" and len(s.kitty) == 12
    seen_at: dict[int, set[int]] = {}
    for w in _worlds(p, 150):
        for c, place in _places(w, e.seat):
            seen_at.setdefault(c, set()).add(place)
    assert set(seen_at) == set(_unseen(s, e.seat))
    assert all(places == {0, 1, 2, 3, 4, 5, 6} - {e.seat} for places in seen_at.values())


def test_after_the_deal_every_unseen_face_lands_in_every_other_hand():
    """三打三 at its first decision (case B2: nobody hidden): every unseen face but F lands in
    each of the five other hands; F only with M and P (DDZ-24)."""
    p = next(_points("3v3", 0))
    _, s, e, _ = p
    assert s.case == "B2"
    seen_at: dict[int, set[int]] = {}
    for w in _worlds(p, 80):
        for c, place in _places(w, e.seat):
            seen_at.setdefault(c, set()).add(place)
    others = set(range(6)) - {e.seat}
    for c, places in seen_at.items():
        assert places == (others & {s.om, s.p_seat} if c == s.mark_face else others), c


def _case_a_points(me_hidden: bool, revealed: int) -> Iterator[Point]:
    """Decision points of case-A hands (三打三 games 3, 6, 7, 9, 11) of a seat that is (or is
    not) a hidden landlord, with this many hidden landlords revealed."""
    for game in (3, 6, 7, 9, 11):
        for p in _points("3v3", game):
            s, me = p[1], p[2].seat
            if s.case == CASE_A and me != s.om and (me in s.hidden) == me_hidden \
                    and len(s.revealed) == revealed:
                yield p


@pytest.mark.parametrize("me_hidden, revealed", [(False, 0), (True, 0), (False, 1)])
def test_case_a_hidden_landlords_are_drawn_among_the_seats_that_may_be_one(me_hidden, revealed):
    """DDZ-24 … DDZ-27, case A: M holds one F, two hidden landlords one each, nobody else any.
    The seat is one of them exactly when it is; a revealed one is one in every world; the
    others are drawn, over the worlds, among every seat that may be one."""
    points = list(_case_a_points(me_hidden, revealed))
    assert points
    seq, s, e, seen = points[len(points) // 2]
    me = e.seat
    drawn: set[tuple[int, ...]] = set()
    for w in _worlds((seq, s, e, seen), 60):
        assert w.case == CASE_A and (me in w.hidden) == me_hidden
        assert set(s.revealed) <= set(w.hidden) and s.om not in w.hidden
        for x in range(6):
            want = 1 if x == s.om or x in w.hidden else 0
            assert _f_held(w, x) == want, (seq, x)
        drawn.add(tuple(sorted(w.hidden)))
    known = {me} if me_hidden else set(s.revealed)
    free = [x for x in range(6) if x not in (s.om, me) and x not in known]
    want = {tuple(sorted(known | set(pick))) for pick in combinations(free, 2 - len(known))}
    assert drawn == want
    assert _refused((seq, s, e, seen), 20) == 0


def test_case_b1_a_bidder_is_never_the_hidden_landlord():
    """DDZ-16: in case B1 the hidden landlord cannot bid (his turn is a recorded pass that
    looks like any pass): a seat that bid is never he, every other seat but M and the seat
    itself may be, and the world's log holds his forced pass where his turn came."""
    points = [p for p in _points("3v3", 4) if p[1].phase == "play" and p[2].seat == 2]
    seq, s, e, seen = points[0]
    assert s.case == CASE_B1 and s.bids == (1, 0, 0, 2, 0) and not s.revealed
    bidders = {x for x, b in zip(s.bid_order, s.bids, strict=False) if b}
    drawn = set()
    for k in range(40):
        w, log = ds.sample_log(s, e.seat, random.Random(k), seen)
        (h,) = w.hidden
        assert h not in bidders and h not in (s.om, e.seat)
        forced = [x.seat for x in log if x.kind == "BID" and x.tag == "forced"]
        assert forced == [h]
        drawn.add(h)
    assert drawn == set(range(6)) - bidders - {s.om, e.seat}
    assert _refused(points[0], 20) == 0          # drawn so, not found by the replay


def test_a_hidden_landlord_is_drawn_by_his_free_positions():
    """The hidden landlord's chance is proportional to the positions he holds that the seat
    cannot see (the deals that put the F card there): a seat with more unseen cards is
    likelier."""
    p = next(p for p in _points("3v3", 8) if p[1].phase == "play" and p[1].round_no > 3
             and p[2].seat not in p[1].hidden)
    _, s, e, seen = p
    ps = ds.seen_pass("3v3", e.seat, seen)
    cands = ds.hidden_candidates(ps)
    free = {x: len(s.hands[x]) for x in cands}
    assert len(set(free.values())) > 1
    rng = random.Random(0)
    n = 6000
    got = Counter(ds.draw_hidden(ps, rng)[0] for _ in range(n))
    total = sum(free.values())
    for x in cands:
        assert abs(got[x] / n - free[x] / total) < 0.03, (x, got, free)


def test_dark_mark_is_anywhere_until_landlords_then_with_dm():
    """DDZ-12: before the first landlord is fixed nobody knows the dark mark, its holder
    included: it lies in every seat's hand over the worlds, the seat's own too. DDZ-28: once
    LANDLORDS names DM, every world's dark mark is one of DM's cards."""
    points = list(_points("2v4", 0))
    bid = points[0]
    dms = set()
    for w in _worlds(bid, 60):
        assert w.dark_pos != w.mark_pos and 0 <= w.dark_pos < 204
        dms.add(w.dm)
    assert dms == set(range(6))
    later = next(p for p in points if p[1].landlords)
    s = later[1]
    positions = set()
    for w in _worlds(later, 30):
        assert w.dm == s.dm and w.dark_pos % 6 == s.dm and w.dark_pos != w.mark_pos
        positions.add(w.dark_pos)
    assert len(positions) > 5


def _zf_point(game: int, seat: int) -> Point:
    """The first play decision of this seat in 正反 game ``game``."""
    return next(p for p in _points("zhengfan", game) if p[1].phase == "play"
                and p[2].seat == seat)


def _farmer_sides(w: DdzState) -> tuple[int, ...]:
    return tuple(w.side_of[x] for x in w.farmer_order)


def test_a_farmer_knows_only_his_own_side():
    """DDZ-36: a farmer who chose first keeps his side in every world; the other farmers'
    sides are drawn among the ways DDZ-35 can go, each landlord with two farmers."""
    s = _zf_point(1, 2)[1]                       # farmers (2, 3, 4, 5): seat 2 chose first
    assert s.farmer_order[0] == 2 and 2 not in s.placed
    ways = set()
    for w in _worlds(_zf_point(1, 2), 60):
        assert w.side_of[2] == s.side_of[2]
        assert sorted(_farmer_sides(w)) == [0, 0, 1, 1]
        ways.add(_farmer_sides(w))
    assert len(ways) == 3                        # seat 2's side fixed: three ways remain
    assert _refused(_zf_point(1, 2), 20) == 0


def test_a_placed_third_farmer_knows_the_first_two_chose_the_other_side():
    """DDZ-35, DDZ-36: F3 placed means F1 and F2 chose the same side, the other one."""
    p = _zf_point(0, 2)                          # farmers (5, 0, 2, 3): seat 2 placed
    s = p[1]
    assert s.farmer_order[2] == 2 and 2 in s.placed
    for w in _worlds(p, 20):
        f1, f2, f3, f4 = _farmer_sides(w)
        assert f1 == f2 == 1 - s.side_of[2] and f3 == f4 == s.side_of[2]
    assert _refused(p, 20) == 0


def test_a_third_farmer_asked_to_choose_knows_the_first_two_differ():
    """DDZ-36: F3 asked to choose knows F1 and F2 chose different sides."""
    p = _zf_point(1, 4)                          # farmers (2, 3, 4, 5): seat 4 chose
    s = p[1]
    assert s.farmer_order[2] == 4 and 4 not in s.placed
    firsts = set()
    for w in _worlds(p, 30):
        f1, f2, f3, _ = _farmer_sides(w)
        assert f1 != f2 and f3 == s.side_of[4]
        firsts.add((f1, f2))
    assert firsts == {(0, 1), (1, 0)}
    assert _refused(p, 20) == 0


def test_a_landlord_sees_every_side_once_choosing_ends():
    """DDZ-36: both landlords see every farmer's side at SIDES_END: no world differs."""
    p = _zf_point(1, 1)                          # landlords (1, 0)
    s = p[1]
    for w in _worlds(p, 10):
        assert w.side_of == s.side_of and w.placed == s.placed
    assert _refused(p, 10) == 0


def _lock_hand() -> list[Event]:
    """A 二打四 hand whose big landlord, seat 0, leads a 七星聚 (BJ×4 + RJ×3, DDZ-69) and the
    eighth joker is locked where it lies (DDZ-70); then greedy play to the end."""
    g = VARIANTS["2v4"]
    e0 = g.start_event("lock", PLAYERS, random.Random(0), g.Options(no_bomb_autowin="off"))
    s = g.initial_state(e0._replace(cards=arrange("2v4", {0: "BBBBRRR33"}, seed=6)))
    events = [e0._replace(cards=s.deck)]
    acts = [Event("BID", 0, value=3), Event("SHOW_HAND", 0, value=0),
            Event("SHOW_HAND", 3, value=0), "BBBBRRR"]
    policy, rng = g.POLICIES["greedy"](), random.Random(1)
    while not g.is_over(s):
        if s.owed:
            e = deal_event(s, 0, 3) if s.owed[0] == "DEAL" else g.auto_event(s)   # OM 0, DM 3
        elif acts:
            a = acts.pop(0)
            e = a if isinstance(a, Event) else play_event(
                s, 0, faces(a), classify(faces(a), "2v4", s.options))
        else:
            e = policy.choose(s, rng)
        e = e._replace(game_id=s.game_id, seq=s.seq)
        g.step(s, e)
        events.append(e)
    return events


def test_the_locked_joker_stays_with_the_seat_lock_named():
    """DDZ-70: LOCK names the seat holding the eighth joker; in every world he holds it, and
    no draw is refused for it."""
    events = _lock_hand()
    lock = next(e for e in events if e.kind == "LOCK")
    assert lock.cards == (RED_JOKER,)
    p = next(p for p in decision_points(events, range(6))
             if p[0] > lock.seq and p[2].seat not in (0, lock.seat))
    for w in _worlds(p, 10):
        assert RED_JOKER in w.hands[lock.seat] and w.locked == RED_JOKER
    assert _refused(p, 10) == 0


def test_each_world_log_replays_to_it_and_shows_the_seat_what_it_saw():
    """The world's log, replayed by the engine, is the world; each of its events as the seat
    sees it is the event it saw (bids, choices, reveals, plays)."""
    for variant in ("3v3", "2v4", "zhengfan"):
        for seq, s, e, seen in list(_points(variant, 4))[5::40]:
            w, log = ds.sample_log(s, e.seat, random.Random(seq), seen)
            assert [seen_event(x, e.seat, variant)[:10] for x in log] == \
                [x[:10] for x in seen]                   # all but the digest
            r = dg.initial_state(variant, log[0])
            for x in log[1:]:
                r = dg.apply(r, x)
            assert r == w


def test_the_engine_accepts_almost_every_draw():
    """The pass leaves little for the engine's replay to refuse (a landlord with no bomb who
    played on, DDZ-78 (a)): across greedy hands of every variant at most 2 % of draws are
    refused."""
    worlds = refused = 0
    for variant in ("3v3", "2v4", "zhengfan"):
        for game in (1, 7):
            for p in list(_points(variant, game))[::25]:
                refused += _refused(p, 2)
                worlds += 2
    assert worlds > 30 and refused <= worlds * 0.02


def test_the_game_declares_the_sampler_and_a_points_scale():
    """Each variant is reviewed on expected score (settled in points, DDZ-81) by greedy
    rollouts."""
    for variant in ("3v3", "2v4", "zhengfan"):
        g = find_game(f"ddz6_{variant}")
        assert g.sample_world is ds.sample_world and g.review_policy == "greedy"
        assert g.review_scale.kind == "score" and g.review_scale.steps[0] > 0


def test_seen_events_that_fit_no_deal_are_an_engine_error():
    """Cards the seat says it played but was never dealt: no world, an EngineError (which a
    review reports for that decision alone)."""
    seq, s, e, seen = next(p for p in _points("3v3", 1) if p[1].phase == "play")
    mine = s.hands[e.seat]
    bad = (*seen, Event("PLAY", e.seat, (mine[0],) * 4, game_id=s.game_id, seq=s.seq))
    with pytest.raises(EngineError, match="do not fit"):
        ds.sample_world(s, e.seat, random.Random(0), bad)
