"""Sections 1-5 of gouji.md: objective, pack, seats and teams, direction, options, the cut,
the first player, the deal, later games and the order of a game (GJ-1 to GJ-10)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.cards import format_face, parse_face, parse_faces
from engine.errors import IllegalMove, InvalidEvent
from engine.events import NONE, Event
from engine.games import gouji
from engine.games.gouji.cards import PACK
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.state import GoujiState

from .conftest import (
    GAME_ID,
    PLAYERS,
    act,
    apply_play,
    dealt,
    do,
    illegal,
    kinds,
    legal_plays,
    pos,
    settle,
)

RANKS = "3456789TJQKA2"
# GJ-6: the value a cut card counts
CUT_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
              "T": 10, "J": 11, "Q": 12, "K": 13}


# ---------------------------------------------------------------- local helpers

def _game1(options: GoujiOptions | None = None) -> GoujiState:
    """A first game right after GAME_START (stage cut)."""
    return gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, options=options))


def _cut(s: GoujiState, seat: int, card: str, value: int = NONE) -> Event:
    return act(s, "CUT", seat, cards=card, value=value)


def _after_cut(seat: int = 0, card: str = "7h", value: int = 1) -> GoujiState:
    s = _game1()
    return gouji.apply(s, _cut(s, seat, card, value))


def _directed(seat: int = 0, card: str = "7h", value: int = 1, d: int = 1) -> GoujiState:
    """A first game after the cut and the direction: the deal is due."""
    s = _after_cut(seat, card, value)
    return gouji.apply(s, act(s, "DIRECTION", s.first_player, value=d))


def _deal(s: GoujiState, cards: tuple[int, ...], cut_index: int = NONE,
          seat: int | None = None, tag: str | None = None) -> Event:
    return Event("DEAL", seat=s.starter if seat is None else seat, cards=cards,
                 value=cut_index, tag=f"{s.direction:+d}" if tag is None else tag,
                 game_id=s.game_id, seq=s.seq)


def _order_with(card: str, index: int, seed: int = 3) -> tuple[int, ...]:
    """The pack shuffled, with one copy of the card moved to the given index."""
    cards = list(PACK)
    cards.remove(parse_face(card))
    random.Random(seed).shuffle(cards)
    cards.insert(index, parse_face(card))
    return tuple(cards)


def _start_error(e0: Event) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        gouji.initial_state(e0)
    return info.value


def _with_payload(e0: Event, **changes: object) -> Event:
    p = json.loads(e0.payload)
    p.update(changes)
    return e0._replace(payload=json.dumps(p))


def _random_game(seed: int, **start: object) -> tuple[GoujiState, list[Event]]:
    """A whole game played by random legal actions (chance events from the same generator)."""
    rng = random.Random(seed)
    e0 = gouji.start_event(GAME_ID, PLAYERS, rng, **start)
    s = gouji.initial_state(e0)
    log = [e0]
    while not s.is_over:
        assert len(log) < 3000, "the game does not end"
        a = gouji.auto_event(s, rng)
        if a is None:
            acts = gouji.turn_actions(s)
            plays = [x for x in acts if x.kind == "PLAY"]
            a = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(acts)
        a = a._replace(seq=s.seq, game_id=s.game_id)
        s = gouji.apply(s, a)
        log.append(a)
    return s, log


# ---------------------------------------------------------------- GJ-1 objective

@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_gj1_positions_follow_going_out_and_judged_players_fill_from_the_bottom(seed):
    """GJ-1: every player ends with a distinct position 1-6; players who go out take the
    positions from the top in the order of going out, judged players from the bottom; the
    team totals decide the game."""
    s, log = _random_game(seed)
    r = s.result
    assert sorted(r["positions"]) == [1, 2, 3, 4, 5, 6]
    outs = [e for e in log if e.kind == "OUT"]
    finished = [e.value for e in outs if e.tag in ("finished", "last")]
    judged = [e.value for e in outs if e.tag in ("men", "zhashao")]
    assert finished == sorted(finished) and finished[:1] in ([], [1])
    assert judged == sorted(judged, reverse=True) and judged[:1] in ([], [6])
    for e in outs:
        assert r["positions"][e.seat] == e.value
    totals = r["team_totals"]
    assert totals["even"] == sum(r["points"][0::2]) and totals["odd"] == sum(r["points"][1::2])
    even, odd = totals["even"], totals["odd"]
    assert even == -odd
    want = "even" if even > odd else "odd" if odd > even else "draw"
    assert r["result"] == want
    assert log[-1].kind == "GAME_END"


def test_gj1_a_session_keeps_its_six_players_in_their_seats():
    """GJ-1 (completion): seats do not change within a session — a next game with the players
    in other seats does not continue the session."""
    s, _ = _random_game(5)
    nxt = gouji.session_start(s)
    good = gouji.start_event("g2", PLAYERS, **nxt)
    assert gouji.check_session(good, s) is None
    swapped = gouji.start_event("g2", PLAYERS[1:] + PLAYERS[:1], **nxt)
    err = gouji.check_session(swapped, s)
    assert err is not None and err.rule_id == "GJ-1"


# ---------------------------------------------------------------- GJ-2 pack

def test_gj2_pack_has_196_cards_with_six_3s_six_4s_and_sixteen_of_each_other_rank():
    """GJ-2: four decks minus ten 3s and ten 4s: 196 cards; six 3s, six 4s, sixteen cards of
    each rank 5 … 2, four BJ and four RJ."""
    faces = Counter(format_face(c) for c in PACK)
    assert len(PACK) == 196 == sum(faces.values())
    by_rank = Counter()
    for f, n in faces.items():
        by_rank[f if f in ("BJ", "RJ") else f[0]] += n
    assert by_rank["3"] == 6 and by_rank["4"] == 6
    for r in "56789TJQKA2":
        assert by_rank[r] == 16, r
    assert by_rank["BJ"] == 4 and by_rank["RJ"] == 4


def test_gj2_pack_face_table():
    """GJ-2 (resolution): 3s 3c 4s 4c twice, 3h 3d 4h 4d once, every other suited face and
    each joker four times."""
    faces = Counter(format_face(c) for c in PACK)
    want = {}
    for r in "56789TJQKA2":
        for suit in "shcd":
            want[r + suit] = 4
    want.update({"3s": 2, "3c": 2, "3h": 1, "3d": 1, "4s": 2, "4c": 2, "4h": 1, "4d": 1,
                 "BJ": 4, "RJ": 4})
    assert dict(faces) == want


@pytest.mark.parametrize("swap", [("3h", "3s"), ("4d", "4c"), ("7h", "BJ"), ("RJ", "Ks")])
def test_gj2_a_deal_with_another_multiset_is_rejected(swap):
    """GJ-2: a deal record whose 196 cards are not the pack's multiset breaks GJ-2 (here one
    face replaced by another)."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1,
                                              starter=0))
    cards = list(PACK)
    cards[cards.index(parse_face(swap[0]))] = parse_face(swap[1])
    illegal(s, _deal(s, tuple(cards)), "GJ-2")


def test_gj2_a_deal_of_195_or_197_cards_is_rejected():
    """GJ-2: the deal has exactly the 196 cards of the pack."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1,
                                              starter=0))
    illegal(s, _deal(s, PACK[:-1]), "GJ-2")
    illegal(s, _deal(s, PACK + (parse_face("5s"),)), "GJ-2")
    gouji.check(s, _deal(s, PACK))


# ---------------------------------------------------------------- GJ-3 faces

def test_gj3_suits_never_matter_for_a_play():
    """GJ-3: only ranks matter: the same ranks in other suits are the same play, and a play
    does not beat its suit-permuted copy (equal strength)."""
    s = dealt()
    a = gouji.annotate(s, Event("PLAY", seat=0, cards=parse_faces("Ks Kh 2c")))
    b = gouji.annotate(s, Event("PLAY", seat=0, cards=parse_faces("Kd Kc 2s")))
    assert (a.value, a.tag) == (b.value, b.tag) == (13, "lead+shaped+gouji")
    p = pos(hands=["Kd Kc 2s 5s", "6s", "7s", "8s", "9s", "Ts"], top=("Ks Kh 2c", 3), to_act=0,
            last=3)
    illegal(p, act(p, "PLAY", 0, cards="Kd Kc 2s", value=13, tag="answer+shaped"), "GJ-14")


def test_gj3_legal_plays_are_listed_once_per_rank_multiset():
    """GJ-3: cards with the same face are identical and suits do not matter, so each play is
    listed once, whatever suits the hand holds."""
    s = pos(hands=["5s 5h 5c 5d 9s", "6s", "7s", "8s", "9h", "Ts"], to_act=0, last=0)
    plays = [a for a in gouji.legal_actions(s) if a.kind == "PLAY"]
    ranks = [tuple(sorted(format_face(c)[0] for c in a.cards)) for a in plays]
    assert len(ranks) == len(set(ranks)) == 5       # 5, 55, 555, 5555, 9
    assert len(legal_plays(s)) == 5


# ---------------------------------------------------------------- GJ-4 seats and teams

def test_gj4_teams_are_even_and_odd_seats_and_the_opposite_is_three_seats_away():
    """GJ-4: teams {0,2,4} and {1,3,5}; the opposite of i is i+3 (mod 6), an opponent; each
    player sits between two opponents."""
    for i in range(6):
        assert gouji.opposite(i) == (i + 3) % 6
        assert gouji.team_of(i) == ("even" if i % 2 == 0 else "odd")
        assert gouji.team_of(gouji.opposite(i)) != gouji.team_of(i)
        assert gouji.team_of((i + 1) % 6) != gouji.team_of(i)
        assert gouji.team_of((i - 1) % 6) != gouji.team_of(i)
        assert gouji.team_of((i + 2) % 6) == gouji.team_of(i)
    assert [gouji.opposite(i) for i in range(6)] == [3, 4, 5, 0, 1, 2]


def test_gj4_game_start_needs_six_named_seats():
    """GJ-4: six seats 0-5; a GAME_START naming five players is rejected."""
    with pytest.raises(InvalidEvent):
        gouji.start_event(GAME_ID, PLAYERS[:5])
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert _start_error(_with_payload(e0, players=PLAYERS[:5])).rule_id == "GJ-4"
    assert _start_error(_with_payload(e0, players=PLAYERS[:5] + [""])).rule_id == "GJ-4"


# ---------------------------------------------------------------- GJ-5 direction

@pytest.mark.parametrize("d", [1, -1])
def test_gj5_turn_order_follows_the_direction(d):
    """GJ-5: the next player of i is i+d: after the starter's lead the turn goes to seat
    0+d, then 0+2d (here everybody passes)."""
    s = pos(hands=["5s 9s", "6s", "7s", "8s", "9h", "Ts"], to_act=0, last=0, direction=d)
    s, _ = apply_play(s, 0, "5s")
    assert s.to_act == d % 6
    s, _ = do(s, "PASS", d % 6)
    assert s.to_act == (2 * d) % 6


def test_gj5_direction_is_plus_or_minus_one():
    """GJ-5: d is +1 or -1; another value in the DIRECTION event or a later GAME_START is
    rejected."""
    s = _after_cut()
    illegal(s, act(s, "DIRECTION", s.first_player, value=2), "GJ-5")
    illegal(s, act(s, "DIRECTION", s.first_player, value=0), "GJ-5")
    e0 = gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1, starter=0)
    assert _start_error(_with_payload(e0, direction=0)).rule_id == "GJ-5"
    assert _start_error(_with_payload(e0, direction=None)).rule_id == "GJ-5"


def test_gj5_direction_is_kept_for_the_later_games_of_the_session():
    """GJ-5 (completion): d is kept for every later game: the next game's start carries it,
    and a start with the other direction does not continue the session."""
    s, _ = _random_game(7)
    nxt = gouji.session_start(s)
    assert nxt["direction"] == s.direction
    flipped = gouji.start_event("g2", PLAYERS, **{**nxt, "direction": -s.direction})
    err = gouji.check_session(flipped, s)
    assert err is not None and err.rule_id == "GJ-5"
    s2, _ = settle(gouji.initial_state(gouji.start_event("g2", PLAYERS, **nxt)))
    assert s2.direction == s.direction


# ---------------------------------------------------------------- GJ-6 the cut

@pytest.mark.parametrize("rank", list(CUT_VALUES))
@pytest.mark.parametrize("sdir", [1, -1])
@pytest.mark.parametrize("cutter", [0, 4])
def test_gj6_first_player_is_cutter_plus_s_times_v_minus_1(rank, sdir, cutter):
    """GJ-6: A=1, 2=2, 3-9, T=10, J=11, Q=12, K=13; the cutter counts himself as one and
    counts v players in direction s: F = cutter + s·(v−1) (mod 6)."""
    s = _game1()
    s = gouji.apply(s, _cut(s, cutter, rank + "c", sdir))
    assert s.first_player == (cutter + sdir * (CUT_VALUES[rank] - 1)) % 6
    assert s.stage == "direction" and s.to_act == s.first_player
    assert s.cuts == ((cutter, parse_face(rank + "c"), sdir),)


def test_gj6_an_ace_counts_the_cutter_himself_and_a_seven_the_seat_opposite():
    """GJ-6: worked cases: A → the cutter; 7 with s=+1 from seat 2 → seat 2+6 = 2;
    5 with s=−1 from seat 1 → seat 1−4 = 3."""
    assert _after_cut(3, "As", 1).first_player == 3
    assert _after_cut(2, "7d", 1).first_player == 2
    assert _after_cut(1, "5h", -1).first_player == 3
    assert _after_cut(1, "2h", -1).first_player == 0


@pytest.mark.parametrize("joker", ["BJ", "RJ"])
def test_gj6_a_joker_is_redrawn_by_the_same_cutter(joker):
    """GJ-6: a joker is shown, put back and the cutter draws again: it counts nobody, the
    stage stays the cut, and only the same cutter may draw the next card."""
    s = _game1()
    s = gouji.apply(s, _cut(s, 2, joker))
    assert s.stage == "cut" and s.first_player == -1 and s.cutter == 2
    illegal(s, _cut(s, 3, "9s", 1), "GJ-6")
    s = gouji.apply(s, _cut(s, 2, "BJ"))                 # a second joker: again
    assert s.stage == "cut"
    s = gouji.apply(s, _cut(s, 2, "9s", -1))
    assert s.first_player == (2 - 8) % 6 and s.stage == "direction"
    assert [c[1] for c in s.cuts] == list(parse_faces(f"{joker} BJ 9s"))


def test_gj6_a_joker_carries_no_counting_direction_and_a_card_must_carry_one():
    """GJ-6: a joker counts nobody (count_dir absent); a non-joker needs count_dir ±1."""
    s = _game1()
    illegal(s, _cut(s, 0, "RJ", 1), "GJ-6")
    illegal(s, _cut(s, 0, "7s", 0), "GJ-6")
    illegal(s, _cut(s, 0, "7s", 2), "GJ-6")


def test_gj6_cut_index_must_point_at_the_shown_cut_card():
    """GJ-6/GJ-48: the shown card is dealt like any other; cards[cut_index] is the last cut
    card (not an earlier joker, not another face)."""
    s = _game1()
    s = gouji.apply(s, _cut(s, 0, "BJ"))
    s = gouji.apply(s, _cut(s, 0, "9h", 1))
    s = gouji.apply(s, act(s, "DIRECTION", s.first_player, value=1))
    cards = _order_with("9h", 40)
    bj = cards.index(parse_face("BJ"))
    illegal(s, _deal(s, cards, cut_index=bj), "GJ-6")
    illegal(s, _deal(s, cards, cut_index=41 if cards[41] != cards[40] else 42), "GJ-6")
    illegal(s, _deal(s, cards, cut_index=NONE), "GJ-6")
    illegal(s, _deal(s, cards, cut_index=196), "GJ-6")
    gouji.check(s, _deal(s, cards, cut_index=40))


@pytest.mark.parametrize("d", [1, -1])
@pytest.mark.parametrize("index", [0, 7, 100, 195])
def test_gj6_the_holder_of_the_face_up_cut_card_is_public_and_receives_it(d, index):
    """GJ-6: who receives the shown card is fixed by its place in the deal: card k goes to
    starter + d·(k mod 6), and that seat holds the card."""
    s = _directed(seat=1, card="Qd", value=1, d=d)        # F = 1 + 11 = 0
    assert s.starter == 0
    cards = _order_with("Qd", index)
    s = gouji.apply(s, _deal(s, cards, cut_index=index))
    holder = (0 + d * (index % 6)) % 6
    assert s.cut_holder == holder
    assert parse_face("Qd") in s.hands[holder]


# ---------------------------------------------------------------- GJ-7 first player, direction

@pytest.mark.parametrize("d", [1, -1])
def test_gj7_the_first_player_chooses_the_direction_draws_first_and_leads(d):
    """GJ-7: F chooses d; F becomes the starter: he draws first (card 0) and leads the first
    round; drawing order and playing order are the same."""
    s = _after_cut(seat=5, card="4s", value=1)            # F = 5 + 3 = 2
    assert s.first_player == 2
    for other in (0, 1, 3, 4, 5):
        illegal(s, act(s, "DIRECTION", other, value=d), "GJ-7")
    s = gouji.apply(s, act(s, "DIRECTION", 2, value=d))
    assert (s.direction, s.starter, s.stage) == (d, 2, "deal")
    cards = _order_with("4s", 13)
    s = gouji.apply(s, _deal(s, cards, cut_index=13))
    assert cards[0] in s.hands[2] and cards[1] in s.hands[(2 + d) % 6]
    assert s.to_act == 2 and s.top_seat < 0
    illegal(s, act(s, "PLAY", (2 + d) % 6, cards=format_face(s.hands[(2 + d) % 6][-1])),
            "GJ-21")


def test_gj7_the_first_games_start_names_no_starter_or_direction():
    """GJ-7: in the first game the starter and direction come from the cut and F's choice:
    a GAME_START of game 1 that names them is rejected."""
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert _start_error(_with_payload(e0, direction=1)).rule_id == "GJ-7"
    assert _start_error(_with_payload(e0, starter=3)).rule_id == "GJ-7"
    assert _start_error(e0._replace(target=3)).rule_id == "GJ-7"


def test_gj7_the_deal_is_by_the_first_player():
    """GJ-7/GJ-8: the deal starts with F (the starter), not the cutter."""
    s = _directed(seat=1, card="3c", value=1)             # F = 3
    assert s.starter == 3
    cards = _order_with("3c", 5)
    illegal(s, _deal(s, cards, cut_index=5, seat=1), "GJ-8")
    gouji.check(s, _deal(s, cards, cut_index=5))


# ---------------------------------------------------------------- GJ-8 the deal

@pytest.mark.parametrize("d", [1, -1])
@pytest.mark.parametrize("starter", [0, 3, 5])
def test_gj8_card_k_goes_to_starter_plus_d_times_k_mod_6(d, starter):
    """GJ-8: card k goes to seat starter + d·(k mod 6); the starter and the next three in turn
    order hold 33 cards, the last two 32."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=d,
                                              starter=starter))
    cards = list(PACK)
    random.Random(starter * 7 + d).shuffle(cards)
    s = gouji.apply(s, _deal(s, tuple(cards)))
    want: list[list[int]] = [[] for _ in range(6)]
    for k, c in enumerate(cards):
        want[(starter + d * (k % 6)) % 6].append(c)
    for i in range(6):
        assert Counter(s.hands[i]) == Counter(want[i])
    sizes = [len(s.hands[(starter + d * k) % 6]) for k in range(6)]
    assert sizes == [33, 33, 33, 33, 32, 32]
    assert s.to_act == starter and s.stage == "play"


def test_gj8_the_deal_runs_in_the_session_direction():
    """GJ-8: the deal's tag records d; a deal recorded in the other direction is rejected."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=-1,
                                              starter=4))
    illegal(s, _deal(s, PACK, tag="+1"), "GJ-8")
    illegal(s, _deal(s, PACK, seat=5), "GJ-8")
    gouji.check(s, _deal(s, PACK, tag="-1"))


# ---------------------------------------------------------------- GJ-9 later games

def test_gj9_later_games_have_no_cut_and_the_starter_draws_and_leads_first():
    """GJ-9: from game 2 on there is no cut: after GAME_START the deal is due; the starter
    draws first and leads; a CUT breaks GJ-9 ("no cut"), not only the
    sequence (GJ-10)."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1,
                                              starter=4))
    assert s.stage == "deal" and s.starter == 4
    illegal(s, _cut(s, 4, "7s", 1), "GJ-9")
    s2, done = settle(s)
    assert kinds(done) == ["DEAL"] and done[0].seat == 4 and done[0].value == NONE
    assert s2.to_act == 4 and s2.cut_holder == -1
    assert done[0].cards[0] in s2.hands[4]


def test_gj9_a_later_deal_has_no_cut_index():
    """GJ-9: later games have no cut, so the deal's cut_index is -1."""
    s = gouji.initial_state(gouji.start_event(GAME_ID, PLAYERS, game_no=3, direction=1,
                                              starter=2))
    illegal(s, _deal(s, PACK, cut_index=0), "GJ-9")
    gouji.check(s, _deal(s, PACK))


def test_gj9_the_previous_lake_starts_the_next_game():
    """GJ-9: the 拉客 (position 6) of the previous game is the starter of the next; another
    starter does not continue the session; a later start needs a starter seat."""
    s, _ = _random_game(11)
    lake = s.result["positions"].index(6)
    nxt = gouji.session_start(s)
    assert nxt["starter"] == lake == s.result["next_starter"]
    wrong = gouji.start_event("g2", PLAYERS, **{**nxt, "starter": (lake + 1) % 6})
    err = gouji.check_session(wrong, s)
    assert err is not None and err.rule_id == "GJ-9"
    e0 = gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1, starter=1)
    assert _start_error(_with_payload(e0, starter=6)).rule_id == "GJ-9"
    assert _start_error(e0._replace(target=2)).rule_id == "GJ-9"


def test_gj9_a_first_game_start_claims_no_huiwu_team():
    """GJ-9/GJ-10/GJ-48: `direction`, `starter` and `huiwu_team` belong to the GAME_START of
    games ≥ 2 only; the 会五 follows a 串三户 of a previous game, so game 1 cannot owe one. A
    first-game start claiming a 会五 team must be rejected like one naming a starter."""
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert _start_error(_with_payload(e0, huiwu_team="odd")).rule_id == "GJ-35"
    assert _start_error(_with_payload(e0, huiwu_team=None)).rule_id == "GJ-35"
    assert _start_error(_with_payload(e0, starter=2)).rule_id == "GJ-7"


def test_gj9_after_a_sweep_the_starter_is_of_the_swept_team():
    """GJ-9/GJ-34: after a 串三户 the starter is the swept team's 拉客: a start whose 会五 team
    is not the starter's team is rejected."""
    e0 = gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1, starter=1,
                           huiwu_team="even")
    assert _start_error(e0).rule_id == "GJ-34"
    ok = gouji.start_event(GAME_ID, PLAYERS, game_no=2, direction=1, starter=1,
                           huiwu_team="odd")
    assert gouji.initial_state(ok).huiwu_team == 1


# ---------------------------------------------------------------- GJ-10 sequence

def test_gj10_first_game_sequence_start_cut_direction_deal_plays_end():
    """GJ-10: game_start → cut(s) → direction → deal → rounds → game_end."""
    for seed in (21, 22):
        _, log = _random_game(seed)
        k = kinds(log)
        assert k[0] == "GAME_START" and k[-1] == "GAME_END"
        i_dir = k.index("DIRECTION")
        assert i_dir >= 2 and set(k[1:i_dir]) == {"CUT"}
        assert k[i_dir + 1] == "DEAL"
        assert all(x not in ("CUT", "DIRECTION", "DEAL") for x in k[i_dir + 2:])
        assert k.count("GAME_END") == 1


def test_gj10_events_out_of_sequence_are_rejected():
    """GJ-10: each setup event belongs to its stage: no direction, deal or play during the
    cut, no cut or play before the deal, no cut, direction or deal once play has begun."""
    s = _game1()
    illegal(s, act(s, "DIRECTION", 0, value=1), "GJ-10")
    illegal(s, _deal(s, PACK, seat=0, tag="+1"), "GJ-10")
    illegal(s, act(s, "PLAY", 0, cards="5s"), "GJ-10")
    illegal(s, act(s, "XUANDIAN", 0), "GJ-10")
    s = _after_cut(0, "7h", 1)
    illegal(s, _cut(s, 0, "8h", 1), "GJ-10")
    illegal(s, _deal(s, _order_with("7h", 0), cut_index=0, seat=s.first_player, tag="+1"),
            "GJ-10")
    s = gouji.apply(s, act(s, "DIRECTION", s.first_player, value=1))
    illegal(s, act(s, "PLAY", s.starter, cards="5s"), "GJ-10")
    illegal(s, act(s, "DIRECTION", s.starter, value=1), "GJ-10")
    s = gouji.apply(s, _deal(s, _order_with("7h", 0), cut_index=0))
    illegal(s, _cut(s, 0, "8h", 1), "GJ-10")
    illegal(s, act(s, "DIRECTION", s.starter, value=1), "GJ-10")
    illegal(s, _deal(s, PACK, cut_index=0), "GJ-10")


def test_gj10_declarations_come_between_the_deal_and_the_first_play():
    """GJ-10: 宣点 / 和点 come after the deal and before the starter's first lead."""
    s = dealt()
    s2, _ = settle(gouji.apply(s, act(s, "XUANDIAN", 1)))
    s2, derived = settle(gouji.apply(s2, act(s2, "HEDIAN", 4, tag="agree")))
    assert kinds(derived) == ["OPENED", "OPENED"]
    lead = next(a for a in gouji.legal_actions(s) if a.kind == "PLAY")
    s3, _ = settle(gouji.apply(s, lead))
    illegal(s3, act(s3, "XUANDIAN", 2), "GJ-38")


def test_gj10_nothing_follows_game_end():
    """GJ-10: game_end is the last event of a game."""
    s, _ = _random_game(23)
    with pytest.raises(IllegalMove) as info:
        gouji.check(s, act(s, "PASS", 0))
    assert info.value.rule_id == "GJ-33"


# ---------------------------------------------------------------- options (section 4, GJ-48)

def test_gj10_options_are_recorded_with_every_value_in_game_start():
    """GJ-10/GJ-48 (section 4): the first event records every option with its value, the
    defaults written out; the state carries them."""
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert json.loads(e0.payload)["options"] == {
        "kaidian_effect": "burn_licence", "men_scope": "single_three",
        "judged_counts_as_out": True}
    opts = GoujiOptions(kaidian_effect="record", men_scope="threes_only",
                        judged_counts_as_out=False)
    e1 = gouji.start_event(GAME_ID, PLAYERS, options=opts)
    assert json.loads(e1.payload)["options"] == {
        "kaidian_effect": "record", "men_scope": "threes_only", "judged_counts_as_out": False}
    assert gouji.initial_state(e1).options == opts


@pytest.mark.parametrize("options", [
    {"kaidian_effect": "licence", "men_scope": "single_three", "judged_counts_as_out": True},
    {"kaidian_effect": "record", "men_scope": "two_threes", "judged_counts_as_out": True},
    {"kaidian_effect": "record", "men_scope": "single_three", "judged_counts_as_out": 1},
    {"kaidian_effect": "record", "men_scope": "single_three", "judged_counts_as_out": "true"},
    {"kaidian_effect": "record", "men_scope": "single_three"},
    {"kaidian_effect": "record", "men_scope": "single_three", "judged_counts_as_out": True,
     "pure_threshold": 5},
])
def test_gj10_game_start_with_an_invalid_option_set_is_rejected(options):
    """GJ-10/GJ-48 (section 4): an option value outside its allowed values, a missing option
    or an unknown option makes the GAME_START illegal."""
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert _start_error(_with_payload(e0, options=options)).rule_id == "GJ-48"


def test_gj10_options_object_rejects_values_outside_the_table():
    """GJ-10/GJ-48 (section 4): the options record itself validates its values."""
    with pytest.raises(IllegalMove) as info:
        GoujiOptions(kaidian_effect="sometimes")
    assert info.value.rule_id == "GJ-48"


def test_gj10_game_start_game_number_must_match():
    """GJ-10/GJ-48: game_start carries the game number (1, 2, …), equal to its value."""
    e0 = gouji.start_event(GAME_ID, PLAYERS)
    assert _start_error(_with_payload(e0, game_no=0)).rule_id == "GJ-48"
    assert _start_error(_with_payload(e0, game_no=2)).rule_id == "GJ-48"
    assert _start_error(_with_payload(e0, game_no=True)).rule_id == "GJ-48"
