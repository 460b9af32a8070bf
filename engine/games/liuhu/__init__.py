"""扑克六湖 (liuhu): rules LH-1 … LH-73 of rules/liuhu.md, for six players.

The cards and options (``cards``, ``options``: section 4), the winning hand (``hand``,
``split``: section 9, 10), the hand state, setup and deal (``state``, ``setup``: section 5),
turns and kongs (``turns``), claims and the claim window (``claims``, ``window``: sections 7,
8), wins and settlement (``scoring``: sections 10 … 13), the dispatcher (``rules``), the engine
functions and sessions (``game``), information (``info``), positions, the table
(``table``, ``describe``) and bots. One log game is one hand; the game of ``hands`` hands is the session (LH-68).
"""

from engine.games.base import DecisionHooks, FactHooks, Game
from engine.games.frame import RecordWords, ReviewScale
from engine.games.liuhu import decisions as _decisions
from engine.games.liuhu import facts as _facts
from engine.games.liuhu import game as _g
from engine.games.liuhu import tendencies as _tendencies
from engine.games.liuhu.bots import POLICIES, STYLE_CATEGORIES, GreedyPolicy, RandomPolicy
from engine.games.liuhu.game import *  # noqa: F403
from engine.games.liuhu.game import __all__ as _game_all
from engine.games.liuhu.info import cards_visible, event_hidden, seen_event, view, window_seats
from engine.games.liuhu.options import LiuhuOptions
from engine.games.liuhu.position import from_position, to_position
from engine.games.liuhu.sample import sample_world
from engine.games.liuhu.state import LhState
from engine.games.liuhu.table import describe, table

Options = LiuhuOptions


def session_length(options: LiuhuOptions) -> int:
    """The games of a session: the hands of one game of the rules (LH-68)."""
    return int(options.hands)


DEMO = {"weight": 1, "option_sets": [{}, {"groups": 5, "hunzi": 1}], "session_games": 6,
        "policy": "greedy"}

CONFORMANCE = {
    "option_sets": [
        {"hands": 3},
        {"decks": 2, "hunzi": 1, "chi_card": "any", "min_hu": 0, "hands": 2},
        {"decks": 3, "groups": 5, "chi_card": "end", "draw_dealer": "next",
         "zimo_bonus_counts": "no", "hands": 2},
        {"multi_win": "all", "pair_match": "face", "special_sequence": "same_colour",
         "concealed_triplet_hu": 6, "min_hu": 3, "hands": 2},
        {"special_sequence": "same_suit", "min_hu": 6, "multi_win": "all", "hunzi": 1,
         "hands": 2},
    ],
    "games": 4,
    "hostile_start_key": "hand",     # a GAME_START key the game itself reads
    "decision_games": 4,
    "rare_decisions": ("an_gang", "jia_gang", "gang", "discard"),
    "fact_games": 12,
    # both policies always take a 胡 (so no 过胡); two 胡 calls on one card (截胡), a robbed
    # 加杠, the dealer's first-turn 自摸 and a 暗杠 are seldom in self-play:
    # tests/games/liuhu/test_facts.py makes each happen on a position
    "rare_facts": ("won_qianggang", "kong_robbed", "won_first_turn", "hu_cut_off",
                   "passed_hu", "an_gang"),
    "required_kinds": ("GAME_START", "DEAL", "DRAW", "DISCARD", "WINDOW", "RESPOND", "AWARD",
                       "CHI", "PENG", "HU", "SETTLE", "GAME_END"),
}

# Settled in points (胡数, LH-59 … LH-63): a seat's chip change in a hand under greedy play has
# a standard deviation of ~24 points (23.7 over 1 500 hands, default options: 55 % of the seats
# neither win nor pay, a win is worth 15 or more); the steps are 10 / 20 / 30 % of it, as
# lichess's 5 / 10 / 15 points of win probability are of a coin's 50 (docs/review.md).
REVIEW_SCALE = ReviewScale("score", (2.4, 4.8, 7.2), "score in points (胡数)",
                           "10, 20 and 30 % of the ~24-point spread of a seat's chip change "
                           "in a hand, as lichess's steps are of a coin toss's")


GAME = Game(
    GAME_ID=_g.GAME_ID, TITLE=_g.TITLE, RULE_PREFIX=_g.RULE_PREFIX, RULES_FILE=("engine", "rules/liuhu.md"),
    RULES_VERSION=_g.RULES_VERSION, SIDES=_g.SIDES, Options=LiuhuOptions, seat_count=_g.seat_count,
    sides=_g.sides, outcomes=_g.outcomes,
    start_event=_g.start_event, initial_state=_g.initial_state, step=_g.step, apply=_g.apply, check=_g.check,
    legal_actions=_g.legal_actions, auto_event=_g.auto_event, next_auto=_g.next_auto, to_move=_g.to_move,
    is_over=_g.is_over, session_start=_g.session_start, check_session=_g.check_session, result=_g.result,
    face_counts=_g.face_counts,
    view=view, cards_visible=cards_visible, seen_event=seen_event, to_position=to_position,
    from_position=from_position, table=table, describe=describe, decisions=DecisionHooks.of(_decisions),
    tendencies=_tendencies.TENDENCIES, key_tendencies=_tendencies.KEY_TENDENCIES,
    POLICIES=POLICIES, style_categories=STYLE_CATEGORIES, DEMO=DEMO, CONFORMANCE=CONFORMANCE,
    session_length=session_length, event_hidden=event_hidden, window_seats=window_seats,
    facts=FactHooks.of(_facts),
    # review (engine/review.py): the seat's expected chip change in points, rollouts by the
    # greedy policy
    sample_world=sample_world, review_scale=REVIEW_SCALE, review_policy="greedy",
    # a hand has one winner (or a few) of six; most seats neither win nor pay (LH-61, LH-62):
    # the share of hands won is the headline, not wins / (wins + losses)
    record_words=RecordWords(
        games="hands settled", wins="hands won", losses="hands paid",
        draws="hands neither won nor paid", rate_over="games", rate="hands won",
        about="hands won / hands settled (a hand neither won nor paid is a hand not won; "
              "LH-60 to LH-64)"),
)

__all__ = ["GAME", *_game_all, "CONFORMANCE", "DEMO", "POLICIES", "session_length",
           "GreedyPolicy", "LhState",
           "LiuhuOptions", "Options", "RandomPolicy", "cards_visible", "event_hidden",
           "describe", "from_position", "seen_event", "table", "to_position", "view", "window_seats"]
