"""The 小墩 game state: one slotted record whose fields hold only immutable values, built by
one constructor that requires every field (``ToyState(...)``, keyword-only)."""

from __future__ import annotations

from engine.games.frame import SlotState
from tests.toygame.options import ToyOptions

# Phases of a game.
DEAL, PLAY, END, OVER = "deal", "play", "end", "over"
PHASES = (DEAL, PLAY, END, OVER)


class ToyState(SlotState):
    """A full position of one 小墩 game."""

    __slots__ = (
        "game_id", "seq", "players", "options", "n", "first_leader", "first_rule", "deck",
        "phase", "hands", "stock", "leader", "trick", "trick_seats", "trick_no", "tricks",
        "taken", "result",
    )

    game_id: str
    seq: int                      # the seq the next event must carry
    players: tuple[str, ...]
    options: ToyOptions
    n: int                        # number of seats
    first_leader: int             # TRICK-4, TRICK-13
    first_rule: str               # "random" or "previous"
    deck: tuple[int, ...]         # the shuffled deck of GAME_START
    phase: str                    # deal | play | end (GAME_END owed) | over
    hands: tuple[tuple[int, ...], ...]   # sorted face codes per seat
    stock: tuple[int, ...]        # the undealt cards (TRICK-5)
    leader: int                   # the seat that leads the current trick
    trick: tuple[int, ...]        # the cards played to the current trick, in order
    trick_seats: tuple[int, ...]  # their seats
    trick_no: int                 # tricks completed
    tricks: tuple[int, ...]       # tricks won per seat
    taken: tuple[int, ...]        # the cards of completed tricks, in the order taken
    result: str | None            # the canonical JSON of the result once over

    def __init__(self, *, game_id: str, seq: int, players: tuple[str, ...],
                 options: ToyOptions, n: int, first_leader: int, first_rule: str,
                 deck: tuple[int, ...], phase: str, hands: tuple[tuple[int, ...], ...],
                 stock: tuple[int, ...], leader: int, trick: tuple[int, ...],
                 trick_seats: tuple[int, ...], trick_no: int, tricks: tuple[int, ...],
                 taken: tuple[int, ...], result: str | None) -> None:
        """The one way to build a state: every field by name, none defaulted (a field left
        out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id = game_id
        self.seq = seq
        self.players = players
        self.options = options
        self.n = n
        self.first_leader = first_leader
        self.first_rule = first_rule
        self.deck = deck
        self.phase = phase
        self.hands = hands
        self.stock = stock
        self.leader = leader
        self.trick = trick
        self.trick_seats = trick_seats
        self.trick_no = trick_no
        self.tricks = tricks
        self.taken = taken
        self.result = result

    def turn_seat(self) -> int:
        """The seat to play to the current trick (TRICK-6)."""
        return (self.leader + len(self.trick)) % self.n
