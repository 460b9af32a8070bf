"""够级 as an engine game: start events, initial state, check/apply, legal actions, chance."""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import NONE, Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.frame import DRAW, FIXED_SIDES, LOSS, WIN, Outcome, apply_with, check_with
from engine.games.gouji import rules
from engine.games.gouji.actions import (
    huiwu_event,
    out_of_turn_actions,
    play_events,
    turn_actions,
)
from engine.games.gouji.cards import PACK
from engine.games.gouji.options import GoujiOptions
from engine.games.gouji.plays import (
    analyse,
)
from engine.games.gouji.state import (
    CUT,
    DEAL,
    DESIGNATE,
    DIRECTION,
    N_SEATS,
    OVER,
    TEAM_NAMES,
    GoujiState,
    opposite,
    team_of,
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
    if game_no == 1:
        if e.tag or "huiwu_team" in p:
            raise start_error(e, "GJ-35", "the first game owes no 会五: it follows a 串三户 "
                               "of a previous game")
        if e.target != NONE or any(k in p for k in ("direction", "starter")):
            raise start_error(e, "GJ-7", "the first game's starter and direction come from "
                               "the cut (GJ-6, GJ-7), not from GAME_START")
        return _fresh(e, opts, tuple(players), game_no, p, 0, -1, -1, CUT)
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
    return _fresh(e, opts, tuple(players), game_no, p, d, st,
                  -1 if hw is None else TEAM_NAMES.index(hw), DEAL)


def _fresh(e: Event, opts: GoujiOptions, players: tuple[str, ...], game_no: int,
           p: dict[str, Any], direction: int, starter: int, huiwu_team: int,
           stage: str) -> GoujiState:
    """A state before the cut (game 1) or the deal (later games): no cards, no round."""
    return GoujiState(
        game_id=e.game_id, options=opts, players=players, game_no=game_no,
        session=p.get("session"), previous_game=p.get("previous_game"), seq=1, stage=stage,
        direction=direction, starter=starter, huiwu_team=huiwu_team, huiwu_due=False,
        cutter=-1, cuts=(), first_player=-1, cut_holder=-1,
        hands=((),) * N_SEATS, played=(), out_pos=(0,) * N_SEATS, out_how=("",) * N_SEATS,
        open_phase=False, opened=0, xd_used=0, xd_pending=-1, window=False,
        burner=-1, kd_cand=-1,
        top=(), top_seat=-1, top_info=None, top_huiwu=False, passed=0,    # rules.clear_round
        rang_seat=-1, rang_wait=(), last=-1, to_act=-1,
        owed=(), designation=None, result=None,
    )


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
