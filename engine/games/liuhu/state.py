"""The 扑克六湖 hand state: one slotted record whose fields hold only immutable values.

A log game is one hand (局) of a liuhu game; the game of ``hands`` hands (LH-68) is a
session whose balances carry over. ``rules.step`` assigns new field values in place on a
private copy; a state handed out is never changed. The position JSON of this record is
written by ``position.to_position``.
"""

from __future__ import annotations

from engine.games.frame import SlotState
from engine.games.liuhu.options import LiuhuOptions

# Phases of a hand (section 6 and the claim window of LH-34). The engine owes an automatic
# event in DEAL (DEAL), DRAW (a front DRAW, or LIUJU on an empty wall: LH-14, LH-64), TAIL (a
# replacement DRAW, LH-24), WINDOW, AWARD, SETTLE and END (GAME_END); a seat acts in TURN
# (post-draw: 自摸, a kong or a discard), CLAIMED (post-claim: a discard, LH-18), RESPOND (the
# next eligible seat answers, LH-34) and CLAIM (the awarded claimer makes its claim).
DEAL, TURN, CLAIMED, DRAW, TAIL, WINDOW, RESPOND, AWARD, CLAIM, SETTLE, END, OVER = (
    "deal", "turn", "claimed", "draw", "tail", "window", "respond", "award", "claim",
    "settle", "end", "over")
PHASES = (DEAL, TURN, CLAIMED, DRAW, TAIL, WINDOW, RESPOND, AWARD, CLAIM, SETTLE, END, OVER)

# Meld kinds (LH-20 … LH-26) and claims (LH-33: hu > gang = peng > chi).
CHI, PENG, MING_GANG, AN_GANG = "chi", "peng", "ming_gang", "an_gang"
MELD_KINDS = (CHI, PENG, MING_GANG, AN_GANG)
HU, GANG, PASS = "hu", "gang", "pass"
CLAIM_KINDS = (HU, GANG, PENG, CHI)
PRIORITY = {HU: 3, GANG: 2, PENG: 2, CHI: 1}
# Window kinds and win types (LH-27 … LH-29).
DISCARD_WINDOW, ROB_WINDOW = "discard", "rob"
ZIMO, FANGCHONG, QIANGGANG = "zimo", "fangchong", "qianggang"
WIN_TYPES = (ZIMO, FANGCHONG, QIANGGANG)

# A meld: (kind, cards sorted, from seat (-1 for 暗杠), claimed card (-1 none)).
Meld = tuple[str, tuple[int, ...], int, int]
# A claim: (kind, with): the concealed faces it uses (chi: two; peng: two; gang: three; hu: ()).
Claim = tuple[str, tuple[int, ...]]


class LhState(SlotState):
    """A full position of one 扑克六湖 hand."""

    __slots__ = (
        "game_id", "seq", "players", "options", "previous_game", "session",
        "hand_no", "first_dealer", "dealer", "dice", "ring", "brk", "wall", "front", "tail",
        "balances", "phase", "turn", "drawn", "hands", "melds", "pool",
        "w_kind", "w_card", "w_from", "eligible", "answers", "calls", "pending", "rob_closed",
        "hus", "changes", "next_dealer", "result", "unseen",
    )

    game_id: str
    seq: int                        # the seq the next event must carry
    players: tuple[str, ...]
    options: LiuhuOptions
    previous_game: str | None       # the previous hand of the session, if any
    session: str | None
    hand_no: int                    # 1-based hand number in the game (LH-68)
    first_dealer: int               # the game's first dealer (LH-65)
    dealer: int                     # this hand's dealer (LH-65 … LH-67)
    dice: tuple[int, int]           # LH-10
    ring: tuple[int, ...]           # R, the recorded deck order (LH-9)
    brk: int                        # b (LH-10)
    wall: tuple[int, ...]           # W in drawing order (LH-10)
    front: int                      # f (LH-11)
    tail: int                       # t (LH-11); the wall holds t − f + 1 cards
    balances: tuple[int, ...]       # chip balances carried into this hand (LH-2, LH-68)
    phase: str                      # one of PHASES
    turn: int                       # the seat on turn (draws, discards, declares)
    drawn: int                      # the card the seat on turn drew last, -1 none
    hands: tuple[tuple[int, ...], ...]        # concealed cards per seat, sorted
    melds: tuple[tuple[Meld, ...], ...]       # laid-down melds per seat, in order made
    pool: tuple[tuple[int, int], ...]         # discards (seat, card) still in the pool
    w_kind: str                     # the claim window: discard | rob, "" none
    w_card: int                     # its card (a robbed 加杠's card is held here), -1 none
    w_from: int                     # the discarder or declarer, -1 none
    eligible: tuple[tuple[int, tuple[Claim, ...]], ...]   # in answer order (LH-34)
    answers: tuple[tuple[int, Claim], ...]                # (seat, claim; kind pass) so far
    calls: tuple[tuple[int, Claim], ...]      # the non-pass calls of the window, after AWARD
    pending: tuple[tuple[int, Claim], ...]    # awarded claims still to be made (LH-33, LH-35)
    rob_closed: int                 # the card of a 加杠 whose robbing window closed with no 胡,
    #                               # until its replacement draw (LH-24, LH-29), -1 none: the
    #                               # seats see that window open till then (LH-70)
    hus: tuple[tuple[int, str, int, int, int, tuple[int, ...], str], ...]
    #                               # each win: seat, type, card, payer, total, concealed,
    #                               # the split as canonical JSON
    changes: tuple[int, ...]        # the SETTLE chip changes once settled, () before
    next_dealer: int                # the next hand's dealer once known (LH-66, LH-67), -1
    result: str | None              # the canonical JSON of GAME_END once over
    unseen: tuple[int, ...]         # per seat, the events so far it did not see happen
    #                               # (LH-70: other seats' RESPOND, an AWARD of nothing)

    def __init__(self, *, game_id: str, seq: int, players: tuple[str, ...], options: LiuhuOptions,
                 previous_game: str | None, session: str | None, hand_no: int, first_dealer: int,
                 dealer: int, dice: tuple[int, int], ring: tuple[int, ...], brk: int,
                 wall: tuple[int, ...], front: int, tail: int, balances: tuple[int, ...],
                 phase: str, turn: int, drawn: int, hands: tuple[tuple[int, ...], ...],
                 melds: tuple[tuple[Meld, ...], ...], pool: tuple[tuple[int, int], ...],
                 w_kind: str, w_card: int, w_from: int,
                 eligible: tuple[tuple[int, tuple[Claim, ...]], ...],
                 answers: tuple[tuple[int, Claim], ...], calls: tuple[tuple[int, Claim], ...],
                 pending: tuple[tuple[int, Claim], ...], rob_closed: int,
                 hus: tuple[tuple[int, str, int, int, int, tuple[int, ...], str], ...],
                 changes: tuple[int, ...], next_dealer: int, result: str | None,
                 unseen: tuple[int, ...]) -> None:
        """The one way to build a state: every field by name, none defaulted (a field
        left out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id = game_id
        self.seq = seq
        self.players = players
        self.options = options
        self.previous_game = previous_game
        self.session = session
        self.hand_no = hand_no
        self.first_dealer = first_dealer
        self.dealer = dealer
        self.dice = dice
        self.ring = ring
        self.brk = brk
        self.wall = wall
        self.front = front
        self.tail = tail
        self.balances = balances
        self.phase = phase
        self.turn = turn
        self.drawn = drawn
        self.hands = hands
        self.melds = melds
        self.pool = pool
        self.w_kind = w_kind
        self.w_card = w_card
        self.w_from = w_from
        self.eligible = eligible
        self.answers = answers
        self.calls = calls
        self.pending = pending
        self.rob_closed = rob_closed
        self.hus = hus
        self.changes = changes
        self.next_dealer = next_dealer
        self.result = result
        self.unseen = unseen

    def seen_seq(self, seat: int | None) -> int:
        """The seq of the next event in the seat's own numbering, which counts only the events
        it saw happen (LH-70: gaps would tell how many seats were eligible); the auditor's
        (None) is the log's seq."""
        return self.seq if seat is None else self.seq - self.unseen[seat]

    def wall_size(self) -> int:
        """The number of cards left in the wall (LH-11)."""
        return self.tail - self.front + 1

    def hand_size(self) -> int:
        """H = 3g + 1 (LH-12)."""
        return 3 * self.options.groups + 1
