"""六人斗地主 as an engine game: start events, initial state, check/apply, legal actions, chance,
sessions and results, for the three variants (each a declared ``Game`` of ``variants.py``)."""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Sequence
from typing import Any

from engine.errors import IllegalMove, InvalidEvent
from engine.events import Event
from engine.games.common import start_error, start_options, start_payload, start_players
from engine.games.ddz6 import play, rules, setup
from engine.games.ddz6.cards import deck, four_deck
from engine.games.ddz6.combos import combo_rules, read
from engine.games.ddz6.options import OPTIONS, options_from
from engine.games.ddz6.state import BID, DOUBLE, OVER, PLAY, SHOW, SIDE, START, DdzState
from engine.games.frame import Outcome, apply_with, check_with, team_outcomes

RULES_VERSION = "ddz6-1"
SEATS = setup.SEATS
TITLES = {"3v3": "六人斗地主 (三打三)", "2v4": "新六人斗地主 (二打四)",
          "zhengfan": "正反六人斗地主"}

NO_ACTS: tuple[None, ...] = (None,) * SEATS     # nobody has acted in the round yet
SORTED_DECK = {v: sorted(deck(v)) for v in TITLES}     # each variant's pack, to compare with
step = rules.step
next_auto = rules.next_auto


def game_id_of(variant: str) -> str:
    """The registry id of a variant: ``ddz6_3v3``, ``ddz6_2v4``, ``ddz6_zhengfan``."""
    return f"ddz6_{variant}"


def seat_count(options: Any = None) -> int:
    """Six seats, whatever the options (DDZ-1)."""
    return SEATS


def start_event(variant: str, game_id: str, players: Sequence[str], rng: random.Random,
                options: Any = None, *, previous_game: str | None = None,
                session: str | None = None, ts: int = 0) -> Event:
    """GAME_START (hand_start): every option (DDZ-6), the players and the shuffled deck
    (DDZ-7)."""
    opts = options_from(variant, options)
    if len(players) != SEATS:
        raise InvalidEvent(f"六人斗地主 needs 6 players, got {len(players)}", field="players")
    cards = list(deck(variant))
    rng.shuffle(cards)
    payload = {
        "game": game_id_of(variant), "rules_version": RULES_VERSION,
        "options": opts.to_dict(), "players": list(players),
        "previous_game": previous_game, "session": session,
    }
    return Event("GAME_START", cards=tuple(cards), payload=setup.json_text(payload),
                 game_id=game_id, seq=0, ts=ts)


def initial_state(variant: str, e: Event) -> DdzState:
    """The state right after GAME_START (DDZ-6, DDZ-7), before the deal."""
    p = start_payload(e, game_id_of(variant), RULES_VERSION)
    raw = p.get("options")
    if isinstance(raw, dict) and any(v is None for v in raw.values()):
        raise start_error(e, "DDZ-6", "every option is recorded with its value")
    opts = start_options(e, p, OPTIONS[variant], "DDZ-6")
    players = start_players(e, p, "DDZ-1", SEATS)
    if sorted(e.cards) != SORTED_DECK[variant]:
        rule = "DDZ-5" if four_deck(variant) else "DDZ-4"
        raise start_error(e, rule, f"the deck has {len(e.cards)} cards but not the "
                          f"{len(deck(variant))} of the variant's pack")
    if e.seat != -1 or e.target != -1 or e.value != -1 or e.tag:
        raise InvalidEvent("GAME_START is the engine's: seat, target, value -1, no tag",
                           game_id=e.game_id, seq=0, field="seat")
    return fresh(variant, e.game_id, opts, players, tuple(e.cards))


def fresh(variant: str, game_id: str, opts: Any, players: tuple[str, ...],
          cards: tuple[int, ...]) -> DdzState:
    """A state before the deal."""
    four = four_deck(variant)
    return DdzState(
        game_id=game_id, seq=1, players=players, options=opts, variant=variant, four=four,
        deck=cards, phase=START, owed=("DEAL",),
        hands=((),) * SEATS, kitty=(), shares=((),) * SEATS, played=(),
        mark_pos=-1, dark_pos=-1, mark_face=-1, om=-1, dm=-1,
        case="", p_seat=-1, hidden=(), revealed=(), landlords=(), fixed=False, solo=False,
        bid_order=(), bids=(), bid_winner=-1, bid_value=0,
        farmer_order=(), side_of=(), placed=(), sides_done=False,
        doubles=(), shows=(), shown=(), auto=(),
        base=opts.base_score if four else 0, mult=1, bomb_incs=(),
        leader=-1, turn=-1, top=None, top_seat=-1, top_cards=(), passes=0, round_no=0,
        turn_rule="DDZ-71", acts=NO_ACTS,
        locked=-1, out_seat=-1, win_side=-1, end_reason="", result=None,
    )


def apply(state: DdzState, event: Event) -> DdzState:
    """The state after the event; raises IllegalMove/InvalidEvent, the input left as it was."""
    return apply_with(rules.step, state, event)


def check(state: DdzState, event: Event) -> None:
    """Raise if the event is not legal in this state; changes nothing."""
    check_with(rules.step, state, event)


def to_move(s: DdzState) -> int:
    """The seat the game waits for; -1 when an automatic event is owed or the hand is over."""
    if s.owed or s.phase == OVER:
        return -1
    if s.phase == BID:
        return setup.bidder(s)
    if s.phase == SIDE:
        return setup.chooser(s)
    if s.phase in (DOUBLE, SHOW):
        return setup.decider(s)
    if s.phase == PLAY:
        return s.turn
    return -1


def legal_actions(s: DdzState) -> list[Event]:
    """Every legal action now: the owed automatic event (the deal's deterministic
    representative), else the actions of the seat to act (defaults are not listed)."""
    if s.owed:
        return [rules.expected(s, s.owed[0])]
    seat = to_move(s)
    if seat < 0:
        return []
    if s.phase == BID:
        best = max(s.bids, default=0)
        return [setup.action(s, "BID", seat, value=v) for v in (0, *range(best + 1, 4))]
    if s.phase in (SIDE, DOUBLE, SHOW):
        kind = {SIDE: "SIDE_CHOICE", DOUBLE: "DOUBLE", SHOW: "SHOW_HAND"}[s.phase]
        return [setup.action(s, kind, seat, value=v) for v in (0, 1)]
    return play.play_actions(s)


def default_action(s: DdzState) -> Event | None:
    """DDZ-75: what the engine records, marked (target 1), when the seat to act does not decide
    in time: bid pass, no double, not shown, side zheng; in play a follower passes and a
    leader plays his lowest single card. None when no seat is to act."""
    seat = to_move(s)
    if seat < 0:
        return None
    if s.phase == PLAY:
        cards = play.default_play(s, seat)
        if cards is None:
            return setup.action(s, "PASS", seat, target=setup.DEFAULT)
        c = read(cards, combo_rules(s.variant, s.options))
        return play.play_event(s, seat, cards, c)._replace(target=setup.DEFAULT)  # type: ignore[arg-type]
    kind = {BID: "BID", SIDE: "SIDE_CHOICE", DOUBLE: "DOUBLE", SHOW: "SHOW_HAND"}[s.phase]
    return setup.action(s, kind, seat, target=setup.DEFAULT, value=0)   # 0: pass, zheng, no


def auto_event(s: DdzState, rng: random.Random | None = None) -> Event | None:
    """The automatic event owed now, or None; the deal's marks are drawn from rng (chance;
    without rng, the deterministic representative)."""
    if not s.owed:
        return None
    if s.owed[0] == "DEAL" and rng is not None:
        return rules.chance_deal(s, rng)
    return rules.expected(s, s.owed[0])


def is_over(s: DdzState) -> bool:
    """True once the settlement (GAME_END) has been applied."""
    return s.phase == OVER


# ---------------------------------------------------------------- sessions

def session_start(prev_final: DdzState) -> dict[str, Any]:
    """Hands of a session are independent: nothing carries over."""
    return {}


def check_session(start: Event, prev_final: DdzState) -> IllegalMove | None:
    """No rule links two hands of a session."""
    return None


# ---------------------------------------------------------------- results

def result(s: DdzState) -> dict[str, Any] | None:
    """The settlement of a finished hand (DDZ-81 … DDZ-90)."""
    return None if s.result is None else json.loads(s.result)


def outcomes(s: DdzState) -> tuple[Outcome, ...] | None:
    """Each seat's outcome once over: the winning side wins, the other loses; void: a draw."""
    r = result(s)
    if r is None:
        return None
    return team_outcomes(r["scores"], tuple(r["sides"]), r["winning_side"])


def face_counts(s: DdzState) -> collections.Counter | None:
    """Every face where it lies (hands, kitty, played cards); None before the deal."""
    if not any(s.hands):
        return None
    c = collections.Counter(s.kitty)
    c.update(s.played)
    for h in s.hands:
        c.update(h)
    return c
