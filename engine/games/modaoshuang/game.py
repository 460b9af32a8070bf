"""摸到爽 as an engine game: start events, initial state, check/apply, legal actions, chance,
sessions and results."""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.errors import EngineError, IllegalMove, InvalidEvent
from engine.events import Event, payload_json
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.frame import LOSS, WIN, Outcome, apply_with, check_with
from engine.games.modaoshuang import plays, rules
from engine.games.modaoshuang.cards import DECK, IS_JOKER
from engine.games.modaoshuang.options import ModaoshuangOptions, options_from
from engine.games.modaoshuang.state import DEAL, OVER, MdsState

GAME_ID = "modaoshuang"
TITLE = "摸到爽"
RULE_PREFIX = "MDS"
RULES_VERSION = "modaoshuang-1"
SIDES = "none"
RANDOM, PREVIOUS = "random", "previous"

step = rules.step
next_auto = rules.next_auto


def seat_count(options: Any) -> int:
    """The number of seats of a game with these options (mds_players)."""
    return options.mds_players


def start_event(
    game_id: str,
    players: Sequence[str],
    rng: random.Random,
    options: ModaoshuangOptions | dict | None = None,
    *,
    first_leader: int | None = None,
    previous_game: str | None = None,
    session: str | None = None,
    ts: int = 0,
) -> Event:
    """GAME_START with every option, the players, the first leader (drawn at random unless
    given by ``session_start``, MDS-8) and the shuffled deck (MDS-9)."""
    opts = options_from(options, len(players))
    if len(players) != opts.mds_players:
        raise InvalidEvent(f"摸到爽 with mds_players={opts.mds_players} needs that many "
                           f"players, got {len(players)}", field="players")
    if first_leader is None:
        rule, first_leader = RANDOM, rng.randrange(opts.mds_players)
    else:
        rule = PREVIOUS
    cards = list(DECK)
    rng.shuffle(cards)
    payload = {
        "game": GAME_ID, "rules_version": RULES_VERSION, "options": opts.to_dict(),
        "players": list(players), "first_leader": first_leader, "first_leader_rule": rule,
        "previous_game": previous_game, "session": session,
    }
    return Event("GAME_START", cards=tuple(cards), value=first_leader, tag=rule,
                 payload=json.dumps(payload, sort_keys=True, separators=(",", ":"),
                                    ensure_ascii=False),
                 game_id=game_id, seq=0, ts=ts)


def initial_state(e: Event) -> MdsState:
    """The state right after GAME_START (MDS-2, MDS-7, MDS-8), before the deal."""
    p = start_payload(e, GAME_ID, RULES_VERSION)
    opts = _options(e, p)
    n = opts.mds_players
    players = start_players(e, p, "MDS-6", n)
    leader, rule = p.get("first_leader"), p.get("first_leader_rule")
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < n \
            or leader != e.value:
        raise start_error(e, "MDS-8", f"first_leader {leader!r} must be a seat 0-{n - 1} "
                          "equal to value")
    if rule not in (RANDOM, PREVIOUS) or e.tag != rule:
        raise start_error(e, "MDS-8", "first_leader_rule must be 'random' or 'previous' "
                          "(= tag)")
    if sorted(e.cards) != list(DECK):
        raise start_error(e, "MDS-2", f"the deck has {len(e.cards)} cards but not the 54 "
                          "faces of one deck")
    if e.seat != -1 or e.target != -1:
        raise InvalidEvent("GAME_START is the engine's: seat and target -1", game_id=e.game_id,
                           seq=0, field="seat")
    return _fresh(e.game_id, opts, players, leader, rule, tuple(e.cards))


_OPTIONS: dict[tuple, ModaoshuangOptions] = {}


def _options(e: Event, p: dict[str, Any]) -> ModaoshuangOptions:
    """The recorded options (MDS-7), remembered by their exact values and types (options are
    frozen, and replay reads the same few sets again and again)."""
    raw = p.get("options")
    if isinstance(raw, dict):
        unset = sorted(k for k, v in raw.items() if v is None)
        if unset:
            raise start_error(e, "MDS-7", f"option(s) {', '.join(unset)} recorded as null: "
                              "every option is written out")
    key = None
    if isinstance(raw, dict) and len(raw) <= 16 and all(
            type(v) in (int, bool, str) for v in raw.values()):
        key = tuple(sorted((k, type(v).__name__, v) for k, v in raw.items()))
        found = _OPTIONS.get(key)
        if found is not None:
            return found
    opts = start_options(e, p, ModaoshuangOptions, "MDS-7")
    if key is not None and len(_OPTIONS) < 256:
        _OPTIONS[key] = opts
    return opts


def _fresh(game_id: str, opts: ModaoshuangOptions, players: tuple[str, ...], leader: int,
           rule: str, deck: tuple[int, ...]) -> MdsState:
    n = len(players)
    return MdsState(
        game_id=game_id, seq=1, players=players, options=opts, n=n,
        first_leader=leader, first_rule=rule, deck=deck, phase=DEAL, shou=False,
        hands=((),) * n, stock=(), dead=(), first_suit=-1, suit_cards=(),
        round_no=0, leader=leader, suit=-1, turns=0, collector=-1, table=(), table_seats=(),
        report_seat=-1, report_count=0, missed=(),
        pen_seat=-1, pen_cause="", pen_draws=0, pen_gifts=(), out_pending=-1,
        winner=-1, dianpao=-1, result=None,
    )


def apply(state: MdsState, event: Event) -> MdsState:
    """The state after the event; raises IllegalMove/InvalidEvent and leaves the input as it was."""
    return apply_with(rules.step, state, event)


def check(state: MdsState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


def legal_actions(s: MdsState) -> list[Event]:
    """Every legal action now: the owed automatic event (a SUIT_DRAW's deterministic
    representative), else the turn or gift choices plus the open report."""
    due = rules.next_auto(s)
    if due is not None:
        return [rules.auto_event(s, due)]
    if s.phase == OVER:
        return []
    if s.pen_gifts:
        return plays.gift_actions(s) + plays.report_actions(s)
    return plays.turn_actions(s) + plays.report_actions(s)


def auto_event(s: MdsState, rng: random.Random | None = None) -> Event | None:
    """The automatic event owed now, or None; a SUIT_DRAW's cards and reshuffle are drawn from
    rng (chance; without rng, the deterministic representative)."""
    due = rules.next_auto(s)
    if due is None:
        return None
    if due == "SUIT_DRAW" and rng is not None:
        stock = s.stock
        drawn = []
        while True:                       # MDS-10: a joker is put back and drawn again
            c = stock[rng.randrange(len(stock))]
            drawn.append(c)
            if not IS_JOKER[c]:
                break
        order = list(stock)
        rng.shuffle(order)
        return rules.suit_draw_event(s, tuple(drawn), tuple(order))
    return rules.auto_event(s, due)


def to_move(s: MdsState) -> int:
    """The seat the game waits for: the next giver during gifts, else the seat whose turn it
    is; -1 when an automatic event is owed or the game is over."""
    if s.pen_gifts:
        return s.pen_gifts[0]
    if s.phase != "play" or rules.next_auto(s) is not None:
        return -1
    return s.turn_seat()


def is_over(s: MdsState) -> bool:
    """True once GAME_END has been applied."""
    return s.phase == OVER


# ---------------------------------------------------------------- sessions

def session_start(prev_final: MdsState) -> dict[str, Any]:
    """Keyword arguments of ``start_event`` for the next game of a session: the previous
    winner leads (MDS-8, MDS-36)."""
    if prev_final.winner < 0:
        raise EngineError(f"game {prev_final.game_id} has no winner: the next game cannot "
                          "start from it (MDS-36)")
    return {"first_leader": prev_final.winner}


def check_session(start: Event, prev_final: MdsState) -> IllegalMove | None:
    """MDS-36 / MDS-8: a GAME_START that names a previous game is led by that game's winner and
    says so (``previous``), whatever else it claims; None when it is, or names none."""
    try:
        p = payload_json(start)
    except InvalidEvent:
        p = None
    if not isinstance(p, dict):
        return IllegalMove("MDS-36", "GAME_START payload is not readable", game_id=start.game_id,
                           seq=0, event=start)
    prev_id = p.get("previous_game")
    if prev_id is None:
        return None

    def _err(rule: str, reason: str) -> IllegalMove:
        return IllegalMove(rule, reason, game_id=start.game_id, seq=0, event=start)

    prev_winner = getattr(prev_final, "winner", -1)
    if prev_id != getattr(prev_final, "game_id", None):
        return _err("MDS-36", f"the start names previous game {prev_id!r}, but follows "
                   f"{prev_final.game_id!r}")
    if prev_winner < 0:
        return _err("MDS-36", f"the previous game {prev_id} has no winner")
    leader = p.get("first_leader")
    if leader != prev_winner or start.value != prev_winner:
        return _err("MDS-36", f"seat {leader} leads, but seat {prev_winner} won the "
                   f"previous game {prev_id}")
    if p.get("first_leader_rule") != PREVIOUS or start.tag != PREVIOUS:
        return _err("MDS-8", "a later game's first leader is the previous winner, not drawn "
                   "at random: first_leader_rule must be 'previous'")
    return None


# ---------------------------------------------------------------- results

def result(s: MdsState) -> dict[str, Any] | None:
    """The result of a finished game: winner, 点炮, final hands, face sums, base losses,
    payments and scores (MDS-33 to MDS-39)."""
    return None if s.result is None else json.loads(s.result)


def outcomes(s: MdsState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome once over: the winner place 1 (win), every other seat a loss."""
    r = result(s)
    if r is None:
        return None
    return tuple(Outcome(1, x, WIN) if i == s.winner else Outcome(None, x, LOSS)
                 for i, x in enumerate(r["scores"]))


def sides(s: MdsState, viewer: int | None = None) -> tuple[None, ...]:
    """摸到爽 has no sides (MDS-6): None for every seat."""
    return (None,) * s.n


def face_counts(s: MdsState) -> collections.Counter | None:
    """Every face where it lies (hands, stock, table, dead cards); None during the deal."""
    if s.phase == DEAL:
        return None
    c = collections.Counter(s.stock)
    c.update(s.dead)
    c.update(s.table)
    for h in s.hands:
        c.update(h)
    return c


__all__ = [
    "GAME_ID", "TITLE", "RULE_PREFIX", "RULES_VERSION", "SIDES", "seat_count", "start_event",
    "initial_state", "step", "apply", "check", "legal_actions", "auto_event", "next_auto",
    "to_move", "is_over", "session_start", "check_session", "result", "outcomes",
    "sides", "face_counts",
]
