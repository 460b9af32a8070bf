"""Sections 6-9 (first part) of gouji.md: ranks, plays with attached wilds, count, strength
and profile, the beat function, the big joker, 够级 shape and pure 够级 plays (GJ-11 to GJ-17).

The rules are restated here independently of the engine (``_val``, ``_is_play``, ``_profile``,
``_beats``, ``_shaped``, ``_pure``) so that the property tests compare the engine with the text.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import format_face, parse_faces
from engine.errors import IllegalMove
from engine.games import gouji
from engine.games.gouji.game import play_events
from engine.games.gouji.plays import analyse, answer_shapes, beats, groups, profile
from engine.games.gouji.state import GoujiState

from .conftest import act, dealt, illegal, play, pos

# ---------------------------------------------------------------- the rules, restated

VALUE = {"3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 11, "Q": 12,
         "K": 13, "A": 14, "2": 15, "BJ": 16, "RJ": 17}
RANK_OF = {v: r for r, v in VALUE.items()}
GOUJI_MIN = {10: 5, 11: 4, 12: 3, 13: 2, 14: 2, 15: 1}      # GJ-16


def _rank(face: str) -> str:
    return face if face in ("BJ", "RJ") else face[0]


def _val(face: str) -> int:
    """GJ-11: the strength value of a face."""
    return VALUE[_rank(face)]


def _vals(cards: str | list[str] | tuple[str, ...]) -> list[int]:
    faces = cards.split() if isinstance(cards, str) else list(cards)
    return [_val(f) for f in faces]


def _is_play(vals: list[int]) -> bool:
    """GJ-12: one or more cards; all cards other than 2s and jokers of one rank."""
    return bool(vals) and len({v for v in vals if v < 15}) <= 1


def _profile(vals: list[int]) -> list[int]:
    """GJ-13: BJ = 16, RJ = 17, every other card the base rank's value; sorted high to low."""
    base = min(vals)
    return sorted((v if v >= 16 else base for v in vals), reverse=True)


def _beats(a: list[int], t: list[int]) -> bool:
    """GJ-14: equal count and every strength of A above T's at the same position."""
    pa, pt = _profile(a), _profile(t)
    return len(pa) == len(pt) and all(x > y for x, y in zip(pa, pt, strict=True))


def _shaped(vals: list[int]) -> bool:
    """GJ-16: a joker, or the base rank's minimum count reached (attached 2s count)."""
    return any(v >= 16 for v in vals) or len(vals) >= GOUJI_MIN.get(min(vals), 99)


def _pure(vals: list[int]) -> bool:
    """GJ-17: 够级-shaped with no 2 and no joker."""
    return _shaped(vals) and all(v < 15 for v in vals)


def _faces(ranks: list[str], suits: str = "shcd") -> list[str]:
    """Faces for a list of ranks: the i-th copy of a rank gets the i-th suit."""
    seen: Counter[str] = Counter()
    out = []
    for r in ranks:
        out.append(r if r in ("BJ", "RJ") else r + suits[seen[r] % 4])
        seen[r] += 1
    return out


@lru_cache(maxsize=1)
def _base() -> GoujiState:
    return dealt()


def _info(cards: str):  # noqa: ANN202
    info = analyse(parse_faces(cards))
    assert info is not None, cards
    return info


OTHERS = ["6s", "6h", "6c", "6d", "8s"]


def _answer_pos(hand: str, top: str, maker: int = 3, **kw: object) -> GoujiState:
    """Seat 0 to answer the top play of the maker (seat 3, his opposite, by default)."""
    hands = [hand] + OTHERS
    return pos(_base(), hands=hands, top=(top, maker), to_act=0, last=maker, **kw)


def _lead_pos(hand: str, **kw: object) -> GoujiState:
    return pos(_base(), hands=[hand] + OTHERS, to_act=0, last=0, **kw)


def _accepts(s: GoujiState, seat: int, cards: str) -> bool:
    try:
        gouji.check(s, play(seat, cards, s))
    except IllegalMove:
        return False
    return True


# ---------------------------------------------------------------- GJ-11 ranks

@pytest.mark.parametrize("face", ["3s", "4h", "5c", "6d", "7s", "8h", "9c", "Td", "Js", "Qh",
                                  "Kc", "Ad", "2s", "BJ", "RJ"])
def test_gj11_strength_values_are_3_to_17(face):
    """GJ-11: 3…K = 3…13, A = 14, 2 = 15, BJ = 16, RJ = 17; a single card's PLAY carries it as
    its value (base strength)."""
    hand = face if face[0] != "3" else "3s"
    s = _lead_pos(hand)
    e = play(0, face, s)
    assert e.value == _val(face)
    gouji.check(s, e)


def test_gj11_a_wrong_base_value_is_rejected():
    """GJ-11/GJ-12: the PLAY's value must be the value of the play's base rank, which GJ-12
    defines (the lowest rank among its cards): a wrong one cites GJ-12, not GJ-13."""
    s = _lead_pos("Ad Ac 9s")
    e = play(0, "Ad Ac", s)
    assert e.value == 14
    illegal(s, e._replace(value=1), "GJ-12")
    illegal(s, e._replace(value=13), "GJ-12")


def test_gj11_single_cards_beat_exactly_the_lower_ranks():
    """GJ-11: ranks from low to high 3 < 4 < … < K < A < 2 < BJ < RJ: a single card beats
    every single card of a lower rank and none of an equal or higher rank."""
    order = ["3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As", "2s", "BJ",
             "RJ"]
    for i, a in enumerate(order):
        for j, t in enumerate(order):
            assert beats(_info(a), _info(t)) == (i > j), (a, t)


def test_gj11_big_joker_answers_small_joker_answers_two_answers_ace():
    """GJ-11: the engine accepts 2 over A, BJ over 2, RJ over BJ and rejects the reverse
    (GJ-14)."""
    for lo, hi in (("As", "2s"), ("2s", "BJ"), ("BJ", "RJ")):
        assert _accepts(_answer_pos(hi + " 9s", lo), 0, hi)
        illegal(_answer_pos(lo + " 9s", hi), play(0, lo), "GJ-14")


# ---------------------------------------------------------------- GJ-12 plays

@pytest.mark.parametrize("cards,base", [
    ("2s", 15), ("2s 2h", 15), ("BJ", 16), ("BJ BJ", 16), ("RJ", 17), ("2s BJ", 15),
    ("BJ RJ", 16), ("2s 2h RJ", 15), ("5c BJ", 5), ("9s 9h 2c", 9), ("Ks RJ RJ", 13),
])
def test_gj12_twos_and_jokers_play_as_their_own_rank_or_attached(cards, base):
    """GJ-12: 2s and jokers may be played as their own rank, alone or together; a play's base
    is its lowest rank and every higher card is an attached wild."""
    s = _lead_pos(cards + " 9d")
    e = play(0, cards, s)
    assert e.value == base
    gouji.check(s, e)


@pytest.mark.parametrize("cards", ["9s Th", "9s 9h Th 2s", "5s 6s BJ", "Ks As", "Qs Ks RJ"])
def test_gj12_two_natural_ranks_never_mix(cards):
    """GJ-12: two natural ranks below 2 never mix (`9 T` is not a play)."""
    s = _lead_pos(cards + " 5d")
    assert analyse(parse_faces(cards)) is None
    illegal(s, play(0, cards), "GJ-12")


def test_gj12_a_play_must_come_from_the_hand():
    """GJ-12: a play is made of cards from the player's hand (one copy each)."""
    s = _lead_pos("Ks Kh 9s")
    illegal(s, play(0, "Ks Kd", s), "GJ-12")
    illegal(s, play(0, "Ks Ks", s), "GJ-12")
    assert _accepts(s, 0, "Ks Kh")


# ---------------------------------------------------------------- GJ-13 count and profile

@pytest.mark.parametrize("cards,base,n,prof", [
    ("Ks Kh Kd 2c 2d", 13, 5, "K K K K K"),
    ("Ks Kh Kd BJ BJ", 13, 5, "BJ BJ K K K"),
    ("5c BJ", 5, 2, "BJ 5"),
    ("Th Tc Td Ts 2h", 10, 5, "T T T T T"),
    ("2s 2h RJ", 15, 3, "RJ 2 2"),
    ("BJ RJ", 16, 2, "RJ BJ"),
])
def test_gj13_table_of_count_base_and_profile(cards, base, n, prof):
    """GJ-13: the table: count = cards, wilds included; an attached 2 has the base's strength,
    an attached joker its own; profile sorted high to low."""
    want = [VALUE[r] for r in prof.split()]
    info = _info(cards)
    assert (info.base, info.n) == (base, n)
    assert profile(parse_faces(cards)) == want == _profile(_vals(cards))
    s = _lead_pos(cards + " 9d")
    assert play(0, cards, s).value == base


def test_gj13_three_kings_and_two_twos_are_five_kings():
    """GJ-13 (seed: 3 K + 2 twos = 5 K): it beats five queens, is beaten by five aces, and
    neither it nor five natural kings beats the other."""
    kk2 = _info("Ks Kh Kd 2c 2d")
    k5 = _info("Ks Kh Kd Kc Ks")
    assert beats(kk2, _info("Qs Qh Qd Qc Qs")) and beats(_info("As Ah Ad Ac As"), kk2)
    assert not beats(kk2, k5) and not beats(k5, kk2)
    assert _accepts(_answer_pos("Ks Kh Kd 2c 2d 9s", "Qs Qh Qd Qc Qs"), 0, "Ks Kh Kd 2c 2d")
    illegal(_answer_pos("Ks Kh Kd Kc Ks 9s", "Ks Kh Kd 2c 2d"), play(0, "Ks Kh Kd Kc Ks"),
            "GJ-14")


def test_gj13_three_kings_and_two_small_jokers_are_five_kings_with_two_bj_strengths():
    """GJ-13 (seed: 3 K + 2 small jokers): profile BJ BJ K K K: five aces do not beat it,
    A A A RJ RJ does."""
    t = "Ks Kh Kd BJ BJ"
    assert profile(parse_faces(t)) == [16, 16, 13, 13, 13]
    assert not beats(_info("As Ah Ad Ac As"), _info(t))
    assert beats(_info("As Ah Ad RJ RJ"), _info(t))


# ---------------------------------------------------------------- GJ-14 beating

KKKBJBJ = "Ks Kh Kd BJ BJ"


@pytest.mark.parametrize("answer,wins", [
    ("As Ah Ad RJ RJ", True),
    ("2s 2h 2c RJ RJ", True),
    ("As 2h RJ RJ RJ", True),
    ("As Ah Ad Ac As", False),
    ("As Ah Ad 2c 2d", False),
    ("As Ah Ad BJ RJ", False),
    ("Qs Qh Qd RJ RJ", False),
])
def test_gj14_seed_example_kkk_bj_bj(answer, wins):
    """GJ-14 seed example: K K K BJ BJ is beaten by A A A RJ RJ, 2 2 2 RJ RJ, A 2 RJ RJ RJ and
    not by A A A A A, A A A 2 2, A A A BJ RJ or Q Q Q RJ RJ — checked on the beat function, on
    the restated rule and on the engine's verdict for seat 0 answering his opposite."""
    assert beats(_info(answer), _info(KKKBJBJ)) == wins
    assert _beats(_vals(answer), _vals(KKKBJBJ)) == wins
    s = _answer_pos(answer + " 9s", KKKBJBJ)
    if wins:
        assert _accepts(s, 0, answer)
        assert _rank_key(answer.split()) in {_rank_key(e.cards) for e in play_events(s)}
    else:
        illegal(s, play(0, answer, s), "GJ-14")


@pytest.mark.parametrize("answer,top", [
    ("As Ah Ad Ac", "Ks Kh Kd"),          # more cards
    ("As Ah", "Ks Kh Kd"),                # fewer cards
    ("Ks Kh Kd", "Ks Kh Kd"),             # equal strength
    ("Ks Kh 2s", "Kc Kd Kh"),             # the way the count is made up does not matter
    ("2s 2h", "Ks RJ"),                   # a play with an RJ
    ("RJ RJ", "Ks RJ"),
    ("RJ", "RJ"),
    ("As BJ", "Ks BJ"),                   # A over K but BJ not over BJ
])
def test_gj14_not_beaten(answer, top):
    """GJ-14: equal count, T without RJ, at least as many RJ as T has BJ, higher base; any
    failed condition is a GJ-14 rejection."""
    assert not beats(_info(answer), _info(top))
    assert not _beats(_vals(answer), _vals(top))
    illegal(_answer_pos(answer + " 9s", top), play(0, answer), "GJ-14")


@pytest.mark.parametrize("answer,top", [
    ("As Ah 2s", "Ks Kh Kd"),
    ("2s BJ", "As As"),
    ("RJ 9h", "8s BJ"),
    ("BJ BJ", "2s 2h"),
    ("RJ RJ", "BJ BJ"),
    ("4s", "3s"),
])
def test_gj14_beaten(answer, top):
    """GJ-14: equal count and a position-by-position stronger profile beats."""
    assert beats(_info(answer), _info(top))
    assert _accepts(_answer_pos(answer + " 9s", top), 0, answer)


def _play_vals(n: int) -> st.SearchStrategy[list[int]]:
    """A play of n cards: a base rank, then cards of the base or of a higher wild rank."""
    @st.composite
    def build(draw: st.DrawFn) -> list[int]:
        base = draw(st.integers(3, 17))
        choices = [base] + [v for v in (15, 16, 17) if v > base]
        return [base] + [draw(st.sampled_from(choices)) for _ in range(n - 1)]
    return build()


@st.composite
def _two_plays(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    n = draw(st.integers(1, 6))
    m = n if draw(st.integers(0, 5)) else draw(st.integers(1, 6))
    return draw(_play_vals(n)), draw(_play_vals(m))


def _cards(vals: list[int]) -> tuple[int, ...]:
    return parse_faces(" ".join(_faces([RANK_OF[v] for v in vals])))


@settings(max_examples=250, deadline=None)
@given(_two_plays())
def test_gj14_closed_form_equals_position_by_position_comparison(pair):
    """GJ-14: the engine's closed form (equal count, no RJ in T, #RJ(A) ≥ #BJ(T), r(A) > r(T))
    equals the position-by-position profile comparison; and (seed consequence) whatever beats
    a play holding a BJ holds an RJ; whatever holds an RJ is never beaten (GJ-15)."""
    a, t = pair
    ia, it = analyse(_cards(a)), analyse(_cards(t))
    assert ia is not None and it is not None
    assert profile(_cards(a)) == _profile(a)
    got = beats(ia, it)
    assert got == _beats(a, t)
    if got and 16 in t:
        assert 17 in a
    if 17 in t:
        assert not got


# ---------------------------------------------------------------- legal plays vs brute force

HAND_RANKS = ["3", "4", "7", "T", "Q", "K", "A", "2", "BJ", "RJ"]


def _hand(ranks: list[str]) -> list[str]:
    kept: list[str] = []
    for r in ranks:
        if kept.count(r) < 4:
            kept.append(r)
    return _faces(sorted(kept, key=VALUE.__getitem__))


def _sub_multisets(faces: list[str]) -> list[list[str]]:
    """Every non-empty sub-multiset of a hand, by rank (one representative of each)."""
    by_rank: dict[str, list[str]] = {}
    for f in faces:
        by_rank.setdefault(_rank(f), []).append(f)
    ranks = list(by_rank)
    out = []
    for counts in itertools.product(*(range(len(by_rank[r]) + 1) for r in ranks)):
        sub = [f for r, k in zip(ranks, counts, strict=True) for f in by_rank[r][:k]]
        if sub:
            out.append(sub)
    return out


def _threes_ok(hand: list[str], sub: list[str]) -> bool:
    """GJ-28: a play with a 3 leaves only 3s."""
    if not any(_val(f) == 3 for f in sub):
        return True
    left = Counter(hand) - Counter(sub)
    return all(_val(f) == 3 for f in left.elements())


def _rank_key(cards: tuple[int, ...] | list[str]) -> tuple[int, ...]:
    faces = [format_face(c) if isinstance(c, int) else c for c in cards]
    return tuple(sorted(_val(f) for f in faces))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HAND_RANKS), min_size=1, max_size=9))
def test_gj12_listed_leads_equal_brute_force_enumeration(ranks):
    """GJ-12/GJ-28 (and GJ-21): the leads the engine lists are exactly the sub-multisets of the
    hand that are plays (one natural rank, 2s and jokers attached or alone) and respect
    3s-last, each listed once by rank; the engine's check accepts exactly those; and the
    leader always has one."""
    hand = _hand(ranks)
    s = _lead_pos(" ".join(hand))
    listed = [e.cards for e in play_events(s)]
    got = [_rank_key(c) for c in listed]
    assert len(got) == len(set(got))
    want = set()
    for sub in _sub_multisets(hand):
        legal = _is_play(_vals(sub)) and _threes_ok(hand, sub)
        if legal:
            want.add(_rank_key(sub))
        assert _accepts(s, 0, " ".join(sub)) == legal, sub
    assert set(got) == want
    assert want, "GJ-21: a leader always has a legal play"
    for e in play_events(s):
        gouji.check(s, e)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HAND_RANKS), min_size=1, max_size=9),
       st.integers(1, 4).flatmap(_play_vals), st.sampled_from([1, 2, 3, 4, 5]), st.booleans())
def test_gj14_listed_answers_equal_brute_force_enumeration(ranks, top_vals, maker, opened):
    """GJ-14/GJ-20: the answers the engine lists for seat 0 are exactly the sub-multisets of
    his hand that are plays beating the top play by the profile comparison — none when the
    top is a 够级 play of a non-opposite and seat 0 is not opened (GJ-20, burn licence);
    the engine's check accepts exactly those."""
    hand = _hand(ranks)
    top = _faces([RANK_OF[v] for v in top_vals], suits="dchs")
    s = _answer_pos(" ".join(hand), " ".join(top), maker, opened=[0] if opened else [])
    may = not _shaped(top_vals) or maker == 3 or opened
    got = [_rank_key(e.cards) for e in play_events(s)]
    assert len(got) == len(set(got))
    want = set()
    for sub in _sub_multisets(hand):
        legal = may and _is_play(_vals(sub)) and _threes_ok(hand, sub) and \
            _beats(_vals(sub), top_vals)
        if legal:
            want.add(_rank_key(sub))
        assert _accepts(s, 0, " ".join(sub)) == legal, sub
    assert set(got) == want
    for e in play_events(s):
        gouji.check(s, e)


# ---------------------------------------------------------------- GJ-15 big joker (shape part)

@pytest.mark.parametrize("top", ["RJ", "3s RJ", "Ks Kh RJ", "2s RJ", "BJ RJ", "RJ RJ RJ"])
def test_gj15_a_play_containing_a_big_joker_cannot_be_beaten(top):
    """GJ-15: a play containing at least one RJ cannot be beaten: no hand has an answer."""
    strongest = groups(parse_faces("RJ RJ RJ RJ BJ BJ BJ BJ 2s 2h 2c 2d As Ah Ad Ac"))
    assert answer_shapes(strongest, _info(top)) == []
    n = len(top.split())
    for cand in ("RJ " * n, "2s " * n, "As " * n):
        assert not beats(_info(cand.strip()), _info(top))


# ---------------------------------------------------------------- GJ-16 够级 shape

@pytest.mark.parametrize("rank,minimum", [("T", 5), ("J", 4), ("Q", 3), ("K", 2), ("A", 2),
                                          ("2", 1)])
def test_gj16_threshold_table(rank, minimum):
    """GJ-16: five tens, four jacks, three queens, two kings, two aces, one 2 are 够级-shaped;
    one card fewer is not ("at least", resolution 5)."""
    at = " ".join(_faces([rank] * minimum))
    assert _info(at).shaped and _shaped(_vals(at))
    s = _lead_pos(at + " 9d")
    assert "+shaped" in play(0, at, s).tag
    if minimum > 1:
        below = " ".join(_faces([rank] * (minimum - 1)))
        assert not _info(below).shaped
        assert "shaped" not in play(0, below, s).tag


@pytest.mark.parametrize("cards,shaped", [
    ("9s 9h 9c 2s", False),               # seed: an attached 2 does not make 9s 够级
    ("Ts Th Tc Td 2s", True),             # five tens counting the 2
    ("Ts Th Tc 2s", False),
    ("Js Jh 2s 2h", True),
    ("Qs 2s 2h", True),
    ("Ks 2s", True),
    ("As 2h", True),
    ("3s BJ", True),                      # base 3-9 only with a joker
    ("9s RJ", True),
    ("5s 5h 5c 5d 5s 5h 5c 5d", False),
    ("9s 9h 9c 9d 2s 2h 2c 2d", False),
    ("BJ", True),
    ("Qs Qh", False),
])
def test_gj16_shape_examples(cards, shaped):
    """GJ-16: counts include attached 2s (T T T T 2 is five tens) but an attached 2 alone never
    makes a play 够级 (9 9 9 2 is not); a base 3-9 play is 够级-shaped only with a joker."""
    assert _info(cards).shaped == shaped == _shaped(_vals(cards))


def test_gj16_the_shaped_flag_is_checked():
    """GJ-16/GJ-48: the play's annotation carries '+shaped' exactly when the play is
    够级-shaped; a record that omits or invents it is rejected citing GJ-16."""
    s = _lead_pos("9s 9h 9c 2s Ts Th Tc Td 2h")
    e = play(0, "Ts Th Tc Td 2h", s)
    assert e.tag == "lead+shaped+gouji"
    illegal(s, e._replace(tag="lead+gouji"), "GJ-16")
    e9 = play(0, "9s 9h 9c 2s", s)
    assert e9.tag == "lead"
    illegal(s, e9._replace(tag="lead+shaped"), "GJ-16")


# ---------------------------------------------------------------- GJ-17 pure

@pytest.mark.parametrize("cards,pure", [
    ("Ts Th Tc Td Ts", True),
    ("Js Jh Jc Jd", True),
    ("Qs Qh Qc", True),
    ("Ks Kh", True),
    ("As Ah", True),
    ("As Ah Ac Ad As Ah", True),
    ("Ts Th Tc Td 2s", False),            # a 2 attached
    ("Ks BJ", False),                     # a joker attached
    ("Qs Qh Qc RJ", False),
    ("2s", False),                        # 2s are not natural
    ("2s 2h 2c", False),
    ("BJ BJ", False),
    ("Ts Th Tc Td", False),               # not shaped
    ("Ks", False),
])
def test_gj17_pure_gouji_plays(cards, pure):
    """GJ-17: a pure 够级 play is 够级-shaped with no 2 and no joker: at least five natural tens,
    four jacks, three queens, two kings or two aces, and nothing else."""
    assert _info(cards).pure == pure == _pure(_vals(cards))
    s = _lead_pos(cards + " 9d")
    assert ("+pure" in play(0, cards, s).tag) == pure


def test_gj17_the_pure_flag_is_checked():
    """GJ-17/GJ-48: '+pure' must be recorded exactly on pure plays."""
    s = _lead_pos("Ks Kh 2s Qs Qh Qc")
    e = play(0, "Qs Qh Qc", s)
    assert e.tag == "lead+shaped+pure+gouji"
    illegal(s, e._replace(tag="lead+shaped+gouji"), "GJ-17")
    e2 = play(0, "Ks Kh 2s", s)
    assert e2.tag == "lead+shaped+gouji"
    illegal(s, e2._replace(tag="lead+shaped+pure+gouji"), "GJ-17")


def test_gj17_pure_flag_on_an_answer():
    """GJ-17: purity is a property of the answer's cards too (a pure answer to a 够级 play)."""
    s = _answer_pos("As Ah Ac 9s", "Ks Kh Kd")
    assert play(0, "As Ah Ac", s).tag == "answer+shaped+pure+gouji"
    e = act(s, "PLAY", 0, cards="As Ah Ac", value=14, tag="answer+shaped+gouji")
    illegal(s, e, "GJ-17")
