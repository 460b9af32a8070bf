"""The reviewer (engine/review.py) on the eighth game: exact values on a crafted deal, the
grading scale and when a grade is withheld, the candidates, and the same seed giving the same
review."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.cards import parse_face
from engine.events import Event
from engine.games import find_game
from engine.games.frame import WIN_SCALE
from engine.review import (
    FUTILE_FROM,
    Settings,
    _grade,
    _hopeless,
    decision_points,
    grade,
    grade_best,
    review_decision,
    review_game,
    seat_options,
)
from engine.sim import simulate
from liujia.review_report import review_json

GAME = "toy_tricks"


def _crafted(g, seat0: str, seat1: str):
    """A two-seat, two-card game with the last trick counting two, seat 0 to lead, the hands
    given (the rest of the deck in order as the stock), dealt: the state and what seat 0 saw."""
    hands = [[parse_face(f) for f in h.split()] for h in (seat0, seat1)]
    rest = [c for c in range(52) if c not in hands[0] + hands[1]]
    opts = g.Options(trick_players=2, trick_hand_size=2, trick_last_bonus=True)
    e0 = g.start_event("toy-r", ["a", "b"], random.Random(0), opts)
    payload = json.loads(e0.payload)
    payload["leader"] = 0
    e0 = e0._replace(cards=(*hands[0], *hands[1], *rest), value=0,
                     payload=json.dumps(payload, separators=(",", ":"), sort_keys=True,
                                        ensure_ascii=False))
    s = g.initial_state(e0)
    seen = [g.seen_event(e0, 0)]
    while g.next_auto(s) == "DEAL":
        d = g.auto_event(s)
        seen.append(g.seen_event(d, 0))
        g.step(s, d)
    return s, seen


def _play(g, s, face: str) -> Event:
    return next(a for a in seat_options(g, s, 0) if a.cards == (parse_face(face),))


def test_exact_values_when_the_world_is_known(toy_game):
    # Seat 0 holds As 2h, seat 1 Ks 3h, the last trick counts two. Leading As wins trick one
    # but seat 1's 3h takes the last (1 : 2, a loss); leading 2h gives up trick one and the As
    # takes the last (1 : 2 the other way, a win). Every later play is forced.
    g = dataclasses.replace(find_game(GAME),
                            sample_world=lambda s, seat, rng, seen: s.copy())
    s, seen = _crafted(g, "As 2h", "Ks 3h")
    r = review_decision(g, s, 0, _play(g, s, "As"), seen, Settings(seed=1), 3)
    assert r is not None and r.options == 2
    assert [(c.action.cards, c.value, c.se) for c in r.candidates] == [
        ((parse_face("2h"),), 1.0, 0.0), ((parse_face("As"),), 0.0, 0.0)]
    assert (r.chosen, r.loss, r.loss_se, r.grade, r.withheld, r.flag) == \
        (1, 1.0, 0.0, "blunder", None, True)
    assert r.candidates[1].p_best == 0.0 and r.candidates[0].p_best == 1.0
    assert r.best.line[0].cards == (parse_face("3h"),)        # the better line, forced reply
    good = review_decision(g, s, 0, _play(g, s, "2h"), seen, Settings(seed=1), 3)
    assert (good.chosen, good.loss, good.grade, good.flag) == (0, 0.0, None, False)


def test_hidden_cards_are_sampled_not_read(toy_game):
    """With the real sampler seat 0 does not know seat 1 holds Ks 3h: leading As is no longer
    a sure loss, and the values are estimates with their errors."""
    g = find_game(GAME)
    s, seen = _crafted(g, "As 2h", "Ks 3h")
    r = review_decision(g, s, 0, _play(g, s, "As"), seen, Settings(seed=1, max_worlds=64), 3)
    values = {c.action.cards: c.value for c in r.candidates}
    assert 0.0 < values[(parse_face("As"),)] < 1.0
    assert all(0 < c.se < 0.2 for c in r.candidates)
    assert r.worlds >= 16


@pytest.mark.parametrize("loss, se, want", [
    (0.049, 0.0, (None, None)), (0.05, 0.0, ("inaccuracy", None)),
    (0.10, 0.01, ("mistake", None)), (0.149, 0.025, ("mistake", None)),
    (0.15, 0.02, ("blunder", None)), (0.2, 0.026, (None, "withheld")),
    (0.9, 0.026, ("blunder", None)), (0.2, 0.0255, ("blunder", None)),
    (0.201, 0.026, ("blunder", None)), (0.2009, 0.026, (None, "withheld")),
])
def test_lichess_steps_and_withholding(loss, se, want):
    g, why = grade(loss, se, WIN_SCALE.steps)
    assert g == want[0]
    assert (why is not None) == (want[1] == "withheld")
    if why:
        assert "exceeds half a step (0.025)" in why


@pytest.mark.parametrize("diff, se, withheld", [
    (0.0, 0.0, False), (-0.2, 0.05, False), (0.0, 0.025, False), (0.0, 0.0256, True),
    (-0.01, 0.03, False), (0.0, 0.03, True), (-0.3, 0.2, True),
])
def test_a_chosen_best_is_settled_only_when_no_candidate_may_be_a_step_better(diff, se,
                                                                              withheld):
    why = grade_best(diff, se, WIN_SCALE.steps)
    assert (why is not None) == withheld
    if why:
        assert "may be better by a step" in why


def test_a_best_by_luck_of_a_few_worlds_is_withheld_not_settled(toy_game):
    """The 三打三 case that graded 'best' under one seed and 'blunder' under another: the chosen
    ties the top mean over 16 worlds, but another candidate differs from it in many of them;
    its loss is 0 with that candidate's error, not 0 ± 0, and the grade waits for more worlds.
    Candidates identical in every world leave nothing in doubt."""
    g = find_game(GAME)
    wins = [1.0, 0.0] * 8
    other = [0.0, 1.0] * 8                      # the same mean, differing in every world
    best, loss, se, grade_, why = _grade(g, [wins, other])
    assert (best, loss, grade_) == (0, 0.0, None)
    assert se == pytest.approx(0.258, abs=0.001) and why is not None
    assert _grade(g, [wins, list(wins)])[2:] == (0.0, None, None)
    assert _grade(g, [wins, [w - 0.5 for w in wins]])[4] is None    # surely worse: settled


def test_worlds_stop_early_only_where_more_could_not_settle_the_grade(toy_game):
    """At FUTILE_FROM (128) worlds, a small loss differing in every world (error ~0.09) would
    still have an error over half a step at 256: stop. The same at 64 worlds: too early to
    say. A loss of 0.3 with a large error would be surely past the last step at 256: go on. A
    difference in one world: settled long before, never stopped as hopeless."""
    g = find_game(GAME)
    n = FUTILE_FROM
    chosen = [0.0, 1.0] * (n // 2)
    better = [1.0, 0.0] * (n // 2)
    better[:4] = [1.0, 1.0, 1.0, 1.0]                 # loss 2/n
    assert _grade(g, [chosen, better])[4] is not None
    assert _hopeless(g, [chosen, better], 256)
    assert not _hopeless(g, [chosen[:64], better[:64]], 256)
    assert not _hopeless(g, [chosen, better], n)      # the last batch is the limit anyway
    q = n // 8
    far = [1.0] * (6 * q) + [0.0] * (2 * q)
    worse = [0.0] * (3 * q) + [1.0] * (3 * q) + [1.0] * q + [0.0] * q    # loss 0.25
    best, loss, se, *_ = _grade(g, [worse, far])
    assert (best, loss) == (1, 0.25) and se > 0.025
    assert not _hopeless(g, [worse, far], 256)
    assert not _hopeless(g, [[0.0] * n, [1.0] + [0.0] * (n - 1)], 256)


def test_forced_moves_are_not_reviewed_and_the_chosen_is_always_a_candidate(toy_game):
    sim = next(iter(simulate(GAME, 1, 4, policy_name="random")))
    r = review_game(sim.events, range(4), Settings(seed=2, max_worlds=16, candidates=2))
    plays = [e for e in sim.events if e.kind == "PLAY"]
    assert 0 < len(r.decisions) < len(plays)                    # the forced ones are left out
    by_seq = {e.seq: e for e in sim.events}
    for d in r.decisions:
        assert d.options >= 2 and len(d.candidates) == 2
        assert d.candidates[d.chosen].action.cards == by_seq[d.seq].cards


def test_the_same_seed_gives_the_same_review_and_another_seed_other_worlds(toy_game):
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    one = review_json(review_game(sim.events, [1], Settings(seed=7, max_worlds=32)))
    assert one == review_json(review_game(sim.events, [1], Settings(seed=7, max_worlds=32)))
    other = review_json(review_game(sim.events, [1], Settings(seed=8, max_worlds=32)))
    assert [d["seq"] for d in other["decisions"]] == [d["seq"] for d in one["decisions"]]
    assert other != one


def test_a_budget_stops_between_decisions(toy_game):
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    points = len(list(decision_points(sim.events, range(4))))
    r = review_game(sim.events, range(4), Settings(seed=1), budget=1e-9)
    assert r.stopped == "budget" and r.decisions == [] and r.pending == points > 0


def test_the_quality_harness_plays_duplicate_deals_and_compares_seeds(toy_game):
    from tests.bench.review_quality import stability, strength
    st = strength(GAME, 2, 1, Settings(seed=1, min_worlds=16, max_worlds=16),
                  find_game(GAME).Options(trick_players=2))
    assert st["samples"] == 4 and -1.0 <= st["mean_diff"] <= 1.0
    from tests.bench.review_quality import deal_diffs
    opts = find_game(GAME).Options(trick_players=2)
    play = Settings(seed=1, min_worlds=4, max_worlds=4)
    every = [deal_diffs(GAME, d, 1, play, opts) for d in range(4)]
    one = [deal_diffs(GAME, d, 1, play, opts, seats="one") for d in range(4)]
    assert one == [[xs[d % 2]] for d, xs in enumerate(every)]        # seat d mod n of deal d
    apart = strength(GAME, 4, 1, play, opts, seats="one", workers=2)
    assert apart["samples"] == 4 and apart["mean_diff"] == sum(x for [x] in one) / 4
    sb = stability(GAME, 1, 1, Settings(seed=1, max_worlds=16))
    assert sb["graded_in_both"] > 0 and 0.0 <= sb["agree"] <= 1.0


def test_ctrl_c_keeps_the_decisions_already_reviewed(toy_game, monkeypatch):
    import engine.review as review
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    real, calls = review.review_decision, []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "review_decision", interrupted)
    r = review_game(sim.events, range(4), Settings(seed=1, max_worlds=16))
    points = len(list(decision_points(sim.events, range(4))))
    assert r.stopped == "interrupted" and r.pending == points - 3
    assert 0 < len(r.decisions) <= 3


def test_a_decision_that_cannot_be_reviewed_is_named_and_the_others_go_on(toy_game, monkeypatch):
    import engine.review as review
    from engine.errors import EngineError
    from liujia.review_report import review_lines
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    real, calls = review.review_decision, []

    def failing(game, state, seat, chosen, seen, settings, seq):
        calls.append(seq)
        if len(calls) == 2:
            raise EngineError("no world consistent with seat 1's view found in 400 draws")
        return real(game, state, seat, chosen, seen, settings, seq)

    monkeypatch.setattr(review, "review_decision", failing)
    r = review_game(sim.events, range(4), Settings(seed=1, max_worlds=16))
    assert r.failed == [(calls[1], "no world consistent with seat 1's view found in 400 draws")]
    assert r.stopped == "done" and len(r.decisions) >= 5
    head = review_lines(r)[0]
    assert f"1 could not be reviewed (seq {calls[1]}: no world consistent" in head
    assert review_json(r)["failed"] == [{"seq": calls[1], "why": r.failed[0][1]}]


def test_decisions_reviewed_in_worker_processes_give_the_same_review(toy_game):
    from concurrent.futures import ProcessPoolExecutor
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    settings = Settings(seed=7, max_worlds=32)
    here = review_json(review_game(sim.events, range(4), settings))
    with ProcessPoolExecutor(2) as pool:
        apart = review_game(sim.events, range(4), settings, submit=pool.submit)
    assert apart.stopped == "done" and review_json(apart) == here
    assert here["decisions"]


def test_a_budget_cancels_the_decisions_not_done_in_workers(toy_game):
    from concurrent.futures import ThreadPoolExecutor
    sim = next(iter(simulate(GAME, 1, 6, policy_name="greedy")))
    points = len(list(decision_points(sim.events, range(4))))
    with ThreadPoolExecutor(1) as pool:
        r = review_game(sim.events, range(4), Settings(seed=1), budget=1e-9,
                        submit=pool.submit)
    assert r.stopped == "budget" and r.pending + len(r.decisions) == points > len(r.decisions)
