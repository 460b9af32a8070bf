"""够级: what is legal now (GJ-10 … GJ-46): the turn actions of the seat due to act (plays
listed in tight loops), the out-of-turn 宣点, and the "what was legal" text of refusals.

Below both ``rules`` (whose refusals name what was legal) and ``game`` (which lists the legal
actions), so that neither imports the other.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import cast

from engine.cards import format_faces
from engine.events import NONE, Event
from engine.games.gouji.cards import BJ_S, FIVE, RJ_S, SHAPE_MIN, STRENGTH, TWO_S
from engine.games.gouji.plays import answer_shapes, groups, make_info, shape_cards, shape_info
from engine.games.gouji.state import (
    CUT,
    DEAL,
    DESIGNATE,
    DIRECTION,
    N_SEATS,
    OVER,
    PLAY,
    GoujiState,
    PlayInfo,
    opposite,
    team_of,
)
from engine.games.gouji.turns import (
    counts_out,
    gouji_now,
    may_answer_gouji,
    n_out_for_phase,
    play_tag,
    predict,
    responders,
    sweep_team,
)

_new_event = tuple.__new__


def legal_now(s: GoujiState) -> str:
    """What would be legal now, for messages: 'seat 3: PLAY, PASS', the event the engine owes,
    or '' when nothing is (the game is over)."""
    if s.owed:
        return f"the engine's {s.owed[0].kind} (owed)"
    if s.stage == CUT:
        return "a CUT" + (f" by seat {s.cutter} (after a joker)" if s.cutter >= 0 else "")
    if s.stage == DEAL:
        return f"the DEAL, from seat {s.starter}"
    try:
        acts = turn_actions(s) if s.to_act >= 0 or s.stage != PLAY else []
        oot = out_of_turn_actions(s)
    except (IndexError, TypeError):      # a hand-built position the game could not reach
        return ""
    by_seat: dict[int, list[str]] = {}
    for a in acts:
        kinds = by_seat.setdefault(a.seat, [])
        if a.kind not in kinds:
            kinds.append(a.kind)
    by_kinds: dict[str, list[int]] = {}
    for seat, kinds in sorted(by_seat.items()):
        by_kinds.setdefault(", ".join(kinds), []).append(seat)
    parts = [f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))}: {kinds}"
             for kinds, seats in by_kinds.items()]
    if oot:
        parts.append(f"XUANDIAN by seat{'s' * (len(oot) > 1)} "
                     f"{', '.join(str(a.seat) for a in oot)}")
    return "; ".join(parts)


def huiwu_event(s: GoujiState) -> Event:
    """The 会五 (GJ-35): all 5s of the starter's team, as one play by the starter."""
    team = [i for i in range(N_SEATS) if team_of(i) == s.huiwu_team]
    fives = {i: tuple(c for c in s.hands[i] if STRENGTH[c] == FIVE) for i in team}
    payload = json.dumps({str(i): format_faces(fives[i]).split() for i in team},
                         sort_keys=True, separators=(",", ":"))
    cards = tuple(c for i in team for c in fives[i])
    return Event("HUIWU", s.starter, cards, NONE, FIVE, "lead", payload, s.game_id, s.seq)


def play_events(s: GoujiState) -> list[Event]:
    """Every legal PLAY of the seat to act, listed by base, count and wilds (no subsets)."""
    seat = s.to_act
    hand = s.hands[seat]
    g = groups(hand)
    if s.top_seat < 0:
        return _lead_events(s, seat, g, len(hand))
    if gouji_now(s) and not may_answer_gouji(s, seat):
        return []
    gid, seq, size = s.game_id, s.seq, len(hand)
    guess, tag_of = predict, play_tag
    tags: dict[tuple[int, bool], str] = {}
    out = []
    for shape in answer_shapes(g, cast(PlayInfo, s.top_info)):   # a top play is on
        info = shape_info(shape)
        empties = info.n == size
        key = (id(info), empties)
        tag = tags.get(key)
        if tag is None:
            tag = tags[key] = tag_of("answer", info, *guess(s, seat, info, empties))
        out.append(_new_event(Event, ("PLAY", seat, shape_cards(g, shape), NONE, info.base,
                                      tag, None, gid, seq, 0, b"")))
    return out


def _lead_events(s: GoujiState, seat: int, g: list[list[int]], size: int) -> list[Event]:
    """Every legal lead, built in tight loops: a 33-card hand has hundreds (GJ-12, GJ-28)."""
    gid, seq = s.game_id, s.seq
    twos, bjs, rjs = g[TWO_S], g[BJ_S], g[RJ_S]
    n2, nbj, nrj = len(twos), len(bjs), len(rjs)
    w2 = [tuple(twos[:a]) for a in range(n2 + 1)]
    wb = [tuple(bjs[:b]) for b in range(nbj + 1)]
    wr = [tuple(rjs[:c]) for c in range(nrj + 1)]
    tag = _lead_tagger(s, seat, size)
    out: list[Event] = []
    add = out.append
    mk = _new_event
    for base, shape_k in _lead_bases(g, size, n2, nbj, nrj):
        group = g[base]
        for k in shape_k:
            nat = tuple(group[:k])
            if base == 3:
                cards = nat + w2[n2] + wb[nbj] + wr[nrj]
                add(mk(Event, ("PLAY", seat, cards, NONE, 3, tag(3, len(cards), n2, nbj, nrj),
                               None, gid, seq, 0, b"")))
                continue
            for a in range(n2 + 1):
                na = nat + w2[a]
                for b in range(nbj + 1):
                    nab = na + wb[b]
                    for c in range(nrj + 1):
                        cards = nab + wr[c]
                        add(mk(Event, ("PLAY", seat, cards, NONE, base,
                                       tag(base, k + a + b + c, a, b, c), None, gid, seq, 0,
                                       b"")))
    for a in range(1, n2 + 1):
        for b in range(nbj + 1):
            for c in range(nrj + 1):
                add(mk(Event, ("PLAY", seat, w2[a] + wb[b] + wr[c], NONE, TWO_S,
                               tag(TWO_S, a + b + c, 0, b, c), None, gid, seq, 0, b"")))
    for b in range(1, nbj + 1):
        for c in range(nrj + 1):
            add(mk(Event, ("PLAY", seat, wb[b] + wr[c], NONE, BJ_S, tag(BJ_S, b + c, 0, b, c),
                           None, gid, seq, 0, b"")))
    for c in range(1, nrj + 1):
        add(mk(Event, ("PLAY", seat, wr[c], NONE, RJ_S, tag(RJ_S, c, 0, 0, c), None, gid, seq,
                       0, b"")))
    return out


def _lead_tagger(s: GoujiState, seat: int, size: int) -> Callable[[int, int, int, int, int],
                                                                   str]:
    """The tag of a lead by the seat to act, as a function of (base, count, 2s, BJs, RJs)."""
    # the flags of a lead depend on the context only through these (turns.predict)
    gouji_ctx = not s.open_phase and not counts_out(s, opposite(seat))
    gouji_if_empties = gouji_ctx and n_out_for_phase(s) + 1 < 2
    burner = s.burner == seat
    kd = s.kd_cand == seat
    tag_cache: dict[tuple[bool, bool, bool, bool, bool], str] = {}

    def tag(base: int, n: int, a: int, b: int, c: int) -> str:
        jok = b + c > 0
        shaped = jok or n >= SHAPE_MIN[base]
        pure = shaped and not jok and a == 0 and base < TWO_S
        empties = n == size
        void = burner and not jok and not (n == 1 and base == 3 and empties)
        kaidian = kd and not void and base == 4 and a + b + c == 0
        gouji = shaped and not void and (gouji_if_empties if empties else gouji_ctx)
        key = (shaped, pure, gouji, kaidian, void)
        t = tag_cache.get(key)
        if t is None:
            t = tag_cache[key] = play_tag("lead", make_info(base, n, a, b, c), gouji,
                                          kaidian, void)
        return t
    return tag


def shape_event(s: GoujiState, g: list[list[int]], shape: tuple[int, int, int, int, int]
                ) -> Event:
    """The PLAY of one listed shape (``answer_shapes``' form) by the seat to act, leading or
    answering, with the tag ``play_events`` gives it: one play built without the others."""
    seat = s.to_act
    size = len(s.hands[seat])
    info = shape_info(shape)
    if s.top_seat < 0:
        tag = _lead_tagger(s, seat, size)(info.base, info.n, info.n2, info.nbj, info.nrj)
    else:
        tag = play_tag("answer", info, *predict(s, seat, info, info.n == size))
    return _new_event(Event, ("PLAY", seat, shape_cards(g, shape), NONE, info.base, tag,
                              None, s.game_id, s.seq, 0, b""))


def _lead_bases(g: list[list[int]], size: int, n2: int, nbj: int,
                nrj: int) -> list[tuple[int, range]]:
    """(base, natural counts) of the leads below 2; 3s only when only 3s and wilds are left."""
    out = []
    n3 = len(g[3])
    if n3 and n3 + n2 + nbj + nrj == size:
        out.append((3, range(1, n3 + 1)))
    for base in range(4, TWO_S):
        if g[base]:
            out.append((base, range(1, len(g[base]) + 1)))
    return out


def turn_actions(s: GoujiState) -> list[Event]:
    """Legal actions of the seat due to act (direction, 和点, 会五, plays, pass, 让牌,
    designation)."""
    if s.stage == OVER or s.owed or s.stage in (CUT, DEAL):
        return []
    base = Event("PASS", game_id=s.game_id, seq=s.seq)
    if s.stage == DIRECTION:
        return [base._replace(kind="DIRECTION", seat=s.first_player, value=v) for v in (1, -1)]
    if s.stage == DESIGNATE:
        unplaced = [i for i in range(N_SEATS) if s.out_pos[i] == 0]
        team = 1 - sweep_team(s)
        return [base._replace(kind="DESIGNATE", seat=m, payload=json.dumps({"order": list(p)}))
                for m in unplaced if team_of(m) == team     # a judged member: GJ-46
                for p in itertools.permutations(unplaced)]
    if s.xd_pending >= 0:
        o = opposite(s.xd_pending)
        return [base._replace(kind="HEDIAN", seat=o, tag=t) for t in ("agree", "refuse")]
    if s.huiwu_due:
        return [huiwu_event(s)]
    seat = s.to_act
    out = play_events(s)
    if s.top_seat >= 0:
        out.append(base._replace(seat=seat))
        if _may_yield(s, seat):
            out.append(base._replace(kind="RANG", seat=seat))
    return out


def _may_yield(s: GoujiState, seat: int) -> bool:
    if s.top_seat != opposite(seat) or s.rang_seat == seat:
        return False
    r = responders(s)
    d = s.direction
    return bool(r >> ((seat + d) % N_SEATS) & 1 or r >> ((seat + 2 * d) % N_SEATS) & 1)


def out_of_turn_actions(s: GoujiState) -> list[Event]:
    """宣点 by any seat whose pair has not used it, while the declaration window is open."""
    if s.stage != PLAY or not s.window or s.xd_pending >= 0 or s.owed:
        return []
    return [Event("XUANDIAN", seat=i, game_id=s.game_id, seq=s.seq)
            for i in range(N_SEATS) if not s.xd_used >> (i % 3) & 1]
