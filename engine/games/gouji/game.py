"""够级 as an engine game: start events, initial state, check/apply, legal actions, chance."""

from __future__ import annotations

import collections
import itertools
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.cards import format_faces
from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import NONE, Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.frame import DRAW, FIXED_SIDES, LOSS, WIN, Outcome, apply_with, check_with
from engine.games.gouji import rules
from engine.games.gouji.cards import BJ_S, FIVE, PACK, RJ_S, SHAPE_MIN, STRENGTH, TWO_S
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import (
    analyse,
    answer_shapes,
    groups,
    make_info,
    shape_cards,
    shape_info,
)
from engine.games.gouji.state import (
    CUT,
    DEAL,
    DESIGNATE,
    DIRECTION,
    N_SEATS,
    OVER,
    PLAY,
    TEAM_NAMES,
    GoujiState,
    opposite,
    team_of,
)
from engine.games.gouji.turns import (
    counts_out,
    gouji_now,
    may_answer_gouji,
    n_out_for_phase,
    responders,
)

GAME_ID = "gouji"
RULES_VERSION = "gouji-1"
TITLE = "够级"
RULE_PREFIX = "GJ"
SIDES = FIXED_SIDES
SEAT_SIDES = tuple(TEAM_NAMES[seat & 1] for seat in range(N_SEATS))
_new_event = tuple.__new__


def start_event(
    game_id: str,
    players: Sequence[str],
    rng: random.Random | None = None,
    options: GoujiOptions | None = None,
    *,
    game_no: int = 1,
    direction: int | None = None,
    starter: int | None = None,
    huiwu_team: str | None = None,
    previous_game: str | None = None,
    session: str | None = None,
    ts: int = 0,
) -> Event:
    """GAME_START (GJ-48): options, players, game number; for later games the session's
    direction, the starter (previous 拉客, GJ-9) and the team owing the 会五 (GJ-35)."""
    opts = options or GoujiOptions()
    if len(players) != N_SEATS:
        raise InvalidEvent(f"够级 needs 6 players, got {len(players)}", field="players")
    payload: dict[str, Any] = {
        "game": GAME_ID, "rules_version": RULES_VERSION, "options": opts.to_dict(),
        "players": list(players), "game_no": game_no, "previous_game": previous_game,
        "session": session,
    }
    if game_no > 1:
        payload.update(direction=direction, starter=starter, huiwu_team=huiwu_team)
    return Event("GAME_START", seat=-1, value=game_no,
                 target=starter if game_no > 1 and starter is not None else NONE,
                 tag=huiwu_team or "", payload=json.dumps(payload, sort_keys=True,
                                                          separators=(",", ":")),
                 game_id=game_id, seq=0, ts=ts)


def initial_state(e: Event) -> GoujiState:
    """The state right after GAME_START: the first game's cut, or a later game's deal."""
    p = start_payload(e, GAME_ID, RULES_VERSION)
    if not isinstance(p.get("options"), dict):
        raise start_error(e, "GJ-48", "options must be recorded in GAME_START")
    opts = start_options(e, p, GoujiOptions, "GJ-48")
    players = start_players(e, p, "GJ-4", N_SEATS)
    game_no = p.get("game_no")
    if not isinstance(game_no, int) or isinstance(game_no, bool) or game_no < 1 \
            or e.value != game_no:
        raise start_error(e, "GJ-48", f"game_no {game_no!r} must be 1, 2, … and equal value")
    if e.cards:
        raise InvalidEvent("GAME_START carries no cards (the deal records them)",
                           game_id=e.game_id, seq=0, field="cards")
    s = GoujiState.__new__(GoujiState)
    s.game_id = e.game_id
    s.options = opts
    s.players = tuple(players)
    s.game_no = game_no
    s.session = p.get("session")
    s.previous_game = p.get("previous_game")
    s.seq = 1
    s.huiwu_due = False
    s.cutter = -1
    s.cuts = ()
    s.first_player = -1
    s.cut_holder = -1
    s.hands = ((),) * N_SEATS
    s.played = ()
    s.out_pos = (0,) * N_SEATS
    s.out_how = ("",) * N_SEATS
    s.open_phase = False
    s.opened = 0
    s.xd_used = 0
    s.xd_pending = -1
    s.window = False
    s.burner = -1
    s.kd_cand = -1
    rules.clear_round(s)
    s.last = -1
    s.to_act = -1
    s.owed = ()
    s.designation = None
    s.result = None
    if game_no == 1:
        if e.target != NONE or e.tag or any(k in p for k in ("direction", "starter",
                                                              "huiwu_team")):
            raise start_error(e, "GJ-7", "the first game's starter and direction come from "
                               "the cut (GJ-6, GJ-7), not from GAME_START, and it owes no "
                               "会五 (GJ-35 follows a 串三户 of a previous game)")
        s.direction = 0
        s.starter = -1
        s.huiwu_team = -1
        s.stage = CUT
        return s
    d, st, hw = p.get("direction"), p.get("starter"), p.get("huiwu_team")
    if d not in (1, -1) or isinstance(d, bool):
        raise start_error(e, "GJ-5", f"direction {d!r} must be +1 or -1 (kept from game 1)")
    if not isinstance(st, int) or isinstance(st, bool) or not 0 <= st < N_SEATS or e.target != st:
        raise start_error(e, "GJ-9", f"starter {st!r} must be a seat 0-5 equal to target")
    if hw not in (None, "even", "odd") or e.tag != (hw or ""):
        raise start_error(e, "GJ-35", f"huiwu_team {hw!r} must be even, odd or null (= tag)")
    if hw is not None and team_of(st) != TEAM_NAMES.index(hw):
        raise start_error(e, "GJ-34", f"the starter after a 串三户 is the swept {hw} team's "
                           f"拉客, not seat {st}")
    s.direction = d
    s.starter = st
    s.huiwu_team = -1 if hw is None else TEAM_NAMES.index(hw)
    s.stage = DEAL
    return s


step = rules.step
next_auto = rules.next_auto


def apply(state: GoujiState, event: Event) -> GoujiState:
    """The state after the event; raises IllegalMove/InvalidEvent and leaves the input as it was."""
    return apply_with(rules.step, state, event)


def check(state: GoujiState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


# ---------------------------------------------------------------- chance: the cut and the deal

def cut_event(s: GoujiState, rng: random.Random) -> Event:
    """A cut drawn from the pack (GJ-6): the cutter (same one after a joker), the card, the
    counting direction — all chosen by the generator."""
    seat = s.cutter if s.cutter >= 0 else rng.randrange(N_SEATS)
    card = PACK[rng.randrange(len(PACK))]
    value = NONE if card >= 52 else rng.choice((1, -1))
    return Event("CUT", seat, (card,), NONE, value, "", None, s.game_id, s.seq)


def deal_event(s: GoujiState, rng: random.Random) -> Event:
    """The deal (GJ-8): the shuffled pack in drawing order; in the first game the face-up cut
    card sits at a random place in it (cut_index = value)."""
    cards = list(PACK)
    idx = NONE
    if s.game_no == 1:
        cut = s.cuts[-1][1]
        cards.remove(cut)
        rng.shuffle(cards)
        idx = rng.randrange(len(PACK))
        cards.insert(idx, cut)
    else:
        rng.shuffle(cards)
    return Event("DEAL", s.starter, tuple(cards), NONE, idx, f"{s.direction:+d}", None,
                 s.game_id, s.seq)


def _chance_examples(s: GoujiState) -> list[Event]:
    """Legal chance events listed without a generator: every cut, or one deal in pack order."""
    if s.stage == CUT:
        seats = [s.cutter] if s.cutter >= 0 else range(N_SEATS)
        out = []
        for seat in seats:
            for card in sorted(set(PACK)):
                for v in ((NONE,) if card >= 52 else (1, -1)):
                    out.append(Event("CUT", seat, (card,), NONE, v, "", None, s.game_id, s.seq))
        return out
    cards = list(PACK)
    idx = NONE
    if s.game_no == 1:
        idx = cards.index(s.cuts[-1][1])
    return [Event("DEAL", s.starter, tuple(cards), NONE, idx, f"{s.direction:+d}", None,
                  s.game_id, s.seq)]


def auto_event(s: GoujiState, rng: random.Random | None = None) -> Event | None:
    """The event the engine owes now (derived, or a cut/deal drawn from rng), or None."""
    if s.owed:
        return s.owed[0]._replace(seq=s.seq)
    if s.stage in (CUT, DEAL):
        if rng is None:
            raise EngineError(f"a {s.stage.upper()} is a chance event: pass a seeded generator")
        return cut_event(s, rng) if s.stage == CUT else deal_event(s, rng)
    return None


# ---------------------------------------------------------------- legal actions

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
    predict, tag_of = rules.predict, rules.play_tag
    tags: dict[tuple[int, bool], str] = {}
    out = []
    for shape in answer_shapes(g, s.top_info):
        info = shape_info(shape)
        empties = info.n == size
        key = (id(info), empties)
        tag = tags.get(key)
        if tag is None:
            tag = tags[key] = tag_of("answer", info, *predict(s, seat, info, empties))
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
    # the flags of a lead depend on the context only through these (rules.predict)
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
            t = tag_cache[key] = rules.play_tag("lead", make_info(base, n, a, b, c), gouji,
                                                kaidian, void)
        return t

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
        team = 1 - rules.sweep_team(s)
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


def legal_actions(s: GoujiState) -> list[Event]:
    """Every legal event now: the owed derived event, the chance events (every cut, one deal),
    or the turn actions and the out-of-turn declarations."""
    if s.owed:
        return [s.owed[0]._replace(seq=s.seq)]
    if s.stage in (CUT, DEAL):
        return _chance_examples(s)
    return turn_actions(s) + out_of_turn_actions(s)


def annotate(s: GoujiState, e: Event) -> Event:
    """A PLAY given by seat and cards only, with its base and annotation tag filled in."""
    if e.kind != "PLAY" or (e.value != NONE and e.tag):
        return e
    info = analyse(e.cards)
    if info is None or not 0 <= e.seat < N_SEATS:
        return e
    empties = len(e.cards) == len(s.hands[e.seat])
    role = "lead" if s.top_seat < 0 else "answer"
    return e._replace(value=info.base,
                      tag=rules.play_tag(role, info, *rules.predict(s, e.seat, info, empties)))


def due_seat(s: GoujiState) -> int:
    """The seat whose decision the game waits for (-1 while the engine owes an event)."""
    if s.owed or s.stage in (CUT, DEAL, OVER):
        return -1
    if s.stage == DIRECTION:
        return s.first_player
    if s.stage == DESIGNATE:
        return rules.designator(s)
    if s.xd_pending >= 0:
        return opposite(s.xd_pending)
    return s.to_act


# ---------------------------------------------------------------- results and sessions

def is_over(s: GoujiState) -> bool:
    """True once GAME_END has been applied."""
    return s.stage == OVER


def result(s: GoujiState) -> dict[str, Any] | None:
    """The result of a finished game (GJ-31 to GJ-34)."""
    return s.result


def scores(s: GoujiState) -> list[int]:
    """Per-seat points of the positions (+2 +1 0 0 −1 −2), zeros without result."""
    if s.result is None:
        return [0] * N_SEATS
    return list(s.result["points"])


def winning_team(s: GoujiState) -> str | None:
    """'even' or 'odd', None for a draw or an unfinished game (GJ-32)."""
    r = s.result
    return None if r is None or r["result"] == "draw" else r["result"]


def session_start(prev: GoujiState) -> dict[str, Any]:
    """Keyword arguments of start_event for the next game of the session (GJ-5, GJ-9, GJ-35)."""
    r = prev.result or {}
    return {"game_no": prev.game_no + 1, "direction": prev.direction,
            "starter": r.get("next_starter"), "huiwu_team": r.get("next_huiwu_team")}


def check_session(start: Event, prev: GoujiState) -> IllegalMove | None:
    """A later game must continue the previous one: same players, next game number, the same
    direction (GJ-5), the previous 拉客 as starter (GJ-9), the swept team's 会五 (GJ-35)."""
    p = payload_json(start, default="{}")
    want = session_start(prev)
    checks = (
        ("GJ-1", "players", list(prev.players), "the same six players in the same seats"),
        ("GJ-9", "game_no", want["game_no"], "the next game number"),
        ("GJ-5", "direction", want["direction"], "the session's direction"),
        ("GJ-9", "starter", want["starter"], "the previous game's 拉客"),
        ("GJ-35", "huiwu_team", want["huiwu_team"], "the team swept in the previous game"),
    )
    for rule, key, value, what in checks:
        if p.get(key) != value:
            seat = p.get("starter")
            return IllegalMove(rule, f"GAME_START at seq 0: {key} is {p.get(key)!r}, but "
                               f"{what} is {value!r} (previous game {prev.game_id})",
                               game_id=start.game_id, seq=0,
                               seat=seat if isinstance(seat, int) else -1, event=start)
    return None


to_move = due_seat


def seat_count(options: GoujiOptions | None = None) -> int:
    """够级 is played by six in two teams (GJ-4), whatever the options."""
    return N_SEATS


def sides(s: GoujiState, viewer: int | None = None) -> tuple[str | None, ...]:
    """The fixed teams (GJ-4), known to everyone: even seats and odd seats."""
    return SEAT_SIDES


def outcomes(s: GoujiState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome once the game is over: its position as place, its points as score,
    win or loss by its team's result, a draw for all when the teams are level (GJ-31, GJ-32)."""
    r = s.result
    if r is None:
        return None
    win = winning_team(s)
    return tuple(Outcome(r["positions"][seat], r["points"][seat],
                         DRAW if win is None else WIN if SEAT_SIDES[seat] == win else LOSS)
                 for seat in range(N_SEATS))


def face_counts(s: GoujiState) -> collections.Counter | None:
    """Hands (dead cards included) and played cards; None before the deal."""
    if s.stage in (CUT, DIRECTION, DEAL):
        return None
    c = collections.Counter(s.played)
    for h in s.hands:
        c.update(h)
    return c


def team_name(seat: int) -> str:
    """'even' or 'odd' (GJ-4)."""
    return TEAM_NAMES[team_of(seat)]


__all__ = [
    "SIDES", "seat_count", "sides", "outcomes", "face_counts", "to_move",
    "GAME_ID", "RULES_VERSION", "TITLE", "RULE_PREFIX", "start_event", "initial_state", "apply",
    "check", "step", "next_auto", "legal_actions", "turn_actions", "out_of_turn_actions",
    "play_events", "auto_event", "cut_event", "deal_event", "huiwu_event", "annotate",
    "due_seat", "is_over", "result", "scores", "winning_team", "session_start",
    "check_session", "team_name", "NONE",
]
