"""Setup: players and seats, the deck, options, the first leader, the deal, the suit draw and
sessions (MDS-1, MDS-2, MDS-6 to MDS-10, MDS-36)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event
from engine.games import find_game
from engine.games import modaoshuang as mds
from engine.games.base import Game
from engine.games.modaoshuang.cards import DECK

from .conftest import GAME_ID, players, playout, rejected, start, started


def _payload(e: Event) -> dict:
    return json.loads(e.payload)


def _with_payload(e: Event, **changes) -> Event:
    p = _payload(e)
    p.update(changes)
    return e._replace(payload=json.dumps(p))


def test_the_package_is_a_complete_registered_game():
    g = find_game("modaoshuang")
    assert g is mds.GAME and isinstance(g, Game)
    assert (g.GAME_ID, g.TITLE, g.RULE_PREFIX, g.SIDES) == ("modaoshuang", "摸到爽", "MDS", "none")
    assert g.seat_count(mds.Options(mds_players=4)) == 4
    assert set(g.POLICIES) == {"random", "greedy"}


# ---------------------------------------------------------------- MDS-1 players, MDS-6 seats

@pytest.mark.parametrize("n", [2, 6])
def test_mds_1_the_game_is_for_three_to_five_players(n):
    """MDS-1: 3-5 players; other numbers are refused (the option is recorded, MDS-7)."""
    with pytest.raises(IllegalMove) as info:
        mds.Options(mds_players=n)
    assert info.value.rule_id == "MDS-7"
    with pytest.raises(InvalidEvent):
        mds.start_event(GAME_ID, players(n), random.Random(1), mds.Options(mds_players=3))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_mds_1_a_game_is_rounds_until_one_seat_empties_its_hand(n):
    """MDS-1: each for themselves; one winner empties its hand, every other seat pays."""
    events, s = playout(n, {"mds_players": n})
    r = mds.result(s)
    assert s.hands[r["winner"]] == () and r["final_hands"][r["winner"]] == []
    assert all(r["payments"][i] > 0 for i in range(n) if i != r["winner"])
    assert mds.sides(s) == (None,) * n
    assert any(e.kind == "ROUND_END" for e in events)


def test_mds_6_seats_act_in_turn_order_from_the_leader():
    """MDS-6: seat i+1 is seat i's next player; a round goes L, L+1, …; the suit drawer is the
    first leader's 上家 (previous seat)."""
    s = started(3, n=4, first_leader=2)
    assert s.leader == 2 and mds.to_move(s) == 2
    assert s.suit_cards and mds.to_position(s)["suit_draw"]["suit"] is not None
    e0 = start(3, n=4, first_leader=0)
    st = mds.initial_state(e0)
    while mds.next_auto(st) != "SUIT_DRAW":
        st = mds.apply(st, mds.auto_event(st))
    assert mds.auto_event(st, random.Random(1)).seat == 3      # 上家 of seat 0 with 4 seats
    s = started(4, n=3, first_leader=0)
    order = []
    while s.round_no == 1 and mds.next_auto(s) is None:
        acts = [a for a in mds.legal_actions(s) if a.kind != "REPORT"]
        a = next((x for x in acts if x.kind == "PLAY"), acts[0])
        if a.kind == "PLAY":
            order.append(a.seat)
        s = mds.apply(s, a)
    assert order == [0, 1, 2]


# ---------------------------------------------------------------- MDS-2 the deck

def test_mds_2_one_54_card_deck():
    """MDS-2: the 52 suited cards and BJ, RJ, once each."""
    e0 = start(5)
    assert sorted(e0.cards) == list(DECK) and len(DECK) == 54
    s = started(5)
    assert mds.face_counts(s) == Counter(DECK)


@pytest.mark.parametrize("cards", [tuple(range(53)), tuple(range(53)) + (0,),
                                   tuple(range(54)) + (5,)])
def test_mds_2_a_start_without_the_54_faces_is_refused(cards):
    """MDS-2: GAME_START must carry one whole deck."""
    e0 = start(5)._replace(cards=cards)
    with pytest.raises(IllegalMove) as info:
        mds.initial_state(e0)
    assert info.value.rule_id == "MDS-2"


# ---------------------------------------------------------------- MDS-7 options

def test_mds_7_options_are_recorded_in_full_with_defaults():
    """MDS-7: every option written out in GAME_START; hand size 6 with 3, 5 with 4 or 5."""
    for n, h in ((3, 6), (4, 5), (5, 5)):
        p = _payload(start(1, n=n))
        assert p["options"] == {
            "mds_players": n, "mds_hand_size": h, "mds_zhamo": True,
            "mds_settlement": "negative", "mds_joker_violation": "penalty",
            "mds_one_card_report": False, "mds_dianpao": "leader"}
    assert mds.Options(mds_players=3, mds_hand_size=8).mds_hand_size == 8


def test_mds_7_the_number_of_players_has_no_default():
    """MDS-7: mds_players is required."""
    with pytest.raises(IllegalMove) as info:
        mds.Options()
    assert info.value.rule_id == "MDS-7" and "required" in info.value.reason


@pytest.mark.parametrize(("name", "value"), [
    ("mds_hand_size", 2), ("mds_hand_size", 9), ("mds_hand_size", True), ("mds_zhamo", "on"),
    ("mds_settlement", "plus"), ("mds_joker_violation", "ban"), ("mds_one_card_report", 1),
    ("mds_dianpao", "winner")])
def test_mds_7_an_option_outside_its_range_is_refused(name, value):
    """MDS-7: messages list the allowed values."""
    with pytest.raises(IllegalMove) as info:
        mds.Options(mds_players=3, **{name: value})
    assert info.value.rule_id == "MDS-7" and name in info.value.reason


def test_mds_7_a_start_with_a_missing_or_unknown_option_is_refused():
    """MDS-7: options are recorded in full and only known ones."""
    e0 = start(1)
    opts = _payload(e0)["options"]
    for bad in ({k: v for k, v in opts.items() if k != "mds_zhamo"}, {**opts, "mds_x": 1},
                {**opts, "mds_hand_size": None}, {**opts, "mds_zhamo": 1}):
        with pytest.raises(IllegalMove) as info:
            mds.initial_state(_with_payload(e0, options=bad))
        assert info.value.rule_id == "MDS-7"
    with pytest.raises(IllegalMove) as info:
        mds.initial_state(_with_payload(e0, players=["a", "b"]))
    assert info.value.rule_id == "MDS-6"           # the seats 0 … n-1, not the options


# ---------------------------------------------------------------- MDS-8 first leader

def test_mds_8_the_first_leader_of_a_first_game_is_drawn_at_random():
    """MDS-8: a recorded chance outcome (GAME_START value and tag 'random')."""
    leaders = {start(seed, n=5).value for seed in range(40)}
    assert leaders == {0, 1, 2, 3, 4}
    e0 = start(7, n=5)
    assert e0.tag == "random" and _payload(e0)["first_leader"] == e0.value
    assert mds.initial_state(e0).first_leader == e0.value


@pytest.mark.parametrize("changes", [{"first_leader": 3}, {"first_leader": -1},
                                     {"first_leader_rule": "dice"}, {"first_leader": True}])
def test_mds_8_a_bad_first_leader_record_is_refused(changes):
    """MDS-8: the first leader is a seat, equal to value, chosen 'random' or 'previous'."""
    e0 = start(1, first_leader=1)
    with pytest.raises(IllegalMove) as info:
        mds.initial_state(_with_payload(e0, **changes))
    assert info.value.rule_id == "MDS-8"


# ---------------------------------------------------------------- MDS-9 deal

@pytest.mark.parametrize(("n", "h"), [(3, 6), (4, 5), (5, 5), (5, 8), (3, 3)])
def test_mds_9_deal_one_card_at_a_time_from_the_first_leader(n, h):
    """MDS-9: mds_hand_size cards each, dealt round-robin from the first leader; the rest is
    the stock in deck order."""
    e0 = start(9, n=n, first_leader=1, mds_hand_size=h)
    s = mds.initial_state(e0)
    assert mds.face_counts(s) is None
    deals = []
    while mds.next_auto(s) == "DEAL":
        a = mds.auto_event(s)
        deals.append(a)
        s = mds.apply(s, a)
    assert [d.seat for d in deals] == [(1 + k) % n for k in range(n)]
    for k, d in enumerate(deals):
        assert d.cards == e0.cards[k:n * h:n] and d.value == 54 - n * h
        assert s.hands[d.seat] == tuple(sorted(d.cards))
    assert s.stock == e0.cards[n * h:] and s.phase == "suit_draw"


def test_mds_9_a_wrong_deal_is_refused():
    """MDS-9: the engine owes each DEAL exactly."""
    s = mds.initial_state(start(9))
    a = mds.auto_event(s)
    err = rejected(s, a._replace(cards=a.cards[::-1]))
    assert err.rule_id == "MDS-9"
    assert rejected(s, a._replace(seat=(a.seat + 1) % 3)).rule_id == "MDS-9"
    assert rejected(s, Event("PLAY", seat=0, cards=(1,), game_id=s.game_id, seq=1)).rule_id \
        == "MDS-9"


# ---------------------------------------------------------------- MDS-10 suit draw

def _before_suit_draw(seed=2, n=3, first_leader=0):
    s = mds.initial_state(start(seed, n=n, first_leader=first_leader))
    while mds.next_auto(s) == "DEAL":
        s = mds.apply(s, mds.auto_event(s))
    assert mds.next_auto(s) == "SUIT_DRAW"
    return s


def test_mds_10_the_suit_draw_announces_a_suit_and_reshuffles_the_stock():
    """MDS-10: the 上家 draws at random until a suited card (jokers redrawn); its suit is
    round 1's; the stock is reshuffled (its order recorded)."""
    s = _before_suit_draw()
    for seed in range(30):
        a = mds.auto_event(s, random.Random(seed))
        k = len(a.cards) - len(s.stock)
        drawn, order = a.cards[:k], a.cards[k:]
        assert all(c >= 52 for c in drawn[:-1]) and drawn[-1] < 52
        assert a.value == drawn[-1] // 13 and sorted(order) == sorted(s.stock)
        t = mds.apply(s, a)
        assert t.stock == order and t.suit == t.first_suit == a.value and t.round_no == 1
        assert t.suit_cards == drawn and mds.to_move(t) == t.first_leader


def test_mds_10_a_joker_is_drawn_again():
    """MDS-10: a drawn joker is put back and another card drawn (both recorded)."""
    s = _before_suit_draw()
    suited = next(c for c in s.stock if c < 52)
    jokers = tuple(c for c in s.stock if c >= 52)
    assert jokers, "this seed's stock holds a joker"
    a = mds.auto_event(s)._replace(cards=jokers + (suited,) + s.stock, value=suited // 13)
    t = mds.apply(s, a)
    assert t.suit_cards == jokers + (suited,)


@pytest.mark.parametrize("bad", ["seat", "suit", "joker_last", "not_stock", "order"])
def test_mds_10_an_inconsistent_suit_draw_is_refused(bad):
    """MDS-10: drawer, drawn cards, suit and reshuffled stock must agree."""
    s = _before_suit_draw()
    a = mds.auto_event(s, random.Random(3))
    k = len(a.cards) - len(s.stock)
    drawn, order = a.cards[:k], a.cards[k:]
    dealt = s.hands[0][0]
    a = {
        "seat": a._replace(seat=(a.seat + 1) % 3),
        "suit": a._replace(value=(a.value + 1) % 4),
        "joker_last": a._replace(cards=(52 if 52 in s.stock else 53,) + order,
                                 value=0),
        "not_stock": a._replace(cards=(dealt,) + order, value=dealt // 13),
        "order": a._replace(cards=drawn + order[:-1] + (dealt,)),
    }[bad]
    assert rejected(s, a).rule_id == "MDS-10"


# ---------------------------------------------------------------- MDS-36 sessions

def test_mds_36_the_winner_leads_the_next_game():
    """MDS-36 / MDS-8: session_start gives the previous winner as first leader; check_session
    accepts it and refuses a wrong one, also when the start calls itself a first game."""
    events, prev = playout(5, {"mds_players": 4}, game_id="g1")
    kw = mds.session_start(prev)
    assert kw == {"first_leader": prev.winner}
    e0 = mds.start_event("g2", players(4), random.Random(2), mds.Options(mds_players=4),
                         previous_game="g1", **kw)
    assert e0.value == prev.winner and e0.tag == "previous"
    assert mds.check_session(e0, prev) is None
    assert mds.initial_state(e0).first_leader == prev.winner
    wrong = (prev.winner + 1) % 4
    bad = _with_payload(e0, first_leader=wrong)._replace(value=wrong)
    assert mds.check_session(bad, prev).rule_id == "MDS-36"
    labelled_first = _with_payload(bad, first_leader_rule="random")._replace(tag="random")
    assert mds.check_session(labelled_first, prev).rule_id == "MDS-36"
    right_but_random = _with_payload(e0, first_leader_rule="random")._replace(tag="random")
    assert mds.check_session(right_but_random, prev).rule_id == "MDS-8"
    other = _with_payload(e0, previous_game="g0")
    assert mds.check_session(other, prev).rule_id == "MDS-36"
    first = mds.start_event("g3", players(4), random.Random(2), mds.Options(mds_players=4))
    assert mds.check_session(first, prev) is None


def test_mds_36_a_game_without_winner_starts_no_session_game():
    """MDS-36: session_start needs a finished game."""
    s = started(1)
    with pytest.raises(Exception) as info:
        mds.session_start(s)
    assert "MDS-36" in str(info.value)
    e0 = mds.start_event("g2", players(3), random.Random(2), mds.Options(mds_players=3),
                         first_leader=0, previous_game=s.game_id)
    assert mds.check_session(e0, s).rule_id == "MDS-36"
