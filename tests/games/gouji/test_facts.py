"""够级 facts (engine/games/gouji/facts.py): every fact on known positions through the real
collector (``engine.facts.FactCollector``), the rare ones (``CONFORMANCE["rare_facts"]``)
included, and the rows of seeded self-play against a count made independently from the rules
(GJ-8 deal, GJ-19 够级, GJ-30 没头, GJ-39/GJ-41/GJ-42 burns, GJ-43 诈烧, GJ-44 闷, GJ-31/GJ-34
places), with the first seq of each row."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.events import Event
from engine.facts import FactCollector, facts_table
from engine.games import gouji
from engine.games.gouji import facts as GF
from engine.games.gouji.cards import BJ_S, RJ_S, STRENGTH, THREE
from engine.games.gouji.plays import analyse
from engine.games.gouji.state import GoujiState, opposite
from engine.replay import Verdict
from engine.sim import simulate

from .conftest import act, dealt, play, pos
from .late_helpers import options

F = "finished"
JUDGED = ("men", "zhashao")

# Seat 0 led Kh Kd, a pure 够级 play; seat 1 (opened) is to act (as in test_burn.py).
HANDS = ["9s 9c 4s", "Ah Ad 7h", "As 7s", "2h 7c", "2s 7d", "8h"]


def on_gouji(**changes: Any) -> GoujiState:
    """Seat 0's Kh Kd is the top play, seats 1, 2 and 5 are opened, seat 1 acts."""
    kw: dict[str, Any] = dict(hands=HANDS, top=("Kh Kd", 0), to_act=1, last=0,
                              opened=[1, 2, 5])
    kw.update(changes)
    return pos(**kw)


def burnt(**changes: Any) -> GoujiState:
    """Seat 1 took seat 0's Kh Kd with Ah Ad and is the burner; the take is the top play."""
    kw: dict[str, Any] = dict(hands=["9s 9c", "7h 8s", "7s", "7c", "7d", "8h"],
                              top=("Ah Ad", 1), burner=1, opened=[1, 2, 5])
    kw.update(changes)
    return pos(**kw)


def collect(s: GoujiState, *actions: tuple[str, int, str]) -> tuple[
        GoujiState, list[Event], dict[tuple[int, str], tuple[int, int]]]:
    """Feed actions — (kind, seat, cards of a PLAY or tag) — to a position, each followed by
    the derived events the engine owes, through a FactCollector; the final state, the events
    and the kept rows {(seat, fact): (count, first seq)}."""
    c = FactCollector()
    c.begin(gouji.GAME, s, Event("GAME_START", game_id=s.game_id, seq=0))
    events: list[Event] = []
    for kind, seat, arg in actions:
        e = play(seat, arg, s) if kind == "PLAY" else \
            act(s, kind, seat, **({"tag": arg} if arg else {}))
        while e is not None:
            s = gouji.apply(s, e)
            events.append(e)
            c.after(s, e)                                  # type: ignore[misc]
            e = gouji.auto_event(s)
    c.end(Verdict(s.game_id, "ok", len(events)))
    rows = {(r["seat"], r["fact"]): (r["count"], r["first_seq"])
            for r in c.table().to_pylist()}
    return s, events, rows


def seq_of(events: list[Event], kind: str, tag: str | None = None) -> int:
    """The seq of the first event of this kind (and tag)."""
    return next(e.seq for e in events if e.kind == kind and (tag is None or e.tag == tag))


# ---------------------------------------------------------------- positions: burns


def test_a_take_with_the_last_cards_burns_and_succeeds_at_once():
    """GJ-39/GJ-41/GJ-42: seat 1 burns seat 0's 够级 play with its last cards: burned and
    was_burned at the BURN_START, burn_succeeded at the BURN_END success; seat 4, whose
    opposite went out in the restricted phase, is 没头 (GJ-30) from the OUT."""
    s = on_gouji(hands=["9s 9c 4s", "Ah Ad", "As 7s", "2h 7c", "2s 7d", "8h"])
    s, events, rows = collect(s, ("PLAY", 1, "Ah Ad"))
    start, end = seq_of(events, "BURN_START"), seq_of(events, "BURN_END", "success")
    assert rows == {(1, "burned"): (1, start), (0, "was_burned"): (1, start),
                    (1, "burn_succeeded"): (1, end), (4, "meitou"): (1, seq_of(events, "OUT"))}


def test_a_burner_going_out_on_his_final_3_succeeds():
    """GJ-40/GJ-42: the burner's last card, one 3, needs no joker: the burn succeeds; no
    false burn."""
    s = pos(hands=["9s", "3s", "7s", "7c", "7d", "8h"], burner=1, to_act=1, last=1,
            opened=[1])
    s, events, rows = collect(s, ("PLAY", 1, "3s"))
    assert rows[(1, "burn_succeeded")] == (1, seq_of(events, "BURN_END", "success"))
    assert (1, "false_burn") not in rows and (1, "led_gouji") not in rows


def test_a_joker_lead_then_the_opposites_answer_relieves_the_burn():
    """GJ-40/GJ-41 (a): the burner's joker lead is a 够级 lead; seats 2 and 3 pass and seat 4,
    his opposite, answers: 解烧 for seat 4, nobody burned by it."""
    s = pos(hands=["9s", "6h BJ 8s", "7s", "2h RJ 7c", "2s RJ 7d", "8h"], burner=1, to_act=1,
            last=1, opened=[1])
    s, events, rows = collect(s, ("PLAY", 1, "6h BJ"), ("PASS", 2, ""), ("PASS", 3, ""),
                              ("PLAY", 4, "2s RJ"))
    assert rows == {(1, "led_gouji"): (1, events[0].seq),
                    (4, "relieved_burn"): (1, seq_of(events, "BURN_END", "relieved"))}


def test_relieving_answer_that_stifles_the_former_burner():
    """GJ-41 (a) then GJ-44: the answer of the burner's opposite relieves the burn and stifles
    him (his take left him a single 3); seat 4 is then 没头 as well (GJ-18: a judged player
    counts as out by default)."""
    s = burnt(hands=["9s 9c", "3s", "7s", "7c", "2h 2d 7d", "8h"], passed=[2, 3], to_act=4,
              last=3)
    s, events, rows = collect(s, ("PLAY", 4, "2h 2d"))
    out = seq_of(events, "OUT", "men")
    assert rows == {(4, "relieved_burn"): (1, seq_of(events, "BURN_END")),
                    (4, "stifled"): (1, events[0].seq), (1, "was_stifled"): (1, out),
                    (4, "meitou"): (1, out)}


def test_a_counter_burn_is_a_burn_too():
    """GJ-41 (b): opened seat 2 answers the burner: counter_burned and burned for 2,
    was_burned for the former burner 1."""
    s = burnt(hands=["9s 9c", "7h 8s", "2s 2c 7s", "7c", "7d", "8h"], to_act=2, last=1)
    s, events, rows = collect(s, ("PLAY", 2, "2s 2c"))
    start = seq_of(events, "BURN_START")
    assert rows == {(2, "burned"): (1, start), (2, "counter_burned"): (1, start),
                    (1, "was_burned"): (1, start)}


def test_a_meitou_answer_to_a_burner_is_no_burn_and_no_relief():
    """GJ-30/GJ-41 (c): a 没头 seat's answer ends the burn without burning or relieving."""
    s = burnt(hands=["2h 2d 9s", "7h 8s", "7s", "", "7d", "8h"], out={3: (1, F)},
              passed=[2, 4, 5], to_act=0, last=5, opened=[0, 1])
    s, events, rows = collect(s, ("PLAY", 0, "2h 2d"))
    assert [e.tag for e in events if e.kind == "BURN_END"] == ["meitou"]
    assert rows == {}


def test_a_false_burn():
    """GJ-40/GJ-43: the burner leads without a joker: false_burn for him, at the BURN_END."""
    s = pos(hands=["9s", "6h 8s", "7s", "7c", "7d", "8h"], burner=1, to_act=1, last=1,
            opened=[1])
    s, events, rows = collect(s, ("PLAY", 1, "6h"))
    assert s.out_how[1] == "zhashao"
    assert rows == {(1, "false_burn"): (1, seq_of(events, "BURN_END", "fake")),
                    (4, "meitou"): (1, seq_of(events, "OUT"))}


# ---------------------------------------------------------------- positions: 闷, 没头, 开点


def test_stifling_a_teammate():
    """GJ-44: seat 2 beats its teammate 0's play that left 0 a single 3."""
    s = pos(hands=["3s", "8s", "7h 9h", "8c", "8d", "8h"], top=("5h", 0), passed=[1],
            to_act=2, last=1)
    s, events, rows = collect(s, ("PLAY", 2, "7h"))
    assert rows[(2, "stifled")] == (1, events[0].seq)
    assert rows[(0, "was_stifled")] == (1, seq_of(events, "OUT", "men"))


@pytest.mark.parametrize("scope,stifled", [("single_three", False), ("threes_only", True)])
def test_two_3s_are_stifled_only_under_threes_only(scope, stifled):
    """GJ-44 option men_scope: a hand of two 3s."""
    s = pos(hands=["3s 3c", "8s", "7h 9h", "8c", "8d", "8h"], top=("5h", 0), passed=[1],
            to_act=2, last=1, options=options(men_scope=scope))
    s, _, rows = collect(s, ("PLAY", 2, "7h"))
    assert ((2, "stifled") in rows) == stifled == ((0, "was_stifled") in rows)


@pytest.mark.parametrize("judged_counts", [True, False])
def test_a_judged_opposite_leaves_meitou_only_when_judged_players_count(judged_counts):
    """GJ-18 option judged_counts_as_out: seat 0 stifled leaves seat 3 没头 only if judged
    players count as out."""
    s = pos(hands=["3s", "8s", "7h 9h", "8c", "8d", "8h"], top=("5h", 0), passed=[1],
            to_act=2, last=1, options=options(judged_counts_as_out=judged_counts))
    s, _, rows = collect(s, ("PLAY", 2, "7h"))
    assert ((3, "meitou") in rows) == judged_counts


def test_no_meitou_when_the_out_opens_the_phase():
    """GJ-18/GJ-25: seat 5 is out already; seat 1 going out is the second out: the phase opens,
    so seat 4 is never 没头 (only seat 2 was, from seat 5's earlier out)."""
    s = pos(hands=["9s", "Ah", "7s", "7c", "7d", ""], out={5: (1, F)}, top=("Kh", 0),
            to_act=1, last=0)
    s, events, rows = collect(s, ("PLAY", 1, "Ah"))
    assert s.open_phase and rows == {}


def test_a_pure_gouji_play_that_stood_then_4s_is_kaidian():
    """GJ-36: seat 0's Kh Kd stands (its opposite passes last), then it leads natural 4s:
    opened_point at the OPENED; the 4s are no 够级 lead."""
    s = pos(hands=["4s 4c 4h 6h 2s", "9c", "9d", "Ts Tc", "Js Jc", "Qs Qc"], top=("Kh Kd", 0),
            passed=[1, 2, 4, 5], to_act=3, last=2)
    s, events, rows = collect(s, ("PASS", 3, ""), ("PLAY", 0, "4s 4c"))
    assert rows == {(0, "opened_point"): (1, seq_of(events, "OPENED"))}


def test_a_gouji_lead_counts_only_while_the_opposite_is_in():
    """GJ-19/GJ-30: Kh Kd led is a 够级 lead; the same lead by a 没头 seat is not."""
    hands = ["Kh Kd 9s", "8s", "8c", "8d 9d", "8h", "9h"]
    _, events, rows = collect(pos(hands=hands, to_act=0, last=0), ("PLAY", 0, "Kh Kd"))
    assert rows == {(0, "led_gouji"): (1, events[0].seq)}
    hands[3] = ""
    _, _, rows = collect(pos(hands=hands, to_act=0, last=0, out={3: (1, F)}),
                         ("PLAY", 0, "Kh Kd"))
    assert (0, "led_gouji") not in rows


# ---------------------------------------------------------------- positions: 宣点, 和点


@pytest.mark.parametrize("answer", ["agree", "refuse"])
def test_xuandian_and_hedian(answer):
    """GJ-38: seat 4 proposes, seat 1 answers; an agreement opens both (agreed_point for
    each, the proposer first); a refusal opens nobody."""
    s, events, rows = collect(dealt(), ("XUANDIAN", 4, ""), ("HEDIAN", 1, answer))
    assert rows[(4, "proposed_point")] == (1, events[0].seq)
    agreed = {seat: rows[(seat, "agreed_point")][1] for seat in range(6)
              if (seat, "agreed_point") in rows}
    if answer == "agree":
        opened = [e.seq for e in events if e.kind == "OPENED"]
        assert agreed == {4: opened[0], 1: opened[1]}
    else:
        assert agreed == {} and (1, "proposed_point") not in rows


# ---------------------------------------------------------------- rare facts


def _take_with_last_cards() -> dict[tuple[int, str], tuple[int, int]]:
    s = on_gouji(hands=["9s 9c 4s", "Ah Ad", "As 7s", "2h 7c", "2s 7d", "8h"])
    return collect(s, ("PLAY", 1, "Ah Ad"))[2]


def _relieved() -> dict[tuple[int, str], tuple[int, int]]:
    s = burnt(hands=["9s 9c", "7h 8s", "7s", "7c", "2h 2d 7d", "8h"], passed=[2, 3],
              to_act=4, last=3)
    return collect(s, ("PLAY", 4, "2h 2d"))[2]


# rare fact -> a position that makes it happen, and the seat it happens to
RARE_SCENARIOS = {"burn_succeeded": (_take_with_last_cards, 1), "relieved_burn": (_relieved, 4)}


def test_every_rare_fact_is_made_to_happen_here():
    """Each of CONFORMANCE's rare_facts is in the catalog and has a scenario here whose rows
    name it, once, for the right seat."""
    rare = set(gouji.CONFORMANCE["rare_facts"])
    assert rare <= set(gouji.GAME.facts.names())
    assert rare <= set(RARE_SCENARIOS)
    for fact, (scenario, seat) in RARE_SCENARIOS.items():
        rows = scenario()
        assert rows[(seat, fact)][0] == 1, fact
        assert [k for k in rows if k[1] == fact] == [(seat, fact)]


# ---------------------------------------------------------------- self-play, counted again


def _corpus() -> list[list[Event]]:
    out: list[list[Event]] = []
    sets = [{}, {"men_scope": "threes_only", "judged_counts_as_out": False,
                 "kaidian_effect": "record"}]
    for i, opts in enumerate(sets):
        for policy in ("random", "greedy"):
            out += [x.events for x in simulate("gouji", 6, seed=40 + i, policy_name=policy,
                                               options=gouji.Options(**opts),
                                               session_games=3)]
    return out


@pytest.fixture(scope="module")
def corpus() -> list[list[Event]]:
    """Seeded self-play games of two option sets, random and greedy."""
    return _corpus()


def _counts_out(s: GoujiState, seat: int) -> bool:
    """GJ-18, written out: gone out, or judged when judged players count."""
    return s.out_pos[seat] != 0 and (s.options.judged_counts_as_out
                                     or s.out_how[seat] not in JUDGED)


def _ends_by_passes(events: list[Event], i: int) -> bool:
    """The action at index i ends its round by passes: a ROUND_END 'passes' follows before
    the next action."""
    for e in events[i + 1:]:
        if e.kind == "ROUND_END":
            return e.tag == "passes"
        if e.kind not in ("OPENED", "BURN_START", "BURN_END", "OUT", "PHASE_OPEN"):
            return False
    return False


def _expected(events: list[Event]) -> tuple[Counter, dict[tuple[int, str], int]]:
    """The facts of one game counted from the rules, not from the derived events: the counts
    and the seq each first happened at."""
    state = gouji.initial_state(events[0])
    want: Counter = Counter()
    first: dict[tuple[int, str], int] = {}

    def nxt(i: int, kind: str, seat: int) -> int:
        return next(e.seq for e in events[i:] if e.kind == kind and e.seat == seat)

    def add(seat: int, fact: str, seq: int) -> None:
        want[seat, fact] += 1
        first.setdefault((seat, fact), seq)

    meitou: set[int] = set()
    opened: set[int] = set()
    stood = -1                  # the maker of a pure 够级 play that stood (GJ-36), until a play
    for i, e in enumerate(events[1:], 1):
        b = state
        lead = void = False
        if e.kind == "DEAL":                            # GJ-8: card k to starter + d·(k mod 6)
            d = int(e.tag)
            for k, c in enumerate(e.cards):
                seat = (e.seat + d * (k % 6)) % 6
                v = STRENGTH[c]
                for fact, hit in (("held_joker", v >= BJ_S), ("held_big_joker", v == RJ_S),
                                  ("held_three", v == THREE)):
                    if hit:
                        add(seat, fact, e.seq)
        elif e.kind == "XUANDIAN":
            add(e.seat, "proposed_point", e.seq)
        elif e.kind == "HEDIAN" and e.tag == "agree":
            for seat in (opposite(e.seat), e.seat):
                if seat not in opened:
                    opened.add(seat)
                    add(seat, "agreed_point", nxt(i, "OPENED", seat))
        elif e.kind == "PLAY":
            x, info = e.seat, analyse(e.cards)
            assert info is not None
            m = b.top_seat
            lead = m < 0
            empties = len(e.cards) == len(b.hands[x])
            void = lead and b.burner == x and info.nbj + info.nrj == 0 and \
                not (empties and info.n == 1 and info.base == THREE)
            burn = False
            if lead and stood == x and not void and info.base == 4 and info.n2 == 0 and \
                    info.nbj + info.nrj == 0 and x not in opened:                # GJ-36
                opened.add(x)
                add(x, "opened_point", nxt(i, "OPENED", x))
            stood = -1
            if not lead:
                ti = b.top_info
                assert ti is not None
                gouji_top = ti.shaped and not b.top_huiwu and not b.open_phase and \
                    not _counts_out(b, opposite(m))                       # GJ-19
                meitou_x = not b.open_phase and _counts_out(b, opposite(x))   # GJ-30
                burn = gouji_top and x != opposite(m) and not meitou_x        # GJ-39
                if burn:
                    for fact, seat in (("burned", x), ("was_burned", m)):
                        add(seat, fact, nxt(i, "BURN_START", x))
                    if b.burner == m:
                        add(x, "counter_burned", nxt(i, "BURN_START", x))
                elif b.burner == m and x == opposite(m):
                    add(x, "relieved_burn", nxt(i, "BURN_END", m))            # GJ-41 (a)
                hand = b.hands[m]
                threes = bool(hand) and all(STRENGTH[c] == THREE for c in hand)
                if b.out_pos[m] == 0 and threes and (
                        len(hand) == 1 or b.options.men_scope == "threes_only"):  # GJ-44
                    add(x, "stifled", e.seq)
                    add(m, "was_stifled", nxt(i, "OUT", m))
            if empties and not void and (burn or b.burner == x):             # GJ-42
                add(x, "burn_succeeded", nxt(i, "BURN_END", x))
            if void:
                add(x, "false_burn", nxt(i, "BURN_END", x))                   # GJ-43
        state = gouji.apply(b, e)
        if e.kind in ("PLAY", "PASS", "RANG") and _ends_by_passes(events, i):     # GJ-24
            top, maker = (info, e.seat) if e.kind == "PLAY" else (b.top_info, b.top_seat)
            assert top is not None
            if top.pure and state.out_pos[maker] == 0 and not state.open_phase \
                    and not _counts_out(state, opposite(maker)):              # GJ-36 站住
                stood = maker
        if e.kind == "PLAY" and lead and not void and info.shaped and not state.open_phase \
                and not _counts_out(state, opposite(e.seat)):                 # GJ-19
            add(e.seat, "led_gouji", e.seq)
        for seat in range(6):                            # GJ-30: 没头 once, from the OUT
            if seat not in meitou and state.out_pos[seat] == 0 and not state.open_phase \
                    and _counts_out(state, opposite(seat)):
                meitou.add(seat)
                add(seat, "meitou", nxt(i, "OUT", opposite(seat)))
    r = state.result
    assert r is not None
    end = events[-1].seq
    for seat, p in enumerate(r["positions"]):
        if p in (1, 6):
            add(seat, "touke" if p == 1 else "lake", end)
        if r["chuansanhu"] is not None:
            add(seat, "chuansanhu" if gouji.team_of(seat) == r["chuansanhu"] else "was_swept",
                end)
    return want, first


def test_self_play_rows_agree_with_an_independent_count(corpus):
    """For every game of the corpus, every row's count and first seq is the one counted from
    the rules; and the corpus exercises most of the catalog (the check is not vacuous)."""
    seen: Counter = Counter()
    for events in corpus:
        rows = facts_table([events]).to_pylist()
        got = Counter({(r["seat"], r["fact"]): r["count"] for r in rows})
        firsts = {(r["seat"], r["fact"]): r["first_seq"] for r in rows}
        want, first = _expected(events)
        assert got == want, (events[0].game_id, got - want, want - got)
        assert firsts == first, events[0].game_id
        for (_, fact), n in got.items():
            seen[fact] += n
    assert len(seen) >= 14, sorted(seen)
    for fact in ("burned", "stifled", "meitou", "led_gouji", "false_burn", "chuansanhu",
                 "counter_burned"):
        assert seen[fact] > 0, fact


def test_places_and_jokers_against_the_final_state(corpus):
    """头客 and 拉客 once per game each, at GAME_END; four big and four small jokers, six 3s
    dealt in all (GJ-2)."""
    for events in corpus[:6]:
        rows = facts_table([events]).to_pylist()
        total = Counter()
        for r in rows:
            total[r["fact"]] += r["count"]
        assert total["touke"] == total["lake"] == 1
        assert (total["held_joker"], total["held_big_joker"], total["held_three"]) == (8, 4, 6)
        assert all(events[r["first_seq"]].kind == "GAME_END" for r in rows
                   if r["fact"] in ("touke", "lake", "chuansanhu", "was_swept"))


def test_kinds_leave_out_no_fact(corpus):
    """``after`` finds nothing on the kinds outside KINDS (so the collector may skip them)."""
    kinds = set(GF.KINDS)
    for events in corpus[:4]:
        state = gouji.initial_state(events[0])
        for e in events[1:]:
            state = gouji.apply(state, e)
            if e.kind not in kinds:
                assert GF.after(state, e) == (), e.describe()
