"""The 六人坑 game state (KENG-51): one slotted record whose fields are never mutated in place.

Every field holds an immutable value (ints, tuples, None). ``apply`` copies the record and
replaces fields, so a state handed out is never changed; bulk replay steps one private copy.
"""

from __future__ import annotations

from engine.games.frame import Record, SlotState
from engine.games.keng.options import KengOptions

N_SEATS = 6

# Phases of a game.
DEALING, STARTING, PLAYING, OVER = "deal", "start", "play", "over"


class Duel(Record):
    """A duel under way (KENG-30): immutable."""

    __slots__ = ("challenger", "defender", "cards", "to_act", "next_seat")

    def __init__(self, challenger: int, defender: int, cards: tuple[int, ...], to_act: int,
                 next_seat: int) -> None:
        self.challenger = challenger
        self.defender = defender
        self.cards = cards
        self.to_act = to_act
        self.next_seat = next_seat



class KengState(SlotState):
    """A full position of one 六人坑 game; see docs/positions.md for the JSON form."""

    __slots__ = (
        "game_id", "options", "players", "opener", "deck", "seq", "phase",
        "hands", "stock", "table",
        "top", "top_seat", "top_suit", "top_start", "top_duel", "covered",
        "pending", "direction", "cycle", "to_act", "turn_rule", "drawn", "accepted", "drew_cards",
        "owed", "duel", "duel_due", "window", "banned", "ban_armed", "ban_end_due",
        "count_used", "report_seat", "penalty_due", "reshuffle_due", "passes",
        "end_due", "result",
    )

    game_id: str
    options: KengOptions
    players: tuple[str, ...]
    opener: int
    deck: tuple[int, ...]
    seq: int                      # the seq the next event must carry
    phase: str
    hands: tuple[tuple[int, ...], ...]   # sorted face codes per seat
    stock: tuple[int, ...]        # draw order: stock[0] is drawn first
    table: tuple[int, ...]        # played cards under the top play, in play order
    top: tuple[int, ...]          # the top play's cards
    top_seat: int
    top_suit: int                 # active suit (KENG-20)
    top_start: bool
    top_duel: bool
    covered: tuple[int, ...]      # faces of the play the top covered (KENG-38 case 4)
    pending: int                  # P
    direction: int                # d, +1 or -1
    cycle: int
    to_act: int
    turn_rule: str                # the rule that made to_act the seat to act
    drawn: bool                   # to_act drew two this turn (KENG-12)
    accepted: bool                # to_act accepted P this turn
    drew_cards: bool              # to_act's ACCEPT or DRAW this turn took cards (KENG-48)
    owed: tuple[int, str, int] | None   # draw split by a reshuffle: (seat, kind, cards owed)
    duel: Duel | None
    duel_due: tuple[int, int, int] | None   # DUEL_START owed: (challenger, defender, next)
    window: bool                  # the top play's snatch window is open (KENG-36)
    banned: tuple[bool, ...]
    ban_armed: tuple[bool, ...]   # the open window ends this seat's ban when it closes
    ban_end_due: tuple[int, ...]  # seats whose BAN_END is owed
    count_used: tuple[bool, ...]
    report_seat: int              # seat with an open last-card obligation, -1 none
    penalty_due: tuple[str, int] | None   # ("REPORT_PENALTY"|"SNATCH_PENALTY", seat)
    reshuffle_due: bool
    passes: int                   # passes in a row (KENG-48)
    end_due: tuple[str, int, int] | None  # (reason, deciding seat, winning team)
    result: dict | None

    def __init__(self, *, game_id: str, options: KengOptions, players: tuple[str, ...],
                 opener: int, deck: tuple[int, ...], seq: int, phase: str,
                 hands: tuple[tuple[int, ...], ...], stock: tuple[int, ...],
                 table: tuple[int, ...], top: tuple[int, ...], top_seat: int, top_suit: int,
                 top_start: bool, top_duel: bool, covered: tuple[int, ...], pending: int,
                 direction: int, cycle: int, to_act: int, turn_rule: str, drawn: bool,
                 accepted: bool, drew_cards: bool, owed: tuple[int, str, int] | None,
                 duel: Duel | None, duel_due: tuple[int, int, int] | None, window: bool,
                 banned: tuple[bool, ...], ban_armed: tuple[bool, ...],
                 ban_end_due: tuple[int, ...], count_used: tuple[bool, ...], report_seat: int,
                 penalty_due: tuple[str, int] | None, reshuffle_due: bool, passes: int,
                 end_due: tuple[str, int, int] | None, result: dict | None) -> None:
        """The one way to build a state: every field by name, none defaulted (a field
        left out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id = game_id
        self.options = options
        self.players = players
        self.opener = opener
        self.deck = deck
        self.seq = seq
        self.phase = phase
        self.hands = hands
        self.stock = stock
        self.table = table
        self.top = top
        self.top_seat = top_seat
        self.top_suit = top_suit
        self.top_start = top_start
        self.top_duel = top_duel
        self.covered = covered
        self.pending = pending
        self.direction = direction
        self.cycle = cycle
        self.to_act = to_act
        self.turn_rule = turn_rule
        self.drawn = drawn
        self.accepted = accepted
        self.drew_cards = drew_cards
        self.owed = owed
        self.duel = duel
        self.duel_due = duel_due
        self.window = window
        self.banned = banned
        self.ban_armed = ban_armed
        self.ban_end_due = ban_end_due
        self.count_used = count_used
        self.report_seat = report_seat
        self.penalty_due = penalty_due
        self.reshuffle_due = reshuffle_due
        self.passes = passes
        self.end_due = end_due
        self.result = result

    @property
    def is_over(self) -> bool:
        """True once GAME_END is applied."""
        return self.phase == OVER


def team_of(seat: int) -> int:
    """Team 0 = even seats, team 1 = odd seats (KENG-5)."""
    return seat & 1
