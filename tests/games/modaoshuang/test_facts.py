"""摸到爽 facts (engine.games.modaoshuang.facts): the collector's rows of seeded self-play against
counts made independently from the events and the states before them (who held the round suit
when drawing, who led, the first seat not to play in a round, the result's payments); and, on
known positions, the facts self-play rarely or never makes: going out on a joker (MDS-20), both
jokers by a gift, the stock emptied by a penalty draw, a joker led, the heaviest payment with
and without 点炮 (MDS-38, MDS-40), jokers stuck in hand (MDS-34)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.events import Event
from engine.facts import FactCollector, facts_table
from engine.games import modaoshuang as mds
from engine.games.modaoshuang.cards import BJ, MIN_HOLD, RJ
from engine.games.modaoshuang.state import MdsState
from engine.replay import Verdict
from engine.sim import simulate

from .conftest import gift, no_play, play, pos

PEN = {"mds_joker_violation": "penalty"}
OPTION_SETS = (
    {"mds_players": 3},
    {"mds_players": 4, "mds_hand_size": 4, "mds_one_card_report": True,
     "mds_dianpao": "preceding"},
    {"mds_players": 5, "mds_hand_size": 7, "mds_zhamo": False, "mds_joker_violation": "illegal"},
    {"mds_players": 5, "mds_hand_size": 8},
)
Rows = dict[tuple[int, str], tuple[int, int]]


def _corpus() -> list[list[Event]]:
    """8 seeded games per option set and policy."""
    out = []
    for i, opts in enumerate(OPTION_SETS):
        for policy in ("random", "greedy"):
            out += [x.events for x in simulate("modaoshuang", 8, seed=310 + i,
                                                policy_name=policy,
                                                options=mds.Options(**opts), session_games=4)]
    return out


@pytest.fixture(scope="module")
def corpus() -> list[list[Event]]:
    """Seeded self-play over four option sets, random and greedy."""
    return _corpus()


class _Count:
    """(seat, fact) -> [count, first seq], added to one event at a time."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, str], list[int]] = {}

    def add(self, seat: int, fact: str, seq: int) -> None:
        row = self.rows.setdefault((seat, fact), [0, seq])
        row[0] += 1


def _independent(events: list[Event]) -> tuple[_Count, dict[int, int]]:
    """The facts of one game counted without the catalog, from each event and the state
    before it; joker violations counted at the violating PLAY (seat -> first PLAY seq)."""
    n = _Count()
    s = mds.initial_state(events[0])
    first_violation: dict[int, int] = {}
    collector = -1
    for e in events[1:]:
        before = s.copy()
        mds.step(s, e)
        for seat in range(s.n):
            if not {BJ, RJ} <= set(before.hands[seat]) and {BJ, RJ} <= set(s.hands[seat]):
                n.add(seat, "held_both_jokers", e.seq)
        k, seat = e.kind, e.seat
        if k == "DEAL":
            if RJ in e.cards:
                n.add(seat, "dealt_red_joker", e.seq)
            if BJ in e.cards:
                n.add(seat, "dealt_black_joker", e.seq)
        elif k == "DRAW":
            if e.cards[0] in (BJ, RJ):
                n.add(seat, "drew_joker", e.seq)
            if len(before.stock) == 1:
                n.add(seat, "emptied_stock", e.seq)
            if e.tag == "turn":
                held = before.suit >= 0 and any(c < 52 and c // 13 == before.suit
                                                for c in before.hands[seat])
                n.add(seat, "feint" if held else "drew_to_follow", e.seq)
        elif k == "PLAY" and e.cards[0] in (BJ, RJ):
            n.add(seat, "played_joker", e.seq)
            if before.suit < 0:
                n.add(seat, "led_joker", e.seq)
            if len(before.hands[seat]) < MIN_HOLD[e.cards[0]]:
                first_violation.setdefault(seat, e.seq)
                n.add(seat, "joker_violation", -1)          # first seq checked apart
        elif k == "NO_PLAY" and e.tag != "final" and collector < 0:
            collector = seat
        elif k == "ROUND_END":
            if collector >= 0 and before.winner < 0:     # the final round collects nothing
                n.add(collector, "collected", e.seq)
            collector = -1
        elif k == "REPORT":
            n.add(seat, "reported", e.seq)
        elif k == "MISSED_REPORT" and e.tag == "report":
            n.add(seat, "missed_report", e.seq)
        elif k == "GAME_END":
            r = json.loads(e.payload)
            n.add(r["winner"], "went_out", e.seq)
            if r["dianpao"] is not None:
                n.add(r["dianpao"], "dianpao", e.seq)
            for x, h in enumerate(r["final_hands"]):
                for face in h:
                    if face in ("BJ", "RJ"):
                        n.add(x, "stuck_with_joker", e.seq)
            top = max(r["payments"])
            for x, p in enumerate(r["payments"]):
                if p == top:
                    n.add(x, "paid_most", e.seq)
    return n, first_violation


def test_facts_agree_with_an_independent_count(corpus):
    """Every row of every game (count and first seq) is the independent count's, and the
    corpus makes every fact but out_on_joker happen."""
    names = set(mds.GAME.facts.names())
    seen: set[str] = set()
    for events in corpus:        # one at a time: random and greedy games share ids
        gid = events[0].game_id
        exp, violations = _independent(events)
        mine = {(r["seat"], r["fact"]): r for r in facts_table([events]).to_pylist()}
        assert set(mine) == set(exp.rows), gid
        for key, (count, first) in exp.rows.items():
            row = mine[key]
            assert row["count"] == count, (gid, key)
            if key[1] == "joker_violation":
                e = events[row["first_seq"]]
                assert (e.kind, e.seat, e.tag) == ("MISSED_REPORT", key[0], "joker")
                assert row["first_seq"] > violations[key[0]]
                assert not any(x.kind == "MISSED_REPORT" and x.tag == "joker"
                               and x.seat == key[0]
                               for x in events[violations[key[0]]:row["first_seq"]])
            else:
                assert row["first_seq"] == first, (gid, key)
            seen.add(key[1])
        assert {f for _, f in exp.rows} <= names
    # the corpus exercises nearly the whole catalog (out_on_joker: the position tests below)
    assert names - seen <= {"out_on_joker"}, \
        names - seen
    assert len(corpus) == 64


# ---------------------------------------------------------------- positions

Move = Event | Callable[[MdsState], Event]


def _collect(s: MdsState, *moves: Move) -> tuple[Rows, list[Event], MdsState]:
    """Feed the moves (an event, or state -> event), each followed by every automatic event
    then owed, to a FactCollector bound to position ``s``: its rows as {(seat, fact): (count,
    first seq)}, the events fed and the last state."""
    c = FactCollector()
    c.begin(mds.GAME, s, Event("GAME_START", game_id=s.game_id, seq=0))
    fed: list[Event] = []

    def feed(e: Event) -> None:
        nonlocal s
        s = mds.apply(s, e)
        c.after(s, e)
        fed.append(e)

    for m in moves:
        feed(m(s) if callable(m) else m)
        while (a := mds.auto_event(s)) is not None:
            feed(a)
    c.end(Verdict(s.game_id, "ok", len(fed)))
    return {(r["seat"], r["fact"]): (r["count"], r["first_seq"])
            for r in c.table().to_pylist()}, fed, s


def _seq(fed: list[Event], kind: str, seat: int | None = None, nth: int = 0) -> int:
    """The seq of the nth fed event of this kind (and seat)."""
    return [e.seq for e in fed if e.kind == kind and (seat is None or e.seat == seat)][nth]


def test_out_on_joker_without_givers():
    """MDS-20, MDS-25, MDS-33: a BJ as the last card in 收到爽, nobody holding four cards: the
    violation's MISSED_REPORT leaves seat 1 without a card, out on the joker; 点炮 the leader
    (MDS-35)."""
    s = pos(["2s 3s", "BJ", "6h 8d 9h", "Ts"], table=[(0, "5h")], options=PEN)
    rows, fed, s = _collect(s, play(s, 1, "BJ"), lambda t: no_play(t, 2, "final"),
                            lambda t: no_play(t, 3, "final"))
    assert mds.is_over(s) and s.winner == 1
    missed = _seq(fed, "MISSED_REPORT")
    assert rows[(1, "out_on_joker")] == (1, missed)
    assert rows[(1, "joker_violation")] == (1, missed)
    assert rows[(1, "played_joker")] == (1, fed[0].seq)
    assert rows[(1, "went_out")] == (1, _seq(fed, "GAME_END"))
    assert rows[(0, "dianpao")][0] == 1 and (1, "dianpao") not in rows
    assert not any(f == "out_on_joker" for x, f in rows if x != 1)


def test_out_on_joker_when_every_giver_declines():
    """MDS-20, MDS-25: with givers, the violator goes out at the last gift declined, not at its
    MISSED_REPORT."""
    s = pos(["2s 3s 4s 5s", "BJ", "6h 8d 9d Td"], table=[(0, "4h")], options=PEN)
    rows, fed, s = _collect(s, play(s, 1, "BJ"), lambda t: gift(t, 2), lambda t: gift(t, 0))
    assert s.winner == 1
    assert rows[(1, "out_on_joker")] == (1, _seq(fed, "GIFT", 0))
    assert rows[(1, "joker_violation")] == (1, _seq(fed, "MISSED_REPORT"))


def test_a_gift_keeps_the_violator_in_no_out_on_joker():
    """MDS-20: a gift leaves the violator a card: no out_on_joker, nobody out."""
    s = pos(["2s 3s 4s 5s", "BJ", "6h 8d 9d Td"], table=[(0, "4h")], options=PEN)
    rows, _, s = _collect(s, play(s, 1, "BJ"), lambda t: gift(t, 2, "Td"),
                          lambda t: gift(t, 0))
    assert s.winner == -1
    assert (1, "joker_violation") in rows
    assert not any(f in ("out_on_joker", "went_out") for _, f in rows)


def test_out_on_joker_after_another_seats_missed_report_first():
    """MDS-20, MDS-23, MDS-25: seat 1's missed report is punished first, then seat 2's
    violation; seat 2 goes out at the second declined gift, 点炮 the leader seat 1."""
    s = pos(["6h 8d 9d Td", "5h 2s 3s", "BJ", "7h 8h"], leader=1, options=PEN)
    rows, fed, s = _collect(s, play(s, 1, "5h"), lambda t: play(t, 2, "BJ"),
                            lambda t: gift(t, 0), lambda t: gift(t, 0))
    assert s.winner == 2
    assert rows[(1, "missed_report")] == (1, _seq(fed, "MISSED_REPORT", 1))
    assert rows[(2, "joker_violation")] == (1, _seq(fed, "MISSED_REPORT", 2))
    assert rows[(2, "out_on_joker")] == (1, _seq(fed, "GIFT", 0, nth=1))
    assert (1, "out_on_joker") not in rows


def test_both_jokers_by_a_gift():
    """MDS-22, MDS-25: seat 1 (RJ in hand) misses its report; seat 2 gives it the BJ: it holds
    both jokers from that GIFT; the missed report counts for seat 1."""
    s = pos(["2s 3s 4s 5s", "4h RJ 7c", "6h BJ 8d 9d Td"], table=[(0, "5h")])
    rows, fed, s = _collect(s, play(s, 1, "4h"), lambda t: play(t, 2, "6h"),
                            lambda t: gift(t, 2, "BJ"), lambda t: gift(t, 0))
    assert s.hands[1][-2:] == (BJ, RJ)
    assert rows[(1, "held_both_jokers")] == (1, _seq(fed, "GIFT", 2))
    assert rows[(1, "missed_report")] == (1, _seq(fed, "MISSED_REPORT"))
    assert (1, "drew_joker") not in rows and (2, "held_both_jokers") not in rows


def test_a_penalty_draw_empties_the_stock():
    """MDS-20, MDS-24, MDS-28: an RJ from two cards; the penalty draw takes the last card: seat
    1 emptied the stock; a penalty draw is neither 诈摸 nor a draw to follow."""
    s = pos(["2s 3s", "RJ 5d", "6h 8d"], stock="7c", table=[(0, "4h")])
    rows, fed, s = _collect(s, play(s, 1, "RJ"))
    assert s.shou and [e.kind for e in fed][-1] == "PHASE_SHOUDAOSHUANG"
    assert rows[(1, "emptied_stock")] == (1, _seq(fed, "DRAW", 1))
    assert rows[(1, "joker_violation")] == (1, _seq(fed, "MISSED_REPORT"))
    assert not any(f in ("feint", "drew_to_follow") for _, f in rows)


def test_a_joker_led_names_the_suit_a_followed_one_does_not():
    """MDS-3, MDS-12: the leader's RJ names hearts (led and played); seat 1's BJ follows
    (played only)."""
    s = pos(["RJ 5d 6c", "BJ 2s 3s", "6h 8d 9s"], stock="Kc Qc", leader=0)
    rows, fed, _ = _collect(s, play(s, 0, "RJ", suit="h"), lambda t: play(t, 1, "BJ"))
    assert rows[(0, "played_joker")] == (1, fed[0].seq)
    assert rows[(0, "led_joker")] == (1, fed[0].seq)
    assert rows[(1, "played_joker")] == (1, fed[1].seq)
    assert (1, "led_joker") not in rows


# MDS-40, the seed's worked example: A (seat 0) wins; face sums left B 50, C 60, D 40.
MDS_40 = ["5h", "As Kd Qd 5c", "Ac Ks Qs Js 4d", "4h Ad Kc 7c"]


def _final(moves: tuple[Move, ...], s: MdsState) -> tuple[Rows, dict[str, Any]]:
    """The rows of a position played to its GAME_END, and the result."""
    rows, fed, s = _collect(s, *moves)
    assert mds.is_over(s)
    return rows, json.loads(fed[-1].payload)


def test_paid_most_is_the_dianpao_seat_not_the_biggest_hand():
    """MDS-38, MDS-40: D (seat 3) led the suit A went out on: 点炮, it pays 190 against C's 60
    although C holds the most."""
    s = pos(MDS_40, leader=3)
    rows, r = _final((play(s, 3, "4h"), lambda t: play(t, 0, "5h"),
                      lambda t: no_play(t, 1, "final"), lambda t: no_play(t, 2, "final")), s)
    assert r["payments"] == [0, 50, 60, 190] and r["dianpao"] == 3
    assert [x for x, f in rows if f == "paid_most"] == [3]
    assert [x for x, f in rows if f == "dianpao"] == [3]
    assert [x for x, f in rows if f == "went_out"] == [0]


def test_paid_most_without_dianpao_is_the_biggest_hand_and_ties_count():
    """MDS-35, MDS-37, MDS-38: A leads its last card: no 点炮; C's 60 pays the most; with B
    and C tied, both."""
    hands = ["5h", "As Kd Qd 5c", "Ac Ks Qs Js 4d", "Ad Kc 7c"]
    s = pos(hands, leader=0)
    moves = (play(s, 0, "5h"), lambda t: no_play(t, 1, "final"),
             lambda t: no_play(t, 2, "final"), lambda t: no_play(t, 3, "final"))
    rows, r = _final(moves, s)
    assert r["dianpao"] is None and r["payments"] == [0, 100, 120, 80]
    assert [x for x, f in rows if f == "paid_most"] == [2]
    assert not any(f == "dianpao" for _, f in rows)
    hands[1] = "As Kd Qd 5c Th"                               # B 60 too
    s = pos(hands, leader=0)
    rows, r = _final(moves, s)
    assert sorted(x for x, f in rows if f == "paid_most") == [1, 2]


def test_jokers_stuck_in_hand_count_per_joker():
    """MDS-5, MDS-34, MDS-37: B keeps both jokers (no joker in the final round): two stuck,
and its 63 pays the most."""
    s = pos(["5h", "RJ BJ 3c", "9c 8c", "Ad 7c"], leader=0)
    rows, r = _final((play(s, 0, "5h"), lambda t: no_play(t, 1, "final"),
                      lambda t: no_play(t, 2, "final"), lambda t: no_play(t, 3, "final")), s)
    assert r["final_hands"][1] == ["3c", "BJ", "RJ"]
    assert rows[(1, "stuck_with_joker")][0] == 2
    assert not any(f == "stuck_with_joker" for x, f in rows if x != 1)
    assert [x for x, f in rows if f == "paid_most"] == [1]
