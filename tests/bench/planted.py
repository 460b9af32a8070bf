"""Planted blunders for the review-quality harness (``review_quality.planted``): per registered
game, a rule that takes a decision of a reviewed game and picks, among the seat's legal options
(``engine.review.seat_options``), an action clearly worse than the one chosen — or None where
the rule does not apply. The harness reviews the planted action in place of the chosen one and
counts the share graded a mistake or blunder.

Every rule refuses what the chosen action takes at once — going out (the win itself in every
game but 够级, where it takes the best free place) or a declared 自摸 — so that "clearly worse"
holds in any reasonable judgment: the alternative can at best get it later. Signature of each: ``(game, state before, the chosen event, the seat's options) ->
Event | None``; the first line of its docstring states the rule and its rule ids (the harness
prints it).

``tests/engine/test_planted_rules.py`` checks each rule's claim on seeded greedy games.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.events import Event
from engine.games.base import Game
from engine.games.ddz6.play import side_code
from engine.games.gouji.cards import STRENGTH as GJ_STRENGTH
from engine.games.gouji.cards import THREE as GJ_THREE
from engine.games.gouji.rules import POINTS as GJ_POINTS
from engine.games.gouji.state import team_of as gj_team_of

# 六人坑's events that play cards from the hand (a turn play or stack, a duel play, a 抢)
KENG_PLAYS = ("PLAY", "DUEL_PLAY", "SNATCH")


def empties_hand(s: Any, e: Event) -> bool:
    """True if the event, a play, puts down every card the seat holds (``s.hands[seat]``; a
    draw's cards are those it takes, not from the hand)."""
    return bool(e.cards) and len(e.cards) == len(s.hands[e.seat])


def _skip_going_out(game: Game, s: Any, e: Event, options: list[Event]) -> Event | None:
    """摸到爽: draws (诈摸, MDS-21) where playing its last card wins the game (MDS-33)."""
    if e.kind != "PLAY" or len(s.hands[e.seat]) != 1:
        return None
    return next((a for a in options if a.kind == "DRAW"), None)


def _keep_cards(game: Game, s: Any, e: Event, options: list[Event]) -> Event | None:
    """六人坑: accepts, draws or passes (KENG-27, KENG-13) where its last cards go out and win (KENG-46).

    The seat could play its last card(s) and win for its team (KENG-31, KENG-46), and accepts
    the pending draw (KENG-27), draws two (KENG-13) or passes (KENG-12) instead. With the
    default options a seat that has a legal play must make it (KENG-11, KENG-13), so the rule
    applies only where the going-out play is a stack on a pending draw (the other option is to
    accept it: about one greedy game in a hundred); with ``keng_draw_when_able`` on, every
    going-out turn play has the draw beside it (greedy play is the same: it never draws when it
    can play)."""
    if e.kind not in KENG_PLAYS or not empties_hand(s, e):
        return None
    for kind in ("ACCEPT", "DRAW", "PASS"):
        for a in options:
            if a.kind == kind:
                return a
    return None


def _keep_a_lone_three(game: Game, s: Any, e: Event, options: list[Event]) -> Event | None:
    """够级: keeps a lone 3, stifled when its play is beaten (闷, GJ-44), where it could go out (GJ-29).

    The seat could go out with its play (GJ-29) and plays all but one 3 instead, left with a
    lone 3 that is stifled (judged 拉客) as soon as that play is beaten (GJ-44). Such hands are
    common at the end: 3s must be played last (GJ-28). The 3 kept is stifleable under either
    ``men_scope`` (exactly one 3 is "a single 3" and "only 3s"). Only while the team result is
    still open (``gouji_result_open``): once the places taken decide it, nothing the seat does
    changes its win probability, the review's scale."""
    if e.kind != "PLAY" or not empties_hand(s, e) or not gouji_result_open(s, e.seat):
        return None
    hand = Counter(s.hands[e.seat])
    for a in options:
        if a.kind != "PLAY":
            continue
        left = hand - Counter(a.cards)
        if left.total() == 1 and GJ_STRENGTH[next(iter(left))] == GJ_THREE:
            return a
    return None


def gouji_result_open(s: Any, seat: int) -> bool:
    """True if the seat's team may still win, draw or lose by more than one of these (GJ-32):
    the team totals of the places taken so far plus, for the active seats, the free places in
    the team's best order and in its worst differ in sign (a total between them is reached by
    some order, and sign is monotone)."""
    mine = gj_team_of(seat)
    sign = [1 if gj_team_of(i) == mine else -1 for i in range(len(s.out_pos))]
    total = sum(sign[i] * GJ_POINTS[p] for i, p in enumerate(s.out_pos) if p)
    free = sorted(p for p in range(1, len(GJ_POINTS)) if p not in s.out_pos)
    active = sorted((i for i, p in enumerate(s.out_pos) if not p), key=lambda i: -sign[i])
    best = total + sum(sign[i] * GJ_POINTS[p] for i, p in zip(active, free, strict=True))
    worst = total + sum(sign[i] * GJ_POINTS[p]
                        for i, p in zip(active, reversed(free), strict=True))
    return (best > 0) - (best < 0) != (worst > 0) - (worst < 0)


THREAT = 2      # 六人斗地主: an opponent with at most this many cards may go out on its next play


def _pass_instead_of_going_out(game: Game, s: Any, e: Event,
                               options: list[Event]) -> Event | None:
    """六人斗地主: passes (DDZ-72) where its last cards beat an opponent's play and win (DDZ-76), an opponent near out.

    The seat could beat an opponent's play with its last cards and win the hand for its side
    (DDZ-76), and passes instead (DDZ-72), while an opponent holds at most ``THREAT`` cards.
    Only on an opponent's play (the sides as formed, ``side_code``): on a partner's play a pass
    often costs nothing, the partner's side being the seat's own. And only with an opponent
    near out: with every opponent far from it the seat gets another turn before anyone can go
    out, and the pass costs little (in 30 greedy 二打四 games, 8 of the 14 passes had every
    opponent at ≥ 3 cards: 7 cost nothing in any world, one 0.75 points; the 6 others cost
    1.7–9.6); with one at one or two cards the pass hands it the chance to win first."""
    if e.kind != "PLAY" or not empties_hand(s, e) or s.top_seat < 0:
        return None
    mine, theirs = side_code(s, e.seat), side_code(s, s.top_seat)
    if mine < 0 or theirs < 0 or mine == theirs:
        return None
    near = min((len(h) for i, h in enumerate(s.hands)
                if h and side_code(s, i) not in (mine, -1)), default=THREAT + 1)
    if near > THREAT:
        return None
    return next((a for a in options if a.kind == "PASS"), None)


def _discard_the_winning_card(game: Game, s: Any, e: Event,
                              options: list[Event]) -> Event | None:
    """扑克六湖: discards the card just drawn (LH-16) where it completes a 自摸 win (LH-28, LH-60).

    The seat could declare 自摸 (LH-28; each other seat pays, LH-60) and discards the card it
    has just drawn, the winning card, instead (LH-16). Not a declined 胡 on a discard (LH-27):
    passing one to wait for 自摸, which pays five times as much (LH-60, LH-61), is a strategy,
    not a blunder — the review's rollouts often value it higher."""
    if e.kind != "HU" or e.tag != "zimo" or s.drawn < 0:
        return None
    return next((a for a in options if a.kind == "DISCARD" and a.cards == (s.drawn,)), None)


# Planted blunders by rule, per game: (state, the chosen event, the seat's options) -> a clearly
# worse legal action, or None where the rule does not apply.
BLUNDERS = {
    "modaoshuang": _skip_going_out,
    "keng": _keep_cards,
    "gouji": _keep_a_lone_three,
    "ddz6_3v3": _pass_instead_of_going_out,
    "ddz6_2v4": _pass_instead_of_going_out,
    "ddz6_zhengfan": _pass_instead_of_going_out,
    "liuhu": _discard_the_winning_card,
}
