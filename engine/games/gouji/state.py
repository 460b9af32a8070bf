"""The 够级 game state (GJ-49): one slotted record whose fields are never mutated in place.

Every field holds an immutable value (ints, strings, tuples, None). ``apply`` copies the record
and replaces fields, so a state handed out is never changed; bulk replay steps one private copy.
Seat sets are 6-bit masks (bit i = seat i).
"""

from __future__ import annotations

from engine.events import Event
from engine.games.frame import Record, SlotState
from engine.games.gouji.options import GoujiOptions

N_SEATS = 6
ALL_SEATS = (1 << N_SEATS) - 1
EVEN_MASK, ODD_MASK = 0b010101, 0b101010
TEAM_MASK = (EVEN_MASK, ODD_MASK)
TEAM_NAMES = ("even", "odd")

# Stages of a game (GJ-10).
CUT, DIRECTION, DEAL, PLAY, DESIGNATE, OVER = "cut", "direction", "deal", "play", "designate", "over"
STAGES = (CUT, DIRECTION, DEAL, PLAY, DESIGNATE, OVER)

# How a player left the table (GJ-48 `out`): went out, stifled, false burn, left alone.
FINISHED, MEN, ZHASHAO, LAST, DESIGNATED = "finished", "men", "zhashao", "last", "designated"
JUDGED = (MEN, ZHASHAO)


class PlayInfo(Record):
    """A play's shape (GJ-12 to GJ-17): base strength, count, wilds, 够级 shape, purity."""

    __slots__ = ("base", "n", "n2", "nbj", "nrj", "shaped", "pure")

    def __init__(self, base: int, n: int, n2: int, nbj: int, nrj: int, shaped: bool,
                 pure: bool) -> None:
        self.base = base
        self.n = n
        self.n2 = n2
        self.nbj = nbj
        self.nrj = nrj
        self.shaped = shaped
        self.pure = pure



class GoujiState(SlotState):
    """A full position of one 够级 game; docs/gouji.md documents the JSON form."""

    __slots__ = (
        "game_id", "options", "players", "game_no", "session", "previous_game", "seq", "stage",
        "direction", "starter", "huiwu_team", "huiwu_due",
        "cutter", "cuts", "first_player", "cut_holder",
        "hands", "played", "out_pos", "out_how", "open_phase",
        "opened", "xd_used", "xd_pending", "window",
        "burner", "kd_cand",
        "top", "top_seat", "top_info", "top_huiwu", "passed",
        "rang_seat", "rang_wait", "last", "to_act",
        "owed", "designation", "result",
    )

    game_id: str
    options: GoujiOptions
    players: tuple[str, ...]
    game_no: int                       # 1, 2, … within the session
    session: str | None
    previous_game: str | None
    seq: int                           # the seq the next event must carry
    stage: str
    direction: int                     # d = +1 / -1; 0 before the first game's choice
    starter: int                       # -1 before the first game's cut decides it
    huiwu_team: int                    # team (0 even, 1 odd) that opens with the 会五, or -1
    huiwu_due: bool                    # the starter's first play must be the 会五 (GJ-35)
    cutter: int                        # -1 before the first cut
    cuts: tuple[tuple[int, int, int], ...]   # (seat, card, count_dir or 0 for a joker)
    first_player: int                  # F of GJ-6, -1 until a non-joker is cut
    cut_holder: int                    # who received the face-up cut card, -1 none
    hands: tuple[tuple[int, ...], ...]  # per seat, sorted by strength; judged: dead cards
    played: tuple[int, ...]            # every card played, in order (void plays included)
    out_pos: tuple[int, ...]           # position 1-6 per seat, 0 while active
    out_how: tuple[str, ...]           # how each placed seat left ("" while active)
    open_phase: bool                   # two players out (GJ-18, GJ-25)
    opened: int                        # mask of opened seats (GJ-36 to GJ-38)
    xd_used: int                       # mask of opposite pairs (0-2) that used their 宣点
    xd_pending: int                    # proposer of a 宣点 awaiting its answer, -1 none
    window: bool                       # the declaration window is open (GJ-38)
    burner: int                        # the burner, -1 none (GJ-39)
    kd_cand: int                       # the 开点 candidate, -1 none (GJ-36)
    top: tuple[int, ...]               # the top play's cards; () before a lead
    top_seat: int                      # its maker, -1 before a lead
    top_info: PlayInfo | None
    top_huiwu: bool                    # the top play is the 会五
    passed: int                        # mask: locked seats (restricted) / passed since top (open)
    rang_seat: int                     # the yielder D, -1 none (GJ-26)
    rang_wait: tuple[int, ...]         # which of next(D), next(next(D)) have still to act
    last: int                          # the seat that acted last (turn order runs after it)
    to_act: int                        # the seat to act (leader or responder), -1 none
    owed: tuple[Event, ...]            # derived events the engine owes, in order (GJ-48)
    designation: tuple[int, ...] | None   # the swept team's order, once designated
    result: dict | None

    def __init__(self, *, game_id: str, options: GoujiOptions, players: tuple[str, ...],
                 game_no: int, session: str | None, previous_game: str | None, seq: int,
                 stage: str, direction: int, starter: int, huiwu_team: int, huiwu_due: bool,
                 cutter: int, cuts: tuple[tuple[int, int, int], ...], first_player: int,
                 cut_holder: int, hands: tuple[tuple[int, ...], ...], played: tuple[int, ...],
                 out_pos: tuple[int, ...], out_how: tuple[str, ...], open_phase: bool, opened: int,
                 xd_used: int, xd_pending: int, window: bool, burner: int, kd_cand: int,
                 top: tuple[int, ...], top_seat: int, top_info: PlayInfo | None, top_huiwu: bool,
                 passed: int, rang_seat: int, rang_wait: tuple[int, ...], last: int, to_act: int,
                 owed: tuple[Event, ...], designation: tuple[int, ...] | None, result: dict | None,
                 ) -> None:
        """The one way to build a state: every field by name, none defaulted (a field
        left out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id = game_id
        self.options = options
        self.players = players
        self.game_no = game_no
        self.session = session
        self.previous_game = previous_game
        self.seq = seq
        self.stage = stage
        self.direction = direction
        self.starter = starter
        self.huiwu_team = huiwu_team
        self.huiwu_due = huiwu_due
        self.cutter = cutter
        self.cuts = cuts
        self.first_player = first_player
        self.cut_holder = cut_holder
        self.hands = hands
        self.played = played
        self.out_pos = out_pos
        self.out_how = out_how
        self.open_phase = open_phase
        self.opened = opened
        self.xd_used = xd_used
        self.xd_pending = xd_pending
        self.window = window
        self.burner = burner
        self.kd_cand = kd_cand
        self.top = top
        self.top_seat = top_seat
        self.top_info = top_info
        self.top_huiwu = top_huiwu
        self.passed = passed
        self.rang_seat = rang_seat
        self.rang_wait = rang_wait
        self.last = last
        self.to_act = to_act
        self.owed = owed
        self.designation = designation
        self.result = result

    @property
    def phase(self) -> str:
        """The stage, under the name the generic tools use."""
        return self.stage

    @property
    def is_over(self) -> bool:
        """True once GAME_END is applied."""
        return self.stage == OVER


def opposite(seat: int) -> int:
    """The opposite seat (对门, GJ-4)."""
    return (seat + 3) % N_SEATS


def team_of(seat: int) -> int:
    """Team 0 = even seats, team 1 = odd seats (GJ-4)."""
    return seat & 1
