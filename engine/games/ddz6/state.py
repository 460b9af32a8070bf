"""The 六人斗地主 game state: one slotted record whose fields hold only immutable values.

``rules.step`` assigns new field values in place on a private copy; a state handed out is never
changed. One record serves the three variants (``variant``: '3v3', '2v4', 'zhengfan').
"""

from __future__ import annotations

from typing import Any

from engine.games.frame import SlotState

# Phases of a hand (the automatic events owed are queued in ``owed``).
START, BID, SIDE, DOUBLE, SHOW, PLAY, END, OVER = (
    "start", "bid", "side", "double", "show", "play", "end", "over")
PHASES = (START, BID, SIDE, DOUBLE, SHOW, PLAY, END, OVER)

# 3v3 identity cases (DDZ-24).
CASE_A, CASE_B1, CASE_B2, CASE_C = "A", "B1", "B2", "C"
CASES = (CASE_A, CASE_B1, CASE_B2, CASE_C)

# Side codes in events: 0 the landlord side (zhengfan: 正), 1 the other (farmers; zhengfan: 反).
LANDLORD_SIDE, OTHER_SIDE = 0, 1
ZHENG, FAN = "zheng", "fan"
LANDLORD, FARMER = "landlord", "farmer"

# End reasons.
OUT, AUTO, VOID = "out", "auto", "void"


class DdzState(SlotState):
    """A full position of one 六人斗地主 hand."""

    __slots__ = (
        "game_id", "seq", "players", "options", "variant", "four", "deck", "phase", "owed",
        "hands", "kitty", "shares", "played",
        "mark_pos", "dark_pos", "mark_face", "om", "dm",
        "case", "p_seat", "hidden", "revealed", "landlords", "fixed", "solo",
        "bid_order", "bids", "bid_winner", "bid_value",
        "farmer_order", "side_of", "placed", "sides_done",
        "doubles", "shows", "shown",
        "auto", "base", "mult", "bomb_incs",
        "leader", "turn", "top", "top_seat", "top_cards", "passes", "round_no", "turn_rule", "acts",
        "locked", "out_seat", "win_side", "end_reason", "result",
    )

    game_id: str
    seq: int                         # the seq the next event must carry
    players: tuple[str, ...]
    options: Any                     # Options3v3 or Options4Deck
    variant: str                     # '3v3', '2v4' or 'zhengfan'
    four: bool                       # a 4-deck variant
    deck: tuple[int, ...]            # the shuffled deck of GAME_START (DDZ-7)
    phase: str                       # one of PHASES
    owed: tuple[str, ...]            # the automatic events owed now, in order (DDZ-92)
    hands: tuple[tuple[int, ...], ...]   # each seat's cards, sorted by value then face
    kitty: tuple[int, ...]           # kitty cards not yet taken (4-deck, DDZ-5)
    shares: tuple[tuple[int, ...], ...]  # the kitty cards each seat took (DDZ-29/30/33/34)
    played: tuple[int, ...]          # every card played so far, in order
    mark_pos: int                    # deck position of the marked card / open mark, -1 before
    dark_pos: int                    # 4-deck: deck position of the dark mark, -1 before
    mark_face: int                   # the face of the marked card (3v3: F) / open mark
    om: int                          # M (3v3) or OM (4-deck), -1 before the deal
    dm: int                          # 4-deck: DM, -1 before the deal
    case: str                        # 3v3: A, B1, B2, C ('' before the CASE event)
    p_seat: int                      # 3v3 case B2: P, else -1
    hidden: tuple[int, ...]          # 3v3: the hidden landlords (H, H1, H2)
    revealed: tuple[int, ...]        # 3v3: hidden landlords revealed so far (DDZ-26)
    landlords: tuple[int, ...]       # the landlords found so far (2v4: big, second; zhengfan:
    #                                  正, 反; solo: one seat)
    fixed: bool                      # every seat's role is decided (not yet known to all)
    solo: bool                       # one landlord against five (DDZ-24 C, DDZ-29, DDZ-33)
    bid_order: tuple[int, ...]       # the seats that speak, in order (DDZ-14 … DDZ-19)
    bids: tuple[int, ...]            # what each has said so far: 0 pass, 1-3 points
    bid_winner: int                  # -1 none (yet)
    bid_value: int                   # the winning bid, 0 none
    farmer_order: tuple[int, ...]    # zhengfan: F1 … F4 (DDZ-35)
    side_of: tuple[int, ...]         # zhengfan: each seat's side code, -1 not yet (DDZ-35)
    placed: tuple[int, ...]          # zhengfan: farmers placed without choosing
    sides_done: bool                 # zhengfan: SIDES_END applied
    doubles: tuple[int, ...]         # 3v3: the doubling choices so far, in order from M
    shows: tuple[int, ...]           # 4-deck: the show-hand choices so far, in landlord order
    shown: tuple[int, ...]           # seats whose hand is face up (after SHOW_END)
    auto: tuple[Any, ...]            # an auto-win found: (reason, seat, side code), else ()
    base: int                        # S (DDZ-82, DDZ-85), 0 until known
    mult: int                        # N as shown to all (DDZ-81)
    bomb_incs: tuple[int, ...]       # N increments of the bombs played (DDZ-83, DDZ-86)
    leader: int                      # the seat that led this round
    turn: int                        # the seat to act in play
    top: Any                         # the Combo of the current top play, None on a lead
    top_seat: int                    # who made it, -1 none
    top_cards: tuple[int, ...]
    passes: int                      # passes in succession since the top play (DDZ-74)
    round_no: int                    # 0 before the first lead
    turn_rule: str                   # the rule that makes ``turn`` the seat to act
    acts: tuple[tuple[int, ...] | None, ...]   # each seat's last act in this round: None not
    #                                  yet, () a pass, else the cards it played (public)
    locked: int                      # the face locked by a 七星聚 (DDZ-70), -1 none
    out_seat: int                    # the seat that went out (DDZ-76), -1 none
    win_side: int                    # the winning side code, -1 none or void
    end_reason: str                  # '', out, auto, void
    result: str | None               # the canonical JSON settlement once over

    def __init__(self, *, game_id: str, seq: int, players: tuple[str, ...], options: Any,
                 variant: str, four: bool, deck: tuple[int, ...], phase: str,
                 owed: tuple[str, ...], hands: tuple[tuple[int, ...], ...], kitty: tuple[int, ...],
                 shares: tuple[tuple[int, ...], ...], played: tuple[int, ...], mark_pos: int,
                 dark_pos: int, mark_face: int, om: int, dm: int, case: str, p_seat: int,
                 hidden: tuple[int, ...], revealed: tuple[int, ...], landlords: tuple[int, ...],
                 fixed: bool, solo: bool, bid_order: tuple[int, ...], bids: tuple[int, ...],
                 bid_winner: int, bid_value: int, farmer_order: tuple[int, ...],
                 side_of: tuple[int, ...], placed: tuple[int, ...], sides_done: bool,
                 doubles: tuple[int, ...], shows: tuple[int, ...], shown: tuple[int, ...],
                 auto: tuple[Any, ...], base: int, mult: int, bomb_incs: tuple[int, ...],
                 leader: int, turn: int, top: Any, top_seat: int, top_cards: tuple[int, ...],
                 passes: int, round_no: int, turn_rule: str,
                 acts: tuple[tuple[int, ...] | None, ...], locked: int, out_seat: int,
                 win_side: int, end_reason: str, result: str | None) -> None:
        """The one way to build a state: every field by name, none defaulted (a field
        left out is a TypeError). ``copy`` and ``step`` do not come here."""
        self.game_id, self.seq, self.players, self.options = game_id, seq, players, options
        self.variant, self.four, self.deck, self.phase, self.owed = variant, four, deck, phase, owed
        self.hands, self.kitty, self.shares, self.played = hands, kitty, shares, played
        self.mark_pos, self.dark_pos, self.mark_face, self.om = mark_pos, dark_pos, mark_face, om
        self.dm = dm
        self.case, self.p_seat, self.hidden, self.revealed = case, p_seat, hidden, revealed
        self.landlords, self.fixed, self.solo = landlords, fixed, solo
        self.bid_order, self.bids, self.bid_winner = bid_order, bids, bid_winner
        self.bid_value = bid_value
        self.farmer_order, self.side_of, self.placed = farmer_order, side_of, placed
        self.sides_done = sides_done
        self.doubles, self.shows, self.shown = doubles, shows, shown
        self.auto, self.base, self.mult, self.bomb_incs = auto, base, mult, bomb_incs
        self.leader, self.turn, self.top, self.top_seat = leader, turn, top, top_seat
        self.top_cards, self.passes, self.round_no = top_cards, passes, round_no
        self.turn_rule, self.acts = turn_rule, acts
        self.locked, self.out_seat, self.win_side = locked, out_seat, win_side
        self.end_reason, self.result = end_reason, result

    def landlord_count(self) -> int:
        """How many landlords the hand has once identities are fixed."""
        if self.solo:
            return 1
        return 3 if self.variant == "3v3" else 2
