"""六人坑 decision points on known positions (docs/decisions.md): the categories of a turn,
the stack choice (KENG-27), suit naming (KENG-20), 抢 taken and let go (KENG-34 to KENG-37),
the last-card report made and missed (KENG-33)."""

from __future__ import annotations

from engine.cards import parse_faces
from engine.games import keng
from engine.games.keng import decisions as K

from .conftest import (
    DEFAULT_HANDS,
    DEFAULT_STOCK,
    accept,
    draw,
    pass_,
    play,
    run,
    settle,
    snatch,
    started,
)

SUITS = "shcd"


def pos(hands: dict[int, str] | None = None, *, top: str = "5h", by: int | None = None,
        suit: str | None = None, to_act: int = 0, cycle: int = 1, pending: int = 0,
        window: bool | None = None, options: dict | None = None, drawn: bool = False,
        report_seat: int = -1) -> keng.KengState:
    """A playing state: a seeded game after its start card with hands, stock, top play, P,
    cycle and flags set as given (default hands and stock of conftest; the top play by the
    seat before ``to_act``; its suit the top card's unless named)."""
    s = started(1, keng.KengOptions(**(options or {})))
    s, _ = settle(run(s, keng.turn_actions(s)[0]))
    s = s.copy()
    hs = list(DEFAULT_HANDS)
    for seat, text in (hands or {}).items():
        hs[seat] = text
    s.hands = tuple(tuple(sorted(parse_faces(h))) for h in hs)
    s.stock = parse_faces(DEFAULT_STOCK)
    s.table = parse_faces("2h 3h 4h 6h")
    s.top = parse_faces(top)
    s.top_seat = (to_act - 1) % 6 if by is None else by
    s.top_suit = SUITS.index(suit or top[1])
    s.top_start = s.top_duel = False
    s.covered = ()
    s.pending, s.direction, s.cycle, s.to_act, s.turn_rule = pending, 1, cycle, to_act, "KENG-15"
    s.drawn, s.accepted, s.drew_cards = drawn, False, False
    s.duel = s.duel_due = None
    s.window = cycle >= 2 if window is None else window
    s.report_seat = report_seat
    return s


def test_facing_a_pending_draw_the_seat_stacks_or_accepts():
    """KENG-27: a K on a K play is a stack; a seat without K or RJ only accepts (no row)."""
    s = pos({0: "Kh 2c 3c"}, top="Ks", by=5, pending=2)
    d = K.decision(s, accept(s, 0))
    assert (d.options, d.chosen, d.can_answer, d.top_seat) == ({"stack_k", "accept"}, "accept",
                                                               True, 5)
    d = K.decision(s, play(s, 0, "Kh"))
    assert (d.chosen, d.cards, d.hand, d.phase) == ("stack_k", parse_faces("Kh"), 3, "cycle1")
    assert K.decision(pos({0: "2c 3c 4d"}, top="Ks", by=5, pending=2),
                      accept(pos({0: "2c 3c 4d"}, top="Ks", by=5, pending=2), 0)) is None


def test_a_k_is_no_stack_on_a_red_joker_unless_the_option_says_so():
    """KENG-28: on a pending RJ play only an RJ stacks; keng_k_on_rj lets a K of the named
    suit stack too."""
    hands = {0: "Kh RJ 3c"}
    s = pos(hands, top="RJ", by=5, suit="h", pending=4)
    assert K.decision(s, accept(s, 0)).options == {"stack_rj", "accept"}
    s = pos(hands, top="RJ", by=5, suit="h", pending=4, options={"keng_k_on_rj": True})
    assert K.decision(s, accept(s, 0)).options == {"stack_k", "stack_rj", "accept"}


def test_a_turn_lists_the_card_class_of_each_legal_play():
    """KENG-17: on 5h a 5s and a 7h are number cards, Qh a Q, the BJ a joker; 2c matches
    nothing. No draw while a play exists (KENG-13), unless keng_draw_when_able."""
    hands = {0: "5s 7h Qh BJ 2c"}
    s = pos(hands)
    d = K.decision(s, play(s, 0, "7h"))
    assert (d.options, d.chosen) == ({"number", "queen", "small_joker"}, "number")
    s = pos(hands, options={"keng_draw_when_able": True})
    assert K.decision(s, draw(s, 0)).options == {"number", "queen", "small_joker", "draw"}
    s = pos(hands, drawn=True)
    d = K.decision(s, pass_(s, 0))
    assert (d.chosen, "pass" in d.options, "after_draw" in d.tags) == ("pass", True, True)


def test_the_suit_named_for_a_joker_is_compared_with_the_hand_left():
    """KENG-20: the hand left after BJ is 5s 7h Qh 2c: hearts, two cards, is the most held."""
    s = pos({0: "5s 7h Qh BJ 2c"})
    assert K.decision(s, play(s, 0, "BJ", "h")).tags == ("named_most_held",)
    assert K.decision(s, play(s, 0, "BJ", "s")).tags == ("named_other",)
    s = pos({0: "BJ RJ"})          # nothing suited left: no naming fact
    assert K.decision(s, play(s, 0, "BJ", "s")).tags == ()


def test_a_pair_of_the_top_pairs_rank_is_a_play_of_its_class():
    """KENG-19: on the pair 5h 5h a pair 5s 5s may be played, a single 5s may not."""
    s = pos({0: "5s 5s 2c"}, top="5h 5h")
    assert K.turn_options(s, 0) == {"number"}
    assert K.decision(s, play(s, 0, "5s 5s")) is None      # one category: no choice of kinds
    s = pos({0: "5s 2c Jd"}, top="5h 5h")
    assert K.turn_options(s, 0) == {"draw"}


def _window(cycle: int = 2):
    """Seat 0 has played 7h in cycle 2: seats 2 and 3 hold 7h, seat 1 nothing to play."""
    s = pos({0: "7h 2c 3c", 3: "7h 4s 6s", 2: "7h 4c 6d"}, to_act=0, cycle=cycle,
            window=False)
    return run(s, play(s, 0, "7h"))


def test_a_snatch_taken_and_the_snatches_let_go():
    """KENG-36: draws leave the window open; seat 1's pass closes it: seats 2 and 3 let their
    snatch go. A snatch by seat 2 is its row, and seat 3 lets its own go."""
    s = _window()
    assert K.lapsed(s, draw(s, 1)) == ()
    after = run(s, draw(s, 1))
    after, _ = settle(after)
    rows = K.lapsed(after, pass_(after, 1))
    assert [(x.seat, x.chosen, x.options) for x in rows] == [
        (2, "let", {"snatch", "let"}), (3, "let", {"snatch", "let"})]
    e = snatch(s, 2, "7h", "valid")
    d = K.decision(s, e)
    assert (d.seat, d.chosen, d.cards, d.top_seat) == (2, "snatch", e.cards, 0)
    assert [x.seat for x in K.lapsed(s, e)] == [3]
    assert K.decision(s, snatch(s, 4, None, "false")) is None


def test_no_snatch_in_cycle_1_nothing_lapses():
    s = _window(cycle=1)
    assert not s.window and K.lapsed(s, draw(s, 1)) == ()


def test_the_last_card_report_made_or_missed():
    """KENG-33: seat 0 holds one card with its report owed; reporting is one row, and seat 1's
    draw before it makes the engine's penalty the other."""
    s = pos({0: "9c"}, to_act=1, report_seat=0)
    e = keng.out_of_turn_actions(s)[0]
    assert e.kind == "LAST_CARD"
    d = K.decision(s, e)
    assert (d.seat, d.options, d.chosen, d.hand) == (0, {"report", "miss_report"}, "report", 1)
    s = run(s, draw(s, 1))
    penalty = keng.auto_event(s)
    assert penalty.kind == "REPORT_PENALTY"
    d = K.decision(s, penalty)
    assert (d.seat, d.chosen) == (0, "miss_report")
