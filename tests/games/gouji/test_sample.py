"""够级's worlds for review (engine/games/gouji/sample.py): what the seat knows is counted right
(each other seat's hidden cards, the unseen cards); before any play every unseen card lands in
every other hand; the cut card is its holder's (GJ-6); hand sizes, the cards shown and played,
the teams and the places are those of the game and the world's log replays; a seat that played
a 3 holds only 3s (GJ-28); a stifled seat's dead cards are its 3 and a seat that was not
stifled when it could have been holds no stifled hand (GJ-44); the 会五 team holds no 5 after
it, and a swept team that owed none held none (GJ-35); a pass is not read as holding no
answer (GJ-22, GJ-23) — and these hold by construction, not by drawing until the engine
agrees."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from engine.errors import EngineError
from engine.events import Event
from engine.games import find_game, gouji
from engine.games.gouji import sample as gs
from engine.games.gouji.actions import turn_actions
from engine.games.gouji.cards import FIVE, PACK, STRENGTH, THREE
from engine.games.gouji.position import seen_event
from engine.games.gouji.state import GoujiState
from engine.review import decision_points
from engine.sim import simulate

from .conftest import GAME_ID, PLAYERS

GAME = "gouji"
Point = tuple[int, GoujiState, Event, tuple[Event, ...]]


@cache
def _session() -> tuple[tuple[Event, ...], ...]:
    """Seven random-bot games with ``kaidian_effect=record`` (tests/dashboards/conftest.py):
    闷 in games 1, 2, 5, 6; 会五 in games 1, 5, 6; the cut in game 0."""
    return tuple(tuple(x.events) for x in simulate(
        GAME, 7, seed=10, options=gouji.Options(kaidian_effect="record")))


@cache
def _game(seed: int, index: int, policy: str = "random") -> tuple[Event, ...]:
    """Game ``index`` of a seeded self-played session."""
    sims = itertools.islice(simulate(GAME, index + 1, seed, policy_name=policy), index + 1)
    return tuple(list(sims)[-1].events)


def _points(events: tuple[Event, ...]) -> Iterator[Point]:
    """The decision points after the deal (before it nothing is hidden)."""
    return (p for p in decision_points(list(events), range(6)) if p[1].stage != "direction")


def _hidden_truth(s: GoujiState, me: int) -> Counter[int]:
    """The auditor's view of what the seat cannot see: the other seats' hands."""
    return sum((Counter(s.hands[z]) for z in range(6) if z != me), Counter())


class _Counted:
    """Count the engine replays of drawn worlds (a refused one is drawn again)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.replays = 0
        real = gs._world

        def counted(*a):
            self.replays += 1
            return real(*a)

        monkeypatch.setattr(gs, "_world", counted)


def test_the_seat_knows_each_hidden_count_and_the_unseen_cards():
    checked = 0
    for events in (*_session()[:3], _game(5, 1)):
        for seq, s, e, seen in list(_points(events))[::7]:
            k = gs._knowledge(s, e.seat, seen)
            assert k.hidden == {z: len(s.hands[z]) for z in range(6) if z != e.seat}, seq
            assert Counter(k.pool) == _hidden_truth(s, e.seat), seq
            checked += 1
    assert checked > 100


def test_before_any_play_every_unseen_card_can_be_in_every_other_hand():
    g = find_game(GAME)
    for events in _session()[3:5]:                 # later games: no cut card
        seq, s, e, seen = next(p for p in _points(events) if p[1].stage == "play")
        me = e.seat
        unseen = _hidden_truth(s, me)
        where: dict[int, set[int]] = {c: set() for c in unseen}
        rng = random.Random(1)
        for _ in range(80):
            w = g.sample_world(s, me, rng, seen)
            assert w.hands[me] == s.hands[me]
            for z in range(6):
                for c in w.hands[z] if z != me else ():
                    where[c].add(z)
        others = {z for z in range(6) if z != me}
        assert where == {c: others for c in unseen}


def test_the_cut_card_is_dealt_to_its_holder():
    """GJ-6: whoever received the face-up cut card was dealt its face, in every world."""
    events = _session()[0]
    cut = [x for x in events if x.kind == "CUT"][-1].cards[0]
    seq, s, e, seen = next(p for p in _points(events)
                           if p[1].stage == "play" and p[2].seat != p[1].cut_holder)
    holder = s.cut_holder
    rng = random.Random(4)
    for _ in range(40):
        w, log = gs.sample_log(s, e.seat, rng, seen)
        deal = next(x for x in log if x.kind == "DEAL")
        assert deal.cards[deal.value] == cut
        assert cut in w.hands[holder] or cut in [c for x in seen if x.kind == "PLAY"
                                                 and x.seat == holder for c in x.cards]


def test_worlds_keep_sizes_cards_teams_and_places_and_their_logs_replay():
    g = find_game(GAME)
    checked = 0
    for events in _session()[1:3]:
        for seq, s, e, seen in list(_points(events))[::11]:
            me = e.seat
            w, log = gs.sample_log(s, me, random.Random(seq), seen)
            assert w.hands[me] == s.hands[me] and w.played == s.played
            assert [len(h) for h in w.hands] == [len(h) for h in s.hands], seq
            assert _hidden_truth(w, me) == _hidden_truth(s, me), seq
            assert (w.out_pos, w.out_how, w.opened, w.burner) == \
                (s.out_pos, s.out_how, s.opened, s.burner)
            assert g.sides(w, me) == g.sides(s, me)
            replayed = gouji.initial_state(log[0])
            for x, y in zip(log, seen, strict=True):
                assert seen_event(x, me) == y
                if x.seq:
                    replayed = gouji.apply(replayed, x)
            assert replayed == w
            checked += 1
    assert checked > 40


def test_the_hidden_hands_are_drawn_again():
    seq, s, e, seen = list(_points(_session()[3]))[60]
    worlds = {tuple(gs.sample_world(s, e.seat, random.Random(i), seen).hands)
              for i in range(20)}
    assert len(worlds) == 20


def test_a_seat_that_played_a_3_holds_only_3s(monkeypatch):
    """GJ-28: seat 3 played a 3 at seq 278 and kept a card; it is a 3 in every world (39
    cards unseen: without the rule most draws would give it another)."""
    events = _game(4, 2)
    x = next(x for x in events if x.seq == 278)
    assert x.kind == "PLAY" and x.seat == 3 and any(STRENGTH[c] == THREE for c in x.cards)
    seq, s, e, seen = next(p for p in _points(events) if p[0] > 278 and p[2].seat != 3)
    assert s.hands[3] and not s.out_pos[3]
    counted = _Counted(monkeypatch)
    rng = random.Random(5)
    for _ in range(30):
        w = gs.sample_world(s, e.seat, rng, seen)
        assert w.hands[3] and all(STRENGTH[c] == THREE for c in w.hands[3])
    assert counted.replays == 30                     # no world was refused by the engine


@pytest.mark.parametrize("game, men_seq", [(2, 287), (5, 230), (6, 224)])
def test_a_stifled_seat_holds_its_3(game, men_seq, monkeypatch):
    """GJ-44: the dead cards of a stifled seat are its one 3 (``men_scope = single_three``)."""
    events = _session()[game]
    out = next(x for x in events if x.seq == men_seq)
    assert out.kind == "OUT" and out.tag == "men"
    seq, s, e, seen = next(p for p in _points(events) if p[0] > men_seq
                           and p[2].seat != out.seat)
    counted = _Counted(monkeypatch)
    rng = random.Random(6)
    for _ in range(20):
        w = gs.sample_world(s, e.seat, rng, seen)
        assert len(w.hands[out.seat]) == 1 and STRENGTH[w.hands[out.seat][0]] == THREE
    assert counted.replays == 20


def test_a_seat_not_stifled_when_it_could_have_been_held_no_lone_3(monkeypatch):
    """GJ-44: a seat left with one card whose play was beaten, and which was not stifled,
    does not hold a 3 — in every world, with no world refused."""
    counted = _Counted(monkeypatch)
    cases = worlds = 0
    for events in _session()[:4]:
        for seq, s, e, seen in list(_points(events))[::5]:
            k = gs._knowledge(s, e.seat, seen)
            lone = [m for m, later, stifled in k.beaten
                    if m != e.seat and not later and not stifled and k.hidden[m] == 1]
            if not lone:
                continue
            cases += 1
            for i in range(5):
                w = gs.sample_world(s, e.seat, random.Random(i), seen)
                worlds += 1
                assert all(STRENGTH[w.hands[m][0]] != THREE for m in lone), seq
    assert cases >= 5 and counted.replays == worlds


@pytest.mark.parametrize("game", [1, 5, 6])
def test_after_the_huiwu_its_team_holds_no_5(game, monkeypatch):
    """GJ-35: every member played every 5 he held in the 会五."""
    events = _session()[game]
    hw = next(x for x in events if x.kind == "HUIWU")
    team = [int(z) for z in json.loads(hw.payload)]
    counted = _Counted(monkeypatch)
    n = 0
    for seq, s, e, seen in [p for p in _points(events) if p[0] > hw.seq][::13]:
        rng = random.Random(seq)
        for _ in range(3):
            w = gs.sample_world(s, e.seat, rng, seen)
            n += 1
            assert not any(STRENGTH[c] == FIVE for z in team for c in w.hands[z]), seq
    assert n > 20 and counted.replays == n


def _huiwu_game(odd_fives: bool) -> tuple[GoujiState, list[Event]]:
    """A game owing the odd team's 会五 (starter seat 1), dealt so that the odd seats hold
    5s or not; the state after the deal and the events seat 0 saw."""
    e0 = gouji.start_event(GAME_ID, PLAYERS, random.Random(0), game_no=2, direction=1,
                           starter=1, huiwu_team="odd")
    s = gouji.initial_state(e0)
    rest = [c for c in PACK if STRENGTH[c] != FIVE]
    fives = [c for c in PACK if STRENGTH[c] == FIVE]
    random.Random(3).shuffle(rest)
    # card k goes to seat 1 + k (mod 6): even k to odd seats, odd k to even seats
    n = 90 if odd_fives else 98                      # 98 cards to each team
    odd, even = rest[:n] + (fives[:8] if odd_fives else []), rest[n:] + fives[8 * odd_fives:]
    deal = tuple(c for pair in zip(odd, even, strict=True) for c in pair)
    e1 = Event("DEAL", 1, deal, -1, -1, "+1", None, s.game_id, 1)
    s = gouji.apply(s, e1)
    return s, [seen_event(e0, 0), seen_event(e1, 0)]


@pytest.mark.parametrize("odd_fives", [True, False])
def test_a_swept_team_owing_the_huiwu_holds_a_5_exactly_when_it_is_due(odd_fives, monkeypatch):
    """GJ-35: in the declaration window ``huiwu_due`` (public) says whether the swept team
    holds a 5; without one it led normally and held none."""
    s, seen = _huiwu_game(odd_fives)
    assert s.huiwu_due == odd_fives and s.to_act == 1
    counted = _Counted(monkeypatch)
    rng = random.Random(7)
    for _ in range(20):
        w = gs.sample_world(s, 0, rng, seen)
        odd = sum(STRENGTH[c] == FIVE for z in (1, 3, 5) for c in w.hands[z])
        assert (odd > 0) == odd_fives
    assert counted.replays == 20
    if not odd_fives:                  # the starter leads; the window closes, no 5 came out
        lead = next(a for a in gouji.legal_actions(s) if a.kind == "PLAY")
        t = gouji.apply(s, lead)
        w = gs.sample_world(t, 0, rng, [*seen, lead])
        assert not any(STRENGTH[c] == FIVE for z in (1, 3, 5) for c in w.hands[z])


def test_a_pass_is_not_read_as_holding_no_answer():
    """GJ-22, GJ-23: passing is allowed with an answer in hand, so the worlds are not
    weighted by it: in some world a seat that passed could have answered."""
    events = _session()[3]
    seq, s, e, seen = list(_points(events))[80]
    me = e.seat
    could = 0
    for i in range(5):
        _, log = gs.sample_log(s, me, random.Random(i), seen)
        t = gouji.initial_state(log[0])
        for x in log[1:]:
            if x.kind == "PASS" and x.seat != me:
                could += any(a.kind == "PLAY" for a in turn_actions(t))
            t = gouji.apply(t, x)
    assert could > 0


def test_the_events_must_start_with_game_start():
    seq, s, e, seen = next(_points(_session()[3]))
    with pytest.raises(EngineError, match="from GAME_START on"):
        gs.sample_world(s, e.seat, random.Random(0), seen[1:])


def test_an_answer_whose_tag_depends_on_a_hidden_lone_3_is_reviewed_in_every_world():
    """Game 22 of seed 1, seq 150: seat 3 answers with one card where the seat on top holds
    a lone 3 (the answer's tag says it does not open a 够级 phase, GJ-44); in worlds where that
    seat holds more, the engine tags the same play otherwise. The review takes the world's
    play of the same cards (``in_world``) instead of failing the decision."""
    from engine.review import Settings, _rng, in_world, review_decision
    g = find_game(GAME)
    sim = next(itertools.islice(simulate(GAME, 23, 1, policy_name="greedy"), 22, None))
    seq, s, e, seen = next(p for p in decision_points(sim.events, range(6)) if p[0] == 150)
    worlds = [g.sample_world(s, e.seat, _rng(1, seq, "world", w), seen) for w in range(8)]
    taken = [in_world(g, w, e) for w in worlds]
    assert all(sorted(t.cards) == sorted(e.cards) and t.kind == e.kind for t in taken)
    assert {t.tag for t in taken} - {e.tag}               # some world tags it otherwise
    r = review_decision(g, s, e.seat, e, seen, Settings(seed=1, max_worlds=16), seq)
    assert r is not None and r.worlds == 16
