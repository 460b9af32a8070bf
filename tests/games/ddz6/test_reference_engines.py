"""3v3 combinations against two independent Dou Dizhu engines, on the single-deck domain (at
most four cards of a rank, one BJ and one RJ): rlcard 1.2.0's table of every play with its
type and weight (``rlcard/games/doudizhu/utils.py`` ``CARD_TYPE``, 27,471 plays of up to 20
cards) and douzero 1.1.0's move generator (``douzero.env``, used without torch).

Their extra types are no play in 3v3 (DDZ-53): trio + single (chains too), four + two, and the
two-joker rocket (BJ RJ). Standard Dou Dizhu wings are the 3v3 option ``wings_3v3=no_bomb``;
the default ``any`` adds exactly the airplanes whose wings repeat a rank or share one with the
body (DDZ-50), which neither engine has.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict

import pytest

from engine.games.ddz6.cards import VALUE
from engine.games.ddz6.combos import beats, classify, play_rule
from engine.games.ddz6.moves import legal_plays

from .reference import faces

NO_BOMB = {"wings_3v3": "no_bomb"}
SINGLE_DECK = tuple(range(54))
# rlcard type (prefix) -> our type; the others are no play in 3v3.
RLCARD_KIND = {"solo": "single", "pair": "pair", "trio": "trio", "trio_pair": "trio_pair",
               "bomb": "bomb", "solo_chain": "straight", "pair_chain": "pair_seq",
               "trio_chain": "trio_seq", "trio_pair_chain": "airplane"}
RLCARD_NONE = ("trio_solo", "trio_solo_chain", "four_two_solo", "four_two_pair", "rocket")


def _family(t: str) -> str:
    """An rlcard type without its chain length ('pair_chain_4' -> 'pair_chain')."""
    head, _, tail = t.rpartition("_")
    return head if tail.isdigit() else t


@pytest.fixture(scope="module")
def rlcard_table() -> dict[str, tuple[str, int]]:
    """rlcard's play -> (type, weight)."""
    utils = pytest.importorskip("rlcard.games.doudizhu.utils",
                                reason="rlcard (the dev extra) is not installed")
    data = utils.CARD_TYPE[0]
    out = {}
    for cards, types in data.items():
        assert len(types) == 1
        (t, w), = types
        out[cards] = (t, int(w))
    return out


def _sig(cards) -> tuple[int, ...]:
    return tuple(sorted(VALUE[f] for f in cards))


def test_rlcard_types_agree(rlcard_table):
    """Each of rlcard's plays is ours of the same type, or (its extra types) no play."""
    assert len(rlcard_table) == 27471
    tally: Counter = Counter()
    for cards, (t, _w) in rlcard_table.items():
        fam = _family(t)
        for options in ({}, NO_BOMB):
            got = classify(faces(cards), "3v3", options)
            if fam in RLCARD_NONE:
                assert got is None, (cards, t, got)
                assert play_rule(faces(cards), "3v3", options) is not None, cards
            else:
                assert got is not None and got.kind == RLCARD_KIND[fam], (cards, t, got)
        tally[fam in RLCARD_NONE] += 1
    assert tally[False] == 3282 and tally[True] == 27471 - 3282


def test_rlcard_play_sets_agree(rlcard_table):
    """Our plays of at most 20 cards from one deck are rlcard's (no_bomb wings), and the
    default ``any`` adds only airplanes with repeated or body-rank wings."""
    theirs = {tuple(sorted(faces_vals)) for faces_vals in (
        _sig(faces(c)) for c, (t, _w) in rlcard_table.items() if _family(t) not in RLCARD_NONE)}
    strict = {_sig(p.cards) for p in legal_plays(SINGLE_DECK, None, "3v3", NO_BOMB)
              if p.combo.size <= 20}
    assert strict == theirs
    loose = {_sig(p.cards): p for p in legal_plays(SINGLE_DECK, None, "3v3")
             if p.combo.size <= 20}
    extra = set(loose) - theirs
    assert theirs <= set(loose) and extra
    for sig in extra:
        p = loose[sig]
        assert p.combo.kind == "airplane" and play_rule(p.cards, "3v3", NO_BOMB) == "DDZ-50"


def test_rlcard_weights_agree(rlcard_table):
    """Within each rlcard type, a higher weight is exactly a higher key: ours beats theirs
    iff its weight is higher; every bomb beats every non-bomb."""
    by_type: dict[str, list] = defaultdict(list)
    for cards, (t, w) in rlcard_table.items():
        if _family(t) not in RLCARD_NONE:
            by_type[t].append((w, classify(faces(cards), "3v3", NO_BOMB)))
    rng = random.Random(11)
    pairs = 0
    for t, plays in by_type.items():
        key_of = defaultdict(set)
        for w, combo in plays:
            key_of[w].add(combo.key)
        assert all(len(k) == 1 for k in key_of.values()), t
        ordered = [next(iter(key_of[w])) for w in sorted(key_of)]
        assert ordered == sorted(set(ordered)), t
        sample = plays if len(plays) < 60 else rng.sample(plays, 60)
        for (wa, a), (wb, b) in itertools.product(sample, repeat=2):
            assert (beats(a, b, "3v3", NO_BOMB) is None) == (wa > wb), (t, a, b)
            pairs += 1
    bombs = [c for _w, c in by_type["bomb"]]
    others = [c for t, ps in by_type.items() if t != "bomb" for _w, c in ps]
    for bomb, other in itertools.product(bombs, rng.sample(others, 200)):
        assert beats(bomb, other, "3v3") is None and beats(other, bomb, "3v3") == "DDZ-42"
    assert pairs > 15_000


# ---------------------------------------------------------------- douzero

@pytest.fixture(scope="module")
def douzero():
    """douzero's move generator, detector and the legal-move function of its game."""
    try:
        from douzero.env import move_detector
        from douzero.env.game import GameEnv
        from douzero.env.move_generator import MovesGener
    except ImportError as exc:
        pytest.skip(f"douzero 1.1.0 is not importable ({exc}); install it with "
                    "'pip install --no-deps douzero==1.1.0' (.ci/run does)")
    return MovesGener, move_detector, GameEnv


DZ_VALUE = {17: 15, 20: 16, 30: 17}          # douzero codes 3 … 14, 17 (2), 20 BJ, 30 RJ
OUR_TO_DZ = {15: 17, 16: 20, 17: 30}


def _dz_cards(cards) -> list[int]:
    return sorted(OUR_TO_DZ.get(VALUE[f], VALUE[f]) for f in cards)


def _dz_sig(move) -> tuple[int, ...]:
    return tuple(sorted(DZ_VALUE.get(v, v) for v in move))


def test_douzero_moves_agree(douzero):
    """On 300 seeded single-deck hands of 17 and 20 cards, douzero's leads and its answers to
    five plays each, less its extra types, are exactly ours (no_bomb wings)."""
    MovesGener, md, GameEnv = douzero
    keep = {md.TYPE_1_SINGLE, md.TYPE_2_PAIR, md.TYPE_3_TRIPLE, md.TYPE_4_BOMB, md.TYPE_7_3_2,
            md.TYPE_8_SERIAL_SINGLE, md.TYPE_9_SERIAL_PAIR, md.TYPE_10_SERIAL_TRIPLE,
            md.TYPE_12_SERIAL_3_2}

    def theirs(moves) -> set[tuple[int, ...]]:
        return {_dz_sig(m) for m in moves if m and md.get_move_type(sorted(m))["type"] in keep}

    rng = random.Random(12)
    leads = answers = 0
    for _ in range(300):
        hand = tuple(rng.sample(SINGLE_DECK, rng.choice((17, 20))))
        dz_hand = _dz_cards(hand)
        ours = {_sig(p.cards) for p in legal_plays(hand, None, "3v3", NO_BOMB)}
        assert theirs(MovesGener(dz_hand).gen_moves()) == ours, hand
        leads += 1
        rival_hand = tuple(rng.sample(SINGLE_DECK, 20))
        for top in rng.sample(legal_plays(rival_hand, None, "3v3", NO_BOMB), 5):
            env = GameEnv({})
            env.acting_player_position = "landlord"
            env.info_sets["landlord"].player_hand_cards = list(dz_hand)
            env.card_play_action_seq = [_dz_cards(top.cards)]
            ours = {_sig(p.cards) for p in legal_plays(hand, top.combo, "3v3", NO_BOMB)}
            assert theirs(env.get_legal_card_play_actions()) == ours, (hand, top)
            answers += 1
    assert leads == 300 and answers == 1500
