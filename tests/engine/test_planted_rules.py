"""The planted-blunder rules of the review-quality harness (``tests/bench/planted.py``): one per
registered game; on seeded greedy games each finds cases, plants only a legal option of the
seat other than the chosen action, and does what its docstring claims — the chosen action wins
at once (the seat goes out, or its side wins) while the planted one does not."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from engine.events import Event
from engine.games import BUILT_IN, find_game
from engine.games.base import Game
from engine.games.ddz6.play import side_code
from engine.games.frame import WIN
from engine.games.gouji.cards import STRENGTH
from engine.games.gouji.rules import POINTS
from engine.games.gouji.state import team_of
from engine.games.gouji.turns import stifleable
from engine.review import action_key, decision_points, seat_options
from engine.sim import simulate
from tests.bench.planted import BLUNDERS, THREAT, gouji_result_open


def _settled(game: Game, s: Any, e: Event) -> Any:
    """The state after the event and the automatic events it makes owed (a new state; the
    input is unchanged)."""
    s = game.apply(s, e._replace(seq=s.seq))
    rng = random.Random(0)
    while not game.is_over(s):
        a = game.auto_event(s, rng)
        if a is None:
            break
        s = game.apply(s, a._replace(seq=s.seq))
    return s


def _wins(game: Game, s: Any, seat: int) -> bool:
    """True if the game (the hand) is over with a win for the seat (its side's)."""
    out = game.outcomes(s) if game.is_over(s) else None
    return out is not None and out[seat].result == WIN


def _decisions(gid: str, games: int, seed: int, options: Any = None):
    """(game, state before, chosen, the seat's options, planted or None) of every decision of
    the seeded greedy games, the game's rule asked at each (as the harness asks it)."""
    game = find_game(gid)
    rule = BLUNDERS[gid]
    for sim in simulate(gid, games, seed, policy_name="greedy", options=options):
        for _seq, s, e, _seen in decision_points(sim.events, range(len(sim.final.players))):
            options_now = seat_options(game, s, e.seat)
            yield game, s, e, options_now, rule(game, s, e, options_now)


def _cases(gid: str, games: int, seed: int, options: Any = None):
    """(game, state before, chosen, planted, state after chosen, after planted) of every
    decision of the seeded greedy games where the game's rule plants a blunder, after checking
    it is one of the seat's options and not the chosen action."""
    out = []
    for game, s, e, options_now, bad in _decisions(gid, games, seed, options):
        if bad is None:
            continue
        assert action_key(bad) in {action_key(a) for a in options_now}, (gid, e, bad)
        assert action_key(bad) != action_key(e), (gid, e, bad)
        assert bad.seat == e.seat
        out.append((game, s, e, bad, _settled(game, s, e), _settled(game, s, bad)))
    assert out, f"{gid}: the rule found no case in {games} greedy games (seed {seed})"
    return out


def test_every_registered_game_has_a_rule_with_its_rule_ids():
    assert set(BLUNDERS) == set(BUILT_IN)
    for gid, rule in BLUNDERS.items():
        first = (rule.__doc__ or "").split("\n")[0]
        assert f"{find_game(gid).RULE_PREFIX}-" in first, (gid, first)


def test_modaoshuang_draws_instead_of_playing_the_winning_last_card():
    opts = find_game("modaoshuang").Options(mds_players=4)
    for _g, s, e, bad, won, planted in _cases("modaoshuang", 30, 1, opts):
        assert len(s.hands[e.seat]) == 1 and e.kind == "PLAY"
        assert won.winner == e.seat                        # MDS-33: it went out and won
        assert bad.kind == "DRAW"
        assert planted.winner != e.seat and len(planted.hands[e.seat]) > 1


@pytest.mark.parametrize("options, games, seed", [
    ({"keng_draw_when_able": True}, 8, 1),     # a DRAW beside every going-out turn play
    ({}, 2, 1),                                # the default: a going-out stack, or ACCEPT
])
def test_keng_keeps_its_cards_instead_of_going_out(options, games, seed):
    opts = find_game("keng").Options(**options)
    cases = _cases("keng", games, seed, opts)
    for g, s, e, bad, won, planted in cases:
        assert not won.hands[e.seat] and _wins(g, won, e.seat)     # KENG-46
        assert bad.kind in ("ACCEPT", "DRAW", "PASS")
        assert not g.is_over(planted) and len(planted.hands[e.seat]) > len(s.hands[e.seat])
    if not options:
        assert {bad.kind for *_, bad, _w, _p in cases} == {"ACCEPT"}
        assert all(s.pending > 0 for _g, s, *_ in cases)


def _gouji_results(s: Any, seat: int) -> set[int]:
    """The seat's team results (1 win, 0 draw, -1 loss, GJ-32) over every order in which the
    active seats may take the free places (GJ-31)."""
    mine = team_of(seat)
    free = [p for p in range(1, 7) if p not in s.out_pos]
    active = [i for i in range(6) if not s.out_pos[i]]
    taken = [(i, p) for i, p in enumerate(s.out_pos) if p]
    out = set()
    for order in itertools.permutations(free):
        total = sum(POINTS[p] * (1 if team_of(i) == mine else -1)
                    for i, p in taken + list(zip(active, order, strict=True)))
        out.add((total > 0) - (total < 0))
    return out


def test_gouji_keeps_a_lone_three_instead_of_going_out():
    kinds = set()
    for _g, s, e, bad, won, planted in _cases("gouji", 12, 1):
        assert not won.hands[e.seat] and won.out_pos[e.seat] > 0     # GJ-29: out, placed
        assert bad.kind == "PLAY"
        assert stifleable(planted, e.seat) and len(planted.hands[e.seat]) == 1   # GJ-44
        assert planted.out_pos[e.seat] == 0
        assert len(_gouji_results(s, e.seat)) > 1                  # the result is open
        kinds.add("lead" if s.top_seat < 0 else "answer")
    assert "lead" in kinds


def test_gouji_plants_nothing_once_the_team_result_is_decided():
    decided = open_ = 0
    for _g, s, e, options_now, bad in _decisions("gouji", 12, 1):
        if e.kind != "PLAY" or len(e.cards) != len(s.hands[e.seat]):
            continue
        hand = Counter(s.hands[e.seat])
        lone_three = [a for a in options_now if a.kind == "PLAY"
                      and [STRENGTH[c] for c in (hand - Counter(a.cards)).elements()] == [3]]
        if not lone_three:
            assert bad is None
            continue
        results = _gouji_results(s, e.seat)
        assert gouji_result_open(s, e.seat) == (len(results) > 1)
        assert (bad is None) == (len(results) == 1)
        decided += len(results) == 1
        open_ += len(results) > 1
    assert decided and open_


@pytest.mark.parametrize("gid", ["ddz6_3v3", "ddz6_2v4", "ddz6_zhengfan"])
def test_ddz6_passes_instead_of_going_out_on_an_opponents_play(gid):
    for g, s, e, bad, won, planted in _cases(gid, 6, 1):
        assert not won.hands[e.seat] and _wins(g, won, e.seat)     # DDZ-76
        assert min(len(h) for i, h in enumerate(s.hands)
                   if h and side_code(s, i) == side_code(s, s.top_seat)) <= THREAT
        assert not _wins(g, won, s.top_seat)                        # an opponent's play
        assert bad.kind == "PASS"
        assert not g.is_over(planted) and planted.hands[e.seat] == s.hands[e.seat]


def test_ddz6_plants_nothing_while_every_opponent_is_far_from_out():
    near = far = 0
    for _g, s, e, options_now, bad in _decisions("ddz6_2v4", 12, 1):
        if e.kind != "PLAY" or len(e.cards) != len(s.hands[e.seat]) or s.top_seat < 0 \
                or side_code(s, s.top_seat) in (side_code(s, e.seat), -1) \
                or not any(a.kind == "PASS" for a in options_now):
            continue
        closest = min(len(h) for i, h in enumerate(s.hands)
                      if h and side_code(s, i) == side_code(s, s.top_seat))
        assert (bad is None) == (closest > THREAT), (closest, bad)
        near += closest <= THREAT
        far += closest > THREAT
    assert near and far


def test_liuhu_discards_the_winning_card_instead_of_declaring_zimo():
    for g, s, e, bad, won, planted in _cases("liuhu", 25, 1):
        assert e.kind == "HU" and e.tag == "zimo" and _wins(g, won, e.seat)     # LH-28
        assert bad.kind == "DISCARD" and bad.cards == (s.drawn,)
        assert not g.is_over(planted)
        assert planted.hands[e.seat].count(s.drawn) == s.hands[e.seat].count(s.drawn) - 1
