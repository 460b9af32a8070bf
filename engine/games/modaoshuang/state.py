"""The 摸到爽 game state (MDS-42): one slotted record whose fields hold only immutable values.

``rules.step`` assigns new field values in place on a private copy; a state handed out is never
changed. The position JSON of this record is documented in docs/modaoshuang.md.
"""

from __future__ import annotations

from engine.games.frame import SlotState
from engine.games.modaoshuang.options import ModaoshuangOptions

# Phases of a game.
DEAL, SUIT_DRAW, PLAY, END, OVER = "deal", "suit_draw", "play", "end", "over"
PHASES = (DEAL, SUIT_DRAW, PLAY, END, OVER)

# Causes of a MISSED_REPORT (section 13): a missed report (MDS-22) or a joker violation (MDS-20).
REPORT, JOKER = "report", "joker"


class MdsState(SlotState):
    """A full position of one 摸到爽 game."""

    __slots__ = (
        "game_id", "seq", "players", "options", "n", "first_leader", "first_rule", "deck",
        "phase", "shou",
        "hands", "stock", "dead",
        "first_suit", "suit_cards",
        "round_no", "leader", "suit", "table", "table_seats", "turns", "collector",
        "report_seat", "report_count", "missed",
        "pen_seat", "pen_cause", "pen_draws", "pen_gifts", "out_pending",
        "winner", "dianpao", "result",
    )

    game_id: str
    seq: int                      # the seq the next event must carry
    players: tuple[str, ...]
    options: ModaoshuangOptions
    n: int                        # number of seats (= len(players))
    first_leader: int             # MDS-8
    first_rule: str               # "random" or "previous" (how the first leader was chosen)
    deck: tuple[int, ...]         # the shuffled deck of GAME_START
    phase: str                    # deal | suit_draw | play | end (GAME_END owed) | over
    shou: bool                    # the 收到爽 phase has begun (PHASE_SHOUDAOSHUANG, MDS-28)
    hands: tuple[tuple[int, ...], ...]   # sorted face codes per seat
    stock: tuple[int, ...]        # draw order: stock[0] is the top card (MDS-15)
    dead: tuple[int, ...]         # played cards out of the game (MDS-14), in the order they died
    first_suit: int               # the suit announced by the suit draw (MDS-10), -1 before it
    suit_cards: tuple[int, ...]   # the cards drawn in the suit draw (the drawer's secret)
    round_no: int                 # 0 before round 1
    leader: int                   # the seat that acts first in this round
    suit: int                     # the round suit, -1 until a lead sets it (MDS-12)
    table: tuple[int, ...]        # the cards played in this round, in order
    table_seats: tuple[int, ...]  # their players
    turns: int                    # seats that have had their turn in this round (MDS-11)
    collector: int                # the round's collector (MDS-30, MDS-32), -1 none
    report_seat: int              # seat with an open report obligation (MDS-22, MDS-26), -1 none
    report_count: int             # the count it must announce (2, or 1)
    missed: tuple[tuple[int, str], ...]   # MISSED_REPORT events owed: (offender, cause)
    pen_seat: int                 # offender of the penalty in progress, -1 none
    pen_cause: str                # its cause (report | joker), "" none
    pen_draws: int                # penalty draws still owed (MDS-24)
    pen_gifts: tuple[int, ...]    # seats still to choose a gift, in turn order (MDS-25)
    out_pending: int              # a violation emptied this seat's hand (MDS-20), -1 none
    winner: int                   # the seat that went out (MDS-33), -1 none
    dianpao: int                  # the 点炮 seat (MDS-35), -1 none
    result: str | None            # the canonical JSON of the result once over

    def __init__(self, *, game_id: str, seq: int, players: tuple[str, ...],
                 options: ModaoshuangOptions, n: int, first_leader: int, first_rule: str,
                 deck: tuple[int, ...], phase: str, shou: bool, hands: tuple[tuple[int, ...], ...],
                 stock: tuple[int, ...], dead: tuple[int, ...], first_suit: int,
                 suit_cards: tuple[int, ...], round_no: int, leader: int, suit: int,
                 table: tuple[int, ...], table_seats: tuple[int, ...], turns: int, collector: int,
                 report_seat: int, report_count: int, missed: tuple[tuple[int, str], ...],
                 pen_seat: int, pen_cause: str, pen_draws: int, pen_gifts: tuple[int, ...],
                 out_pending: int, winner: int, dianpao: int, result: str | None) -> None:
        """The one way to build a state: every field by name, none defaulted (a field
        left out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id = game_id
        self.seq = seq
        self.players = players
        self.options = options
        self.n = n
        self.first_leader = first_leader
        self.first_rule = first_rule
        self.deck = deck
        self.phase = phase
        self.shou = shou
        self.hands = hands
        self.stock = stock
        self.dead = dead
        self.first_suit = first_suit
        self.suit_cards = suit_cards
        self.round_no = round_no
        self.leader = leader
        self.suit = suit
        self.table = table
        self.table_seats = table_seats
        self.turns = turns
        self.collector = collector
        self.report_seat = report_seat
        self.report_count = report_count
        self.missed = missed
        self.pen_seat = pen_seat
        self.pen_cause = pen_cause
        self.pen_draws = pen_draws
        self.pen_gifts = pen_gifts
        self.out_pending = out_pending
        self.winner = winner
        self.dianpao = dianpao
        self.result = result

    def turn_seat(self) -> int:
        """The seat whose turn it is in this round (leader + turns, MDS-11)."""
        return (self.leader + self.turns) % self.n
