"""Sections 1-5 of keng.md: overview, deck, seats and teams, options, opener, deal, start card."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import parse_face
from engine.errors import IllegalMove
from engine.events import Event
from engine.games import keng
from engine.games.keng.cards import CLASS, IS_JOKER, IS_NUMBER, SUIT, deck
from engine.games.keng.options import KengOptions
from engine.games.keng.state import team_of
from engine.sim import simulate

from .conftest import (
    GAME_ID,
    PLAYERS,
    cards_of,
    duel_play,
    ev,
    hand,
    kinds,
    play,
    pos,
    rejected,
    run,
    settle,
    started,
)


def _start(options: KengOptions | None = None, seed: int = 1, opener: int | None = None):
    return keng.start_event(GAME_ID, PLAYERS, random.Random(seed), options, opener=opener)


def _with_payload(e0: Event, **changes) -> Event:
    p = json.loads(e0.payload)
    p.update(changes)
    return e0._replace(payload=json.dumps(p))


def _start_error(e0: Event) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        keng.initial_state(e0)
    return info.value


# ---------------------------------------------------------------- KENG-1, KENG-2 (overview)

@pytest.mark.parametrize("seed", [11, 12, 13])
def test_keng_1_shedding_game_of_two_teams_ends_with_a_team_result(seed):
    """KENG-1/KENG-2: a seeded self-play game is a shedding game between the even and odd
    teams: it ends when a seat has played all its cards (its team wins) or holds more than the
    hand limit (its team loses)."""
    sim = next(simulate("keng", 1, seed))
    s = sim.final
    assert s.is_over
    r = s.result
    seat = r["deciding_seat"]
    limit = s.options.keng_hand_limit
    if r["reason"] == "out":
        assert s.hands[seat] == ()
        assert r["winning_team"] == ("even", "odd")[seat % 2]
    else:
        assert r["reason"] == "over_limit"
        assert len(s.hands[seat]) > limit
        assert r["winning_team"] == ("odd", "even")[seat % 2]
    assert any(e.kind == "PLAY" for e in sim.events)
    assert sim.events[-1].kind == "GAME_END"


def test_keng_1_play_matches_by_suit_or_rank():
    """KENG-1: a card must match the previous card by suit or by rank."""
    s = pos({0: "5s 9h 9c"}, top="5h")
    run(s, play(s, 0, "5s"))
    run(s, play(s, 0, "9h"))
    assert rejected(s, play(s, 0, "9c")).rule_id == "KENG-17"


# ---------------------------------------------------------------- KENG-3 deck

def test_keng_3_default_deck_has_158_cards_in_the_stated_composition():
    """KENG-3: Default deck has 158 cards in the stated composition."""
    d = deck(KengOptions())
    assert len(d) == 158
    c = Counter(d)
    by_class = Counter()
    for face, n in c.items():
        by_class[CLASS[face]] += n
    assert by_class == {"N": 108, "A": 8, "K": 12, "Q": 12, "J": 12, "BJ": 3, "RJ": 3}
    assert c[parse_face("Th")] == 3 and c[parse_face("2s")] == 3
    assert c[parse_face("As")] == 2 and c[parse_face("Kd")] == 3


def test_keng_3_options_change_the_deck():
    """KENG-3: Options change the deck."""
    d = deck(KengOptions(keng_tens=False, keng_black_jokers=6, keng_red_jokers=4))
    c = Counter(d)
    assert len(d) == 96 + 8 + 36 + 6 + 4
    assert all(c[parse_face("T" + s)] == 0 for s in "shcd")
    assert c[parse_face("BJ")] == 6 and c[parse_face("RJ")] == 4


def test_keng_3_game_start_with_a_wrong_deck_is_rejected():
    """KENG-3: Game start with a wrong deck is rejected."""
    e0 = _start()
    cards = list(e0.cards)
    cards[cards.index(parse_face("2s"))] = parse_face("RJ")   # a fourth RJ, one 2s short
    assert _start_error(e0._replace(cards=tuple(cards))).rule_id == "KENG-3"
    assert _start_error(e0._replace(cards=e0.cards[:-1])).rule_id == "KENG-3"


# ---------------------------------------------------------------- KENG-4 card classes

def test_keng_4_number_cards_are_2_to_10_everything_else_is_a_function_card():
    """KENG-4: Number cards are 2 to 10 everything else is a function card."""
    for r in "23456789T":
        for s in "shcd":
            assert IS_NUMBER[parse_face(r + s)], r + s
    for r in "AKQJ":
        for s in "shcd":
            assert not IS_NUMBER[parse_face(r + s)], r + s
    for j in ("BJ", "RJ"):
        assert not IS_NUMBER[parse_face(j)] and IS_JOKER[parse_face(j)]
        assert SUIT[parse_face(j)] == -1   # jokers have no suit


def test_keng_4_identical_means_same_face():
    """KENG-4: two cards are identical when they have the same face; only those form a pair."""
    s = pos({0: "9h 9h 9d 2c"}, top="5h")
    after = run(s, play(s, 0, "9h 9h"))
    assert after.top == cards_of("9h 9h")
    assert rejected(s, play(s, 0, "9h 9d")).rule_id == "KENG-16"


# ---------------------------------------------------------------- KENG-5 seats and teams

def test_keng_5_six_seats_required():
    """KENG-5: Six seats required."""
    e0 = _with_payload(_start(), players=PLAYERS[:5])
    assert _start_error(e0).rule_id == "KENG-5"


def test_keng_5_teams_and_opposite_seat():
    """KENG-5: even seats against odd seats; the opposite seat i+3 is an opponent (the duel
    defender of an A); a neighbour is an opponent (a count must name the other team)."""
    assert [team_of(i) for i in range(6)] == [0, 1, 0, 1, 0, 1]
    for i in range(6):
        assert team_of((i + 3) % 6) != team_of(i)
        assert team_of((i + 1) % 6) != team_of(i) and team_of((i - 1) % 6) != team_of(i)
        assert team_of((i + 2) % 6) == team_of(i)
    s = pos({5: "Ah 2c 3c"}, top="5h", to_act=5)
    s, done = settle(run(s, play(s, 5, "Ah")))
    assert done[0].kind == "DUEL_START"
    assert (done[0].seat, done[0].target) == (5, 2)   # (5 + 3) mod 6
    assert rejected(s, ev(s, "COUNT", 1, target=3, value=4)).rule_id == "KENG-41"


# ---------------------------------------------------------------- KENG-6 options

@pytest.mark.parametrize("bad", [
    {"keng_hand_size": 9}, {"keng_hand_size": 5}, {"keng_hand_limit": 33},
    {"keng_hand_limit": 17}, {"keng_black_jokers": 2}, {"keng_red_jokers": 7},
    {"keng_rj_stack_value": 5}, {"keng_pair_action": "twice"}, {"keng_tens": 1},
])
def test_keng_6_options_outside_their_range_are_rejected(bad):
    """KENG-6: Options outside their range are rejected."""
    with pytest.raises(IllegalMove) as info:
        KengOptions(**bad)
    assert info.value.rule_id == "KENG-6"


def test_keng_6_options_recorded_in_game_start_with_defaults_written_out():
    """KENG-6: Options recorded in game start with defaults written out."""
    e0 = _start(KengOptions(keng_hand_size=6))
    opts = json.loads(e0.payload)["options"]
    assert opts == {
        "keng_hand_size": 6, "keng_hand_limit": 25, "keng_tens": True,
        "keng_black_jokers": 3, "keng_red_jokers": 3, "keng_rj_stack_value": 3,
        "keng_k_on_rj": False, "keng_pair_action": "each", "keng_draw_when_able": False,
    }
    s, _ = settle(keng.initial_state(e0))
    assert all(len(h) == 6 for h in s.hands)


@pytest.mark.parametrize("change", ["missing", "unknown", "range"])
def test_keng_6_game_start_options_must_be_complete_and_valid(change):
    """KENG-6: Game start options must be complete and valid."""
    e0 = _start()
    opts = json.loads(e0.payload)["options"]
    if change == "missing":
        del opts["keng_draw_when_able"]
    elif change == "unknown":
        opts["keng_speed"] = 2
    else:
        opts["keng_hand_limit"] = 40
    assert _start_error(_with_payload(e0, options=opts)).rule_id == "KENG-6"


# ---------------------------------------------------------------- KENG-7 opener

def test_keng_7_first_game_opener_is_a_recorded_random_draw():
    """KENG-7: First game opener is a recorded random draw."""
    openers = set()
    for seed in range(12):
        e0 = _start(seed=seed)
        p = json.loads(e0.payload)
        assert p["opener_rule"] == "random" == e0.tag
        assert p["opener"] == e0.value
        openers.add(e0.value)
        assert keng.initial_state(e0).opener == e0.value
    assert len(openers) > 1   # the draw really is random across seeds


def test_keng_7_given_opener_is_recorded_as_previous():
    """KENG-7: Given opener is recorded as previous."""
    e0 = _start(opener=4)
    p = json.loads(e0.payload)
    assert (p["opener"], p["opener_rule"], e0.value, e0.tag) == (4, "previous", 4, "previous")


@pytest.mark.parametrize("change", [{"opener": 6}, {"opener": 2}, {"opener_rule": "chosen"}])
def test_keng_7_inconsistent_opener_is_rejected(change):
    """KENG-7: Inconsistent opener is rejected."""
    e0 = _start(seed=3)            # value is the drawn opener (seat 1); the payload must agree
    assert e0.value == 1
    assert _start_error(_with_payload(e0, **change)).rule_id == "KENG-7"


def test_keng_7_session_opener_is_the_previous_deciding_seat():
    """KENG-7/KENG-49: in engine.sim sessions each later game is opened by the seat that
    decided the previous game (went out or went over the limit)."""
    games = list(simulate("keng", 12, 5, session_games=6))
    checked = 0
    for i, g in enumerate(games):
        p = json.loads(g.events[0].payload)
        if i % 6 == 0:
            assert p["opener_rule"] == "random" and p["previous_game"] is None
            continue
        prev = games[i - 1]
        assert p["previous_game"] == prev.events[0].game_id
        assert p["opener_rule"] == "previous"
        assert p["opener"] == prev.final.result["deciding_seat"] == keng.deciding_seat(prev.final)
        # and the opener really opens: the deal starts with it, the flipper is opposite
        assert g.events[1].kind == "DEAL" and g.events[1].seat == p["opener"]
        start = next(e for e in g.events if e.kind == "START_CARD")
        assert start.seat == (p["opener"] + 3) % 6
        checked += 1
    assert checked == 10


def test_keng_7_opener_unchanged_after_a_game_without_result(monkeypatch):
    """KENG-7 Completion: after a game without result (KENG-48) the opener does not change.
    A stalemate is too rare in self-play, so the deciding seat is made None (as for a
    stalemate result) and every later game of the session keeps the first opener."""
    monkeypatch.setattr(keng.game, "deciding_seat", lambda s: None)
    games = list(simulate("keng", 4, 5, session_games=4))
    openers = [json.loads(g.events[0].payload)["opener"] for g in games]
    assert len(set(openers)) == 1


# ---------------------------------------------------------------- KENG-8 deal

@pytest.mark.parametrize("size", [6, 7, 8])
def test_keng_8_deal_one_card_at_a_time_from_the_opener(size):
    """KENG-8: Deal one card at a time from the opener."""
    opts = KengOptions(keng_hand_size=size)
    e0 = _start(opts, seed=8)
    s0 = keng.initial_state(e0)
    s, done = settle(s0)
    assert kinds(done) == ["DEAL"] * 6
    opener = e0.value
    assert [d.seat for d in done] == [(opener + j) % 6 for j in range(6)]
    d = e0.cards
    for j in range(6):
        seat = (opener + j) % 6
        assert s.hands[seat] == tuple(sorted(d[j:6 * size:6]))
        assert len(s.hands[seat]) == size
    assert s.stock == d[6 * size:]
    assert (s.cycle, s.direction, s.phase) == (1, 1, "start")


def test_keng_8_wrong_deal_is_rejected():
    """KENG-8: Wrong deal is rejected."""
    s0 = keng.initial_state(_start(seed=8))
    good = keng.auto_event(s0)
    bad = good._replace(cards=good.cards[::-1][1:] + good.cards[:1])
    if tuple(bad.cards) == tuple(good.cards):
        bad = good._replace(cards=good.cards[1:] + good.cards[:1])
    assert rejected(s0, bad).rule_id == "KENG-8"
    assert rejected(s0, good._replace(seat=(good.seat + 1) % 6)).rule_id == "KENG-8"
    assert rejected(s0, ev(s0, "COUNT", 0, target=1, value=0)).rule_id == "KENG-8"


# ---------------------------------------------------------------- KENG-9 start card

def starting(card: str, opener: int = 1, hands: dict[int, str] | None = None):
    """The seeded game before its start card, with ``card`` on top of the stock."""
    s = started(1, opener=opener)
    p = keng.to_position(s)
    p["stock"][0] = card
    for seat, text in (hands or {}).items():
        p["hands"][seat] = text.split()
    return keng.from_position(p, scenario=True)


def _flip(s, suit: str | None = None):
    flipper = (s.opener + 3) % 6
    e = ev(s, "START_CARD", flipper, keng.to_position(s)["stock"][0],
           value=-1 if suit is None else "shcd".index(suit))
    return settle(keng.apply(s, e))


def test_keng_9_flipper_is_opposite_the_opener_and_turns_the_top_card():
    """KENG-9: Flipper is opposite the opener and turns the top card."""
    s = starting("7c", opener=1)
    assert rejected(s, ev(s, "START_CARD", 1, "7c")).rule_id == "KENG-9"
    assert rejected(s, ev(s, "START_CARD", 4, "7d")).rule_id == "KENG-9"   # not the top card
    assert rejected(s, play(s, 1, hand(s, 1).split()[0])).rule_id == "KENG-9"
    stock = s.stock
    after, done = _flip(s)
    assert done == []
    assert after.top == cards_of("7c") and after.top_seat == 4 and after.top_start
    assert after.stock == stock[1:]
    assert rejected(after, ev(after, "START_CARD", 4, "7c")).rule_id == "KENG-9"


def test_keng_9_number_start_card_opener_plays_first():
    """KENG-9: Number start card opener plays first."""
    s, _ = _flip(starting("7c", opener=1, hands={1: "7d 2h 3h"}))
    assert (s.to_act, s.pending, s.direction) == (1, 0, 1)
    assert rejected(s, play(s, 2, hand(s, 2).split()[0])).rule_id == "KENG-9"
    after = run(s, play(s, 1, "7d"))
    assert after.to_act == 2


def test_keng_9_k_start_card_opener_faces_a_draw_of_two():
    """KENG-9: K start card opener faces a draw of two."""
    s, _ = _flip(starting("Kc", opener=1, hands={1: "7c 2h 3h"}))
    assert (s.to_act, s.pending) == (1, 2)
    assert rejected(s, play(s, 1, "7c")).rule_id == "KENG-27"
    stock = s.stock
    after = run(s, ev(s, "ACCEPT", 1, cards=(), value=2)._replace(cards=stock[:2]))
    assert len(after.hands[1]) == 5 and after.pending == 0 and after.to_act == 1


def test_keng_9_rj_start_card_flipper_names_suit_and_opener_faces_four():
    """KENG-9: RJ start card flipper names suit and opener faces four."""
    s = starting("RJ", opener=1, hands={1: "7c 9h 2s"})
    e = ev(s, "START_CARD", 4, "RJ")
    assert rejected(s, e).rule_id == "KENG-20"          # no suit named
    s, _ = _flip(s, "h")
    assert (s.to_act, s.pending, s.top_suit) == (1, 4, 1)
    assert rejected(s, play(s, 1, "9h")).rule_id == "KENG-27"


def test_keng_9_bj_start_card_flipper_names_suit_and_opener_plays_it():
    """KENG-9: BJ start card flipper names suit and opener plays it."""
    s, _ = _flip(starting("BJ", opener=1, hands={1: "7c 9d 2s"}), "d")
    assert (s.to_act, s.pending, s.top_suit) == (1, 0, 3)
    assert rejected(s, play(s, 1, "7c")).rule_id == "KENG-20"
    assert run(s, play(s, 1, "9d")).to_act == 2


def test_keng_9_q_start_card_skips_the_opener():
    """KENG-9: Q start card skips the opener."""
    s, _ = _flip(starting("Qc", opener=1, hands={1: "7c 2h", 2: "8c 2h"}))
    assert s.to_act == 2
    assert rejected(s, play(s, 1, "7c")).rule_id == "KENG-9"
    assert run(s, play(s, 2, "8c")).to_act == 3


def test_keng_9_j_start_card_reverses_and_opener_plays_first():
    """KENG-9: J start card reverses and opener plays first."""
    s, _ = _flip(starting("Jc", opener=1, hands={1: "7c 2h"}))
    assert (s.to_act, s.direction) == (1, -1)
    assert run(s, play(s, 1, "7c")).to_act == 0


def test_keng_9_a_start_card_duel_flipper_against_opener_then_opener_plays():
    """KENG-9: A start card duel flipper against opener then opener plays."""
    s = starting("As", opener=1, hands={1: "5s 2s 9d", 4: "2h 3h"})
    s, done = _flip(s)
    assert kinds(done) == ["DUEL_START"]
    assert (done[0].seat, done[0].target) == (4, 1)
    assert s.duel.to_act == 1                     # the defender (opener) first
    s, done = settle(run(s, duel_play(s, 1, "5s")))
    assert kinds(done) == ["DUEL_END"]            # flipper 4 has no A and no spade number
    assert done[0].seat == 4 and done[0].value == 2
    assert len(s.hands[4]) == 4
    assert (s.to_act, s.pending, s.top) == (1, 0, cards_of("5s"))
    assert rejected(s, play(s, 1, "9d")).rule_id == "KENG-17"   # against the last duel card
    assert run(s, play(s, 1, "2s")).to_act == 2


def test_keng_9_start_card_opens_no_snatch_window():
    """KENG-9: Start card opens no snatch window."""
    s, _ = _flip(starting("7c", opener=1, hands={2: "7c 2h 3h"}))
    assert not s.window
    assert keng.claim(s, 2, parse_face("7c")).tag == "void"


# ---------------------------------------------------------------- KENG-10 direction

def test_keng_10_first_direction_is_plus_one():
    """KENG-10: First direction is plus one."""
    s0 = keng.initial_state(_start(seed=2))
    assert s0.direction == 1
    s = pos({2: "5s 2c 3c"}, top="5h", to_act=2)
    assert run(s, play(s, 2, "5s")).to_act == 3
    s = pos({5: "5s 2c 3c"}, top="5h", to_act=5)
    assert run(s, play(s, 5, "5s")).to_act == 0
    s = pos({2: "5s 2c 3c"}, top="5h", to_act=2, direction=-1)
    assert run(s, play(s, 2, "5s")).to_act == 1

