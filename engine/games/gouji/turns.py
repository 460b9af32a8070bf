"""Who is out, the phase, 没头, 够级 status, responders and turn order (GJ-18 to GJ-27)."""

from __future__ import annotations

from typing import cast

from engine.games.gouji.cards import FOUR, STRENGTH, THREE
from engine.games.gouji.state import (
    JUDGED,
    N_SEATS,
    TEAM_MASK,
    GoujiState,
    PlayInfo,
    opposite,
    team_of,
)


def counts_out(s: GoujiState, seat: int) -> bool:
    """Out for the phase and 没头 (GJ-18): gone out, or judged unless the option says not."""
    return s.out_pos[seat] != 0 and (
        s.options.judged_counts_as_out or s.out_how[seat] not in JUDGED)


def n_out_for_phase(s: GoujiState) -> int:
    """How many players count as out for the two-out rule (GJ-18)."""
    return sum(1 for i in range(N_SEATS) if counts_out(s, i))


def is_meitou(s: GoujiState, seat: int) -> bool:
    """没头 (GJ-30): an active player whose opposite is out, in the restricted phase."""
    return not s.open_phase and s.out_pos[seat] == 0 and counts_out(s, opposite(seat))


def active_mask(s: GoujiState) -> int:
    """Mask of the active seats."""
    m = 0
    for i in range(N_SEATS):
        if s.out_pos[i] == 0:
            m |= 1 << i
    return m


def gouji_now(s: GoujiState) -> bool:
    """GJ-19: the top play is a 够级 play in the current state."""
    info = s.top_info
    return (info is not None and info.shaped and not s.top_huiwu and not s.open_phase
            and not counts_out(s, opposite(s.top_seat)))


def responders(s: GoujiState) -> int:
    """GJ-22: mask of the responders of the top play (none after a play with an RJ)."""
    if s.top_seat < 0 or cast(PlayInfo, s.top_info).nrj:    # a top seat: a top play
        return 0
    m = active_mask(s) & ~(1 << s.top_seat) & ~s.passed
    if s.top_huiwu:
        m &= TEAM_MASK[1 - team_of(s.top_seat)]
    return m


def stifleable(s: GoujiState, seat: int) -> bool:
    """GJ-44: the seat's hand is one a beaten play stifles (one 3, or only 3s by option)."""
    if seat < 0 or s.out_pos[seat] != 0:
        return False
    hand = s.hands[seat]
    if not hand:
        return False
    if s.options.men_scope == "single_three":
        return len(hand) == 1 and STRENGTH[hand[0]] == THREE
    return all(STRENGTH[c] == THREE for c in hand)


def after(s: GoujiState, seat: int, k: int = 1) -> int:
    """The seat k places after this one in turn order (GJ-5)."""
    return (seat + k * s.direction) % N_SEATS


def first_active_after(s: GoujiState, seat: int) -> int:
    """The first active seat after this one in turn order (接风, GJ-27), -1 if none."""
    for k in range(1, 7):
        t = (seat + k * s.direction) % N_SEATS
        if s.out_pos[t] == 0:
            return t
    return -1


def may_answer_gouji(s: GoujiState, seat: int) -> str:
    """Under which clause of GJ-20 a seat may answer the 够级 top play: 'opposite', 'meitou',
    'burn', or '' (only pass)."""
    if seat == opposite(s.top_seat):
        return "opposite"
    if is_meitou(s, seat):
        return "meitou"
    if not s.options.burn_licence or s.opened >> seat & 1:
        return "burn"
    return ""


def next_to_act(s: GoujiState, anchor: int) -> bool:
    """Set to_act to the next responder (yield order of GJ-26 first); False if none is left."""
    r = responders(s)
    if s.rang_seat >= 0:
        wait = s.rang_wait
        for i, w in enumerate(wait):
            if r >> w & 1:
                s.rang_wait = wait[i:]
                s.to_act = w
                return True
        s.rang_wait = ()
        d = s.rang_seat
        if r >> d & 1:
            s.to_act = d
            return True
        anchor = after(s, d, 2)
        s.rang_seat = -1
    for k in range(1, 7):
        t = (anchor + k * s.direction) % N_SEATS
        if r >> t & 1:
            s.to_act = t
            return True
    return False


def sweep_team(s: GoujiState) -> int:
    """The team holding positions 1, 2 and 3 (串三户, GJ-34), or -1."""
    holders = [i for i in range(N_SEATS) if 1 <= s.out_pos[i] <= 3]
    if len(holders) == 3 and len({team_of(i) for i in holders}) == 1:
        return team_of(holders[0])
    return -1


def play_tag(role: str, info: PlayInfo, gouji: bool, kaidian: bool, void: bool) -> str:
    """The annotation tag of a play: role, then the flags that hold, joined by '+'."""
    parts = [role]
    if info.shaped:
        parts.append("shaped")
    if info.pure:
        parts.append("pure")
    if gouji:
        parts.append("gouji")
    if kaidian:
        parts.append("kaidian")
    if void:
        parts.append("void")
    return "+".join(parts)


def predict(s: GoujiState, seat: int, info: PlayInfo, empties: bool) -> tuple[bool, bool, bool]:
    """(gouji, kaidian, void) of a play by the seat to act, from the state before it."""
    leading = s.top_seat < 0
    void = (leading and s.burner == seat and info.nbj + info.nrj == 0
            and not (info.n == 1 and info.base == THREE and empties))
    kaidian = (leading and not void and s.kd_cand == seat and info.base == FOUR
               and info.n2 + info.nbj + info.nrj == 0)
    if void or not info.shaped:
        return False, kaidian, void
    judged_count = s.options.judged_counts_as_out
    stifles = not leading and judged_count and stifleable(s, s.top_seat)
    n_out = n_out_for_phase(s) + empties + stifles
    if s.open_phase or n_out >= 2:
        return False, kaidian, void
    opp = opposite(seat)
    opp_out = counts_out(s, opp) or (stifles and s.top_seat == opp)
    return not opp_out, kaidian, void
