"""六人坑 facts (engine.games.keng.facts, docs/facts.md): the collector's rows agree with an
independent count made straight from the events and the replayed state (the pending draw read
*before* each play, the duellists from DUEL_START, the result from the final state); each
fact's first seq is the event that made it; the rare 抢出 and the edges of 叠加, the start
card's duel and a draw split by a reshuffle are made to happen on positions."""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache

import pytest

from engine.cards import ACE, BLACK_JOKER, JACK, KING, QUEEN, RED_JOKER
from engine.events import Event
from engine.facts import FactCollector, facts_table
from engine.games import find_game, keng
from engine.games.keng import facts as keng_facts
from engine.games.keng import rules
from engine.replay import Verdict
from engine.sim import simulate

from .conftest import accept, ev, owed, play, pos, run, settle, snatch

GAME = find_game("keng")
# the 抢 option sets of the corpus: the conformance sets, and one with many red jokers
OPTION_SETS = [*GAME.CONFORMANCE["option_sets"],
               {"keng_red_jokers": 6, "keng_black_jokers": 6, "keng_hand_size": 8}]
GAMES_PER_SET = 16


def _rank(c: int) -> int:
    return c % 13 if c < 52 else -1


@lru_cache(maxsize=1)
def corpus() -> tuple[tuple[Event, ...], ...]:
    """Seeded self-play games of every option set, random and greedy (other seeds than the
    conformance test's)."""
    out = []
    for i, opts in enumerate(OPTION_SETS):
        for policy in ("random", "greedy"):
            out += [tuple(x.events) for x in simulate("keng", GAMES_PER_SET, seed=31 + i,
                                                      policy_name=policy,
                                                      options=GAME.Options(**opts),
                                                      session_games=4)]
    return tuple(out)


def independent(events: tuple[Event, ...]) -> dict[tuple[int, str], list[int]]:
    """Every (seat, fact) -> [count, first seq] of one game, counted without the facts module:
    the state is replayed to read the pending draw before each event."""
    got: dict[tuple[int, str], list[int]] = {}

    def add(seat: int, fact: str, seq: int) -> None:
        row = got.setdefault((seat, fact), [0, seq])
        row[0] += 1

    s = GAME.initial_state(events[0])
    last_play = ""                      # PLAY or START_CARD: what the next DUEL_START follows
    duellists: tuple[int, int] = (-1, -1)
    for i, e in enumerate(events[1:], start=1):
        pending_before = s.pending
        GAME.step(s, e)
        k, seat, seq = e.kind, e.seat, e.seq
        if k == "DEAL":
            if BLACK_JOKER in e.cards and RED_JOKER in e.cards:
                add(seat, "dealt_both_jokers", seq)
            if sum(_rank(c) == KING for c in e.cards) >= 2:
                add(seat, "dealt_kings", seq)
        elif k in ("PLAY", "START_CARD"):
            last_play = k
        if k == "PLAY" or (k == "SNATCH" and e.tag == "valid"):
            f = e.cards[0]
            if k == "SNATCH":
                add(seat, "snatched", seq)
                nxt = events[i + 1] if i + 1 < len(events) else None
                if nxt is not None and nxt.kind == "GAME_END" and nxt.tag == "out" \
                        and nxt.seat == seat:
                    add(seat, "snatched_out", seq)
            if _rank(f) == KING:
                add(seat, "stacked" if pending_before > 0 else "attacked_k", seq)
            elif _rank(f) == QUEEN:
                add(seat, "skipped", seq)
            elif _rank(f) == JACK:
                add(seat, "reversed", seq)
            elif f in (BLACK_JOKER, RED_JOKER):
                add(seat, "named_suit", seq)
                if f == RED_JOKER and pending_before > 0:
                    add(seat, "stacked", seq)
                if f == RED_JOKER and len(e.cards) > 1:
                    add(seat, "multi_big_joker", seq)
        elif k == "SNATCH" and e.tag == "false":
            add(seat, "false_claim", seq)
        elif k == "DUEL_START":
            duellists = (seat, e.target)
            if last_play == "PLAY":
                add(seat, "challenged", seq)
        elif k == "DUEL_END" and e.tag != "continued":
            add(seat, "lost_duel", seq)
            add(duellists[1] if seat == duellists[0] else duellists[0], "won_duel", seq)
        elif k == "ACCEPT" and e.tag != "continued" and pending_before >= 4:
            add(seat, "took_big_draw", seq)
        elif k == "LAST_CARD":
            add(seat, "reported_last_card", seq)
        elif k == "REPORT_PENALTY" and e.tag != "continued":
            add(seat, "forgot_report", seq)
    res = s.result
    assert s.is_over and res is not None
    if res["reason"] == "out":
        add(res["deciding_seat"], "went_out", events[-1].seq)
    elif res["reason"] == "over_limit":
        add(res["deciding_seat"], "over_limit", events[-1].seq)
    return got


def test_catalog_is_registered_with_its_kinds_and_rare_fact():
    """The registered hooks are the module's; KINDS names event kinds of the game; the one
    rare fact is declared."""
    names = [f[0] for f in keng_facts.FACTS]
    assert tuple(names) == GAME.facts.names() and len(set(names)) == len(names)
    assert GAME.facts.after is keng_facts.after
    assert GAME.facts.KINDS == frozenset(keng_facts.KINDS)
    assert GAME.facts.KINDS <= set(rules._HANDLERS) | set(rules.AUTO_KINDS)
    assert GAME.CONFORMANCE["rare_facts"] == ("snatched_out",)


def test_kinds_lose_no_fact():
    """after returns nothing for an event kind outside KINDS: skipping them loses no row."""
    for events in corpus()[::4]:
        s = GAME.initial_state(events[0])
        for e in events[1:]:
            GAME.step(s, e)
            if e.kind not in GAME.facts.KINDS:
                assert keng_facts.after(s, e) == (), e


def test_rows_agree_with_an_independent_count():
    """For every game of the corpus the collector's rows (count, first seq) are exactly the
    independent count's; the corpus makes every fact but the rare one happen."""
    seen: Counter[str] = Counter()
    for events in corpus():
        rows = facts_table([list(events)]).to_pylist()
        got = {(r["seat"], r["fact"]): [r["count"], r["first_seq"]] for r in rows}
        want = independent(events)
        assert got == want, events[0].game_id
        for (_, fact), (n, _) in want.items():
            seen[fact] += n
    rare = set(GAME.CONFORMANCE["rare_facts"])
    assert set(GAME.facts.names()) - rare <= set(seen), set(GAME.facts.names()) - set(seen)


# the kind of the event that makes each fact happen
FIRST_KIND = {
    "dealt_both_jokers": {"DEAL"}, "dealt_kings": {"DEAL"},
    "attacked_k": {"PLAY", "SNATCH"}, "stacked": {"PLAY", "SNATCH"},
    "skipped": {"PLAY", "SNATCH"}, "reversed": {"PLAY", "SNATCH"}, "named_suit": {"PLAY"},
    "multi_big_joker": {"PLAY"}, "challenged": {"DUEL_START"}, "won_duel": {"DUEL_END"},
    "lost_duel": {"DUEL_END"}, "took_big_draw": {"ACCEPT"}, "snatched": {"SNATCH"},
    "snatched_out": {"SNATCH"}, "false_claim": {"SNATCH"},
    "reported_last_card": {"LAST_CARD"}, "forgot_report": {"REPORT_PENALTY"},
    "went_out": {"GAME_END"}, "over_limit": {"GAME_END"},
}


def test_first_seq_is_the_event_that_made_the_fact():
    """Each row's first seq points at an event of the fact's kind, by the row's seat (a duel's
    winner: the loser's DUEL_END); that it is the first such event is checked against the
    independent count above."""
    assert set(FIRST_KIND) == set(GAME.facts.names())
    checked = 0
    for events in corpus()[:24]:
        for r in facts_table([list(events)]).to_pylist():
            e = events[r["first_seq"]]
            assert e.kind in FIRST_KIND[r["fact"]], r
            if r["fact"] == "won_duel":
                assert e.seat != r["seat"]
            else:
                assert e.seat == r["seat"], r
            checked += 1
    assert checked > 200


# ---------------------------------------------------------------- on positions

def collect(s, *events) -> dict[tuple[int, str], tuple[int, int]]:
    """Apply the events (an item may be a callable state -> Event) and then every automatic
    event owed, counting facts with a FactCollector as the replay does: (seat, fact) ->
    (count, first seq)."""
    s = s.copy()
    rng = random.Random(0)
    c = FactCollector()
    c.begin(GAME, s, Event("GAME_START", game_id=s.game_id, seq=0))
    assert c.after is not None
    for item in events:
        e = item(s) if callable(item) else item
        GAME.step(s, e)
        c.after(s, e)
        while (a := keng.auto_event(s, rng)) is not None:
            GAME.step(s, a)
            c.after(s, a)
    c.end(Verdict(s.game_id, "ok", s.seq))
    return {(r["seat"], r["fact"]): (r["count"], r["first_seq"])
            for r in c.table().to_pylist()}


def test_snatched_out_a_snatch_of_the_last_card_in_cycle_3():
    """抢出 (rare in self-play: cycle 3 is reached in few games): from cycle 3 a seat holding
    one card snatches with it and goes out (KENG-37 case 3, KENG-45, KENG-46)."""
    s = pos({0: "7h 2c 3c", 3: "7h"}, top="5h", to_act=0, cycle=3, window=False)
    s1 = run(s, play(s, 0, "7h"))
    got = collect(s, play(s, 0, "7h"), snatch(s1, 3, "7h", "valid"))
    assert got[(3, "snatched_out")] == (1, s1.seq)
    assert got[(3, "snatched")] == (1, s1.seq)
    assert got[(3, "went_out")] == (1, s1.seq + 1)           # the GAME_END right after
    # in cycle 2 the same claim is a forbidden case: a false call, not a snatch (KENG-37)
    s2 = pos({0: "7h 2c 3c", 3: "7h"}, top="5h", to_act=0, cycle=2, window=False)
    t = run(s2, play(s2, 0, "7h"))
    got = collect(s2, play(s2, 0, "7h"), snatch(t, 3, "7h", "false"))
    assert (3, "snatched_out") not in got and (3, "snatched") not in got
    assert got[(3, "false_claim")] == (1, t.seq)


def test_a_snatch_that_leaves_cards_is_not_snatched_out():
    """A valid snatch with cards left is a snatch, not 抢出."""
    s = pos({0: "7h 2c 3c", 3: "7h 9s"}, top="5h", to_act=0, cycle=3, window=False)
    s1 = run(s, play(s, 0, "7h"))
    got = collect(s, play(s, 0, "7h"), snatch(s1, 3, "7h", "valid"))
    assert got[(3, "snatched")] == (1, s1.seq) and (3, "snatched_out") not in got


@pytest.mark.parametrize(("cards", "pending", "v", "facts"), [
    ("Kh", 0, 3, {"attacked_k"}),
    ("Kh Kh", 0, 3, {"attacked_k"}),                     # P 4: a K pair alone
    ("Kh", 2, 3, {"stacked"}),                           # 叠加 on a K
    ("RJ", 0, 3, {"named_suit"}),                        # P 4: a lone RJ
    ("RJ", 2, 3, {"named_suit", "stacked"}),             # P 5
    ("RJ RJ", 0, 3, {"named_suit", "multi_big_joker"}),  # P 6 = 2v, nothing pending
    ("RJ RJ", 2, 4, {"named_suit", "multi_big_joker", "stacked"}),   # P 10
    ("RJ RJ RJ", 0, 4, {"named_suit", "multi_big_joker"}),           # P 12 = 3v
])
def test_stacked_or_not_read_from_the_pending_draw(cards, pending, v, facts):
    """K and RJ plays: stacked exactly when a draw was pending (KENG-24, KENG-26, KENG-27),
    for pairs and triples and both RJ stack values."""
    s = pos({0: f"{cards} 2c 3c"}, top="Kh", to_act=0, pending=pending,
            options={"keng_rj_stack_value": v})
    got = collect(s, play(s, 0, cards, "h" if cards.startswith("RJ") else None))
    assert {f for (seat, f) in got if seat == 0} == facts
    assert all(n == 1 for n, _ in got.values())


def test_snatched_k_is_stacked_before_the_acceptance_and_an_attack_after():
    """A snatched K (KENG-35) stacks on the draw its top K made unless the seat due to act has
    accepted it already (then P was 0)."""
    s = pos({0: "Kh 2c 3c", 1: "2d 3d", 4: "Kh 4c 6c"}, top="5h", to_act=0, cycle=2,
            window=False, stock="2s 3s 4s 6s 7s 8s")
    s1 = run(s, play(s, 0, "Kh"))
    got = collect(s, play(s, 0, "Kh"), snatch(s1, 4, "Kh", "valid"))
    assert got[(4, "stacked")] == (1, s1.seq) and (4, "attacked_k") not in got
    s2 = run(s1, accept(s1, 1))
    got = collect(s, play(s, 0, "Kh"), accept(s1, 1), snatch(s2, 4, "Kh", "valid"))
    assert got[(4, "attacked_k")] == (1, s2.seq) and (4, "stacked") not in got
    assert (1, "took_big_draw") not in got                   # a draw of 2 is not big


def _flips_an_ace() -> object:
    """A seeded game after the deal whose start card is an A (KENG-9)."""
    for seed in range(1, 500):
        e0 = keng.start_event("keng-flip", [f"p{i}" for i in range(6)], random.Random(seed))
        s, _ = settle(keng.initial_state(e0))
        if _rank(s.stock[0]) == ACE:
            return s
    raise AssertionError("no seed flips an A")


def test_a_start_card_duel_is_won_and_lost_but_not_challenged():
    """A flipped A (KENG-9) starts a duel between the flipper and the opener: its result
    counts (KENG-30), but the flipper did not choose to challenge (KENG-29)."""
    s0 = _flips_an_ace()
    flipper, opener = (s0.opener + 3) % 6, s0.opener
    s = s0
    actions = []
    while True:                       # the start card, then the first legal duel card each time
        a = keng.turn_actions(s)[0]
        actions.append(a)
        s, _ = settle(run(s, a))
        if s.duel is None:
            break
    got = collect(s0, *actions)
    assert not any(f == "challenged" for (_, f) in got)
    if s.is_over:                     # a duellist went out (KENG-30 step 6): no DUEL_END
        assert not any(f.endswith("_duel") for (_, f) in got)
        return
    lost = [seat for (seat, f) in got if f == "lost_duel"]
    won = [seat for (seat, f) in got if f == "won_duel"]
    assert len(lost) == 1 and {lost[0], *won} == {flipper, opener} and len(won) == 1
    assert got[(lost[0], "lost_duel")] == got[(won[0], "won_duel")]


def test_a_played_a_is_challenged_and_its_duel_result_counts():
    """An A played in turn starts a duel (挑, KENG-29): challenged for its player, then won or
    lost by the duellists at DUEL_END (KENG-30)."""
    s = pos({0: "Ah 2c 3c", 3: "9d 2d 4d"}, top="5h", to_act=0, stock="2s 3s 4s 6s 7s")
    got = collect(s, play(s, 0, "Ah"))     # seat 3 holds no heart and no A: it loses at once
    assert got[(0, "challenged")] == (1, s.seq + 1)           # the DUEL_START after the play
    assert got[(3, "lost_duel")] == (1, s.seq + 2)
    assert got[(0, "won_duel")] == (1, s.seq + 2)


def test_forgotten_report_and_big_draw_counted_once_across_a_reshuffle():
    """A draw split by a reshuffle is one draw (keng.md section 13): a big acceptance and a
    forgotten report each count once, at the first part."""
    s = pos({0: "7h 2c", 1: "2d 3d"}, top="Kh", to_act=1, pending=8, stock="2s 3s",
            table="9c 9d 8c 8d 6h 6s 4h")
    first = run(s, accept(s, 1))
    assert owed(first) == "RESHUFFLE"            # the rest, 6 cards, after the reshuffle
    got = collect(s, accept(s, 1))
    assert got[(1, "took_big_draw")] == (1, s.seq)
    s = pos({0: "7h 2c", 1: "2d 3d 4d"}, top="5h", to_act=0, stock="2s 3s 4s",
            table="9c 9d 8c 8d 6h 6s")
    s1 = run(s, play(s, 0, "7h"))
    s2 = run(s1, ev(s1, "DRAW", 1, "2s 3s", value=2))
    assert owed(s2) == "REPORT_PENALTY"
    got = collect(s, play(s, 0, "7h"), ev(s1, "DRAW", 1, "2s 3s", value=2))
    assert got[(0, "forgot_report")] == (1, s2.seq)
