"""The audit report of one game as a JSON-ready dict (``build_report``): integrity, the
ruleset and every option, every event's verdict, the disputed moments in full, the result
recomputed against the logged one, and the out-of-turn and timed actions (docs/audit.md).

The game is replayed once, by ``engine.replay.fold`` (the verdict, exactly as ``liujia
validate`` gives it) with the audit's observer (``Walker``), which notes each state before an
event the engine accepts (whose turn it was, what was owed, the seat's decision, who could
act).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.audit import focus as fc
from engine.audit import timing
from engine.audit.integrity import integrity
from engine.commit import for_engine
from engine.errors import EngineError
from engine.events import Event
from engine.games.base import Game
from engine.games.frame import result_diff, winning_side
from engine.log import GameLog, LogRead
from engine.replay import Observer, ObserverError, Verdict, game_module
from engine.verdict import game_verdict

FORMAT = "liujia.audit/1"


class AuditError(ValueError):
    """A report that cannot be made as asked (a seq or seat the game does not have)."""


@dataclass
class Walk:
    """What the walk over the accepted events saw: per event whose turn it was and whether
    it was automatic, the timed actions, the lapsed options, the focused states."""

    to_move: dict[int, int] = field(default_factory=dict)
    auto: dict[int, bool] = field(default_factory=dict)
    chosen: dict[int, str] = field(default_factory=dict)
    timed: list[dict[str, Any]] = field(default_factory=list)
    lapsed: list[dict[str, Any]] = field(default_factory=list)
    focus: dict[int, tuple[Any, Any]] = field(default_factory=dict)
    last: Any = None                     # the state after the last accepted event


class Walker(Observer):
    """The audit's observer of the fold (``engine.replay.fold``): each state before an event
    (whose turn it was, what was owed, the seat's decision, who could act), noted once the
    engine accepts the event; ``seq`` and ``seat`` name the states to keep whole."""

    def __init__(self, seq: int | None, seat: int | None) -> None:
        self.out = Walk()
        self.seq, self.seat = seq, seat
        self.pending: tuple[Any, ...] | BaseException | None = None

    def begin(self, game: Game, state: Any, start: Event) -> None:
        """The game starts: its decision hooks and window hook, found once."""
        self.out = Walk()
        self.game, self.hooks = game, game.decisions
        self.lapsing = self.hooks.LAPSING
        self.window = game.window_seats
        self.prev = self.opened = start        # the event before; the one opening a window
        self.before, self.after = self._before, self._after

    def _before(self, s: Any, e: Event) -> None:
        """Work out what the state before ``e`` says of it (kept if the engine accepts e; a
        failure is held until then: a refused event is never the walk's)."""
        try:
            self.pending = self._note(s, e)
        except Exception as exc:  # noqa: BLE001 - held, see _after
            self.pending = exc

    def _note(self, s: Any, e: Event) -> tuple[Any, ...]:
        game, hooks, out = self.game, self.hooks, self.out
        answers = self.prev
        if self.window is not None:
            if self.window(s):
                answers = self.opened          # every answer of a window answers its opening
            else:
                self.opened = e                # this event may open one
        self.prev = e
        tm = game.to_move(s)
        auto = game.next_auto(s) == e.kind
        dec = hooks.decision(s, e) if not auto else None
        chosen = dec.chosen if dec is not None else out.chosen.get(e.seq)
        timed = timing.timed_entry(game, s, e, answers, tm, chosen) \
            if not auto and e.seat >= 0 and (e.seat != tm or timing.is_timed(e, chosen)) \
            else None
        lapsed = None
        if self.lapsing is None or e.kind in self.lapsing:
            rows = hooks.lapsed(s, e)
            if rows:
                lapsed = timing.lapsed_entry(e, rows)
        focus = (s.copy(), dec) if e.seq == self.seq or (
            self.seat is not None and not auto and e.seat == self.seat) else None
        return tm, auto, dec, timed, lapsed, focus

    def _after(self, s: Any, e: Event) -> None:
        """The engine accepted ``e``: keep what was noted of it."""
        got, self.pending = self.pending, None
        if isinstance(got, EngineError):
            raise ObserverError(f"the audit failed on {e.describe()}: {got}") from got
        if isinstance(got, BaseException):
            raise got
        assert got is not None, "noted before the engine stepped it"
        tm, auto, dec, timed, lapsed, focus = got
        out = self.out
        out.to_move[e.seq], out.auto[e.seq] = tm, auto
        if dec is not None:
            out.chosen[e.seq] = dec.chosen
        if timed is not None:
            out.timed.append(timed)
        if lapsed is not None:
            out.lapsed.append(lapsed)
        if focus is not None:
            out.focus[e.seq] = focus

    def end(self, verdict: Verdict) -> None:
        """The state after the last accepted event."""
        self.out.last = verdict.state


def _start(events: Sequence[Event]) -> dict[str, Any]:
    """The ruleset version, every option, the players and the session from GAME_START."""
    try:
        p = json.loads(for_engine(events[0]).payload or "{}")
    except ValueError:
        p = {}
    p = p if isinstance(p, dict) else {}
    raw = p.get("players")
    players = raw if isinstance(raw, list) else []
    return {"rules_version": p.get("rules_version"), "options": p.get("options") or {},
            "players": [str(x) for x in players], "session": p.get("session"),
            "previous_game": p.get("previous_game"), "game": p.get("game")}


def event_rows(events: Sequence[Event], v: Verdict, w: Walk | None,
               players: Sequence[str]) -> list[dict[str, Any]]:
    """Every event's verdict: ok up to the first illegal event, which is illegal (with its
    rule), then not replayed (no state to judge them in)."""
    rows = []
    bad = v.events if v.status == "illegal" else len(events)
    rule = getattr(v.error, "rule_id", None)
    for e in events:
        verdict = "ok" if e.seq < bad else "illegal" if e.seq == bad else "not replayed"
        seat = e.seat if 0 <= e.seat < len(players) else None
        rows.append({
            "seq": e.seq, "ts": e.ts, "time": timing.when(e.ts), "seat": e.seat,
            "player": players[seat] if seat is not None else None, "kind": e.kind,
            "action": fc.action_text(e), "verdict": verdict,
            "rule_id": rule if verdict == "illegal" else None,
            "automatic": w.auto.get(e.seq) if w is not None else None,
            "to_move": w.to_move.get(e.seq) if w is not None else None,
            "decision": w.chosen.get(e.seq) if w is not None else None})
    return rows


def verdict_section(v: Verdict, n_events: int) -> dict[str, Any]:
    """The game's verdict, the first illegal event's reason and the rules it cites."""
    err = fc.error_json(v.error)
    if err is not None and v.status == "illegal":
        err["rules"] = fc.cited_rules(v.error, None, {})
    text = {"ok": f"ok: all {n_events} events are legal and the game ended",
            "incomplete": f"incomplete: {v.error}",
            "illegal": f"illegal at seq {v.events}: {v.error}"}[v.status]
    return {"status": v.status, "events": n_events, "accepted": v.events, "text": text,
            "first_illegal": err if v.status == "illegal" else None}


def _json_ready(x: Any) -> Any:
    return json.loads(json.dumps(x))


def result_section(game: Any, events: Sequence[Event], v: Verdict, w: Walk | None,
                   players: Sequence[str]) -> dict[str, Any]:
    """The result and outcomes recomputed by the engine, field by field against GAME_END's
    payload (its ``reveal`` belongs to the commitment, not to the result)."""
    end = events[-1] if events and events[-1].kind == "GAME_END" else None
    logged = None
    if end is not None:
        try:
            logged = json.loads(for_engine(end).payload or "null")
        except ValueError:
            logged = "(not JSON)"
    final, recomputed = None, None
    if v.status == "ok" and w is not None:
        final, recomputed = w.last, game.result(w.last)
    elif w is not None and v.status == "illegal" and game.next_auto(w.last) == "GAME_END":
        owed = game.auto_event(w.last)           # the GAME_END the engine would have logged
        if owed is not None:
            final = game.apply(w.last, owed)
            recomputed = json.loads(owed.payload or "null")
    if recomputed is None:
        why = ("the game has not ended (no GAME_END)" if v.status == "incomplete" else
               "the replay stopped before the game's end") if w is not None else \
            "the game does not replay"
        return {"state": "not_recomputed", "text": why,
                "logged": logged, "recomputed": None, "fields": [], "outcomes": []}
    recomputed = _json_ready(recomputed)
    keys = sorted(set(recomputed if isinstance(recomputed, dict) else {}) |
                  set(logged if isinstance(logged, dict) else {}))
    rows = [{"field": k, "logged": (logged or {}).get(k) if isinstance(logged, dict) else None,
             "recomputed": recomputed.get(k) if isinstance(recomputed, dict) else None}
            for k in keys]
    for r in rows:
        r["same"] = r["logged"] == r["recomputed"]
    same = recomputed == logged
    outs = game.outcomes(final) or ()
    sides = game.sides(final)
    return {"state": "same" if same else "differs",
            "text": "the logged result is the one the engine recomputes" if same else
            "the logged result differs: " + result_diff(recomputed, logged),
            "logged": logged, "recomputed": recomputed, "fields": rows,
            "winning_side": winning_side(outs or None, sides),
            "outcomes": [{"seat": i, "player": players[i] if i < len(players) else None,
                          "side": sides[i] if i < len(sides) else None, **o._asdict()}
                         for i, o in enumerate(outs)]}


def _focus_seqs(v: Verdict, events: Sequence[Event], seq: int | None,
                seat: int | None, n_seats: int) -> None:
    """Refuse a seq or seat the report cannot show."""
    if seq is not None:
        last = len(events) - 1
        if not 1 <= seq <= last:
            raise AuditError(f"--seq {seq} is outside 1-{last} (seq 0 is GAME_START: nothing "
                             "is decided there)" if last >= 1 else
                             "the game has only its GAME_START: no event to audit")
        if v.status == "illegal" and seq > v.events:
            raise AuditError(f"--seq {seq} comes after the first illegal event (seq "
                             f"{v.events}): the states after it cannot be rebuilt")
    if seat is not None and not 0 <= seat < n_seats:
        raise AuditError(f"--seat {seat}: the game has seats 0-{n_seats - 1}")


def _focus(game: Any, events: Sequence[Event], v: Verdict, w: Walk, seq: int | None,
           seat: int | None, players: Sequence[str]) -> list[dict[str, Any]]:
    """The disputed moments: --seq N, every decision of --seat K, else the first illegal
    event (the moment a dispute is about)."""
    hooks = game.decisions
    desc = dict(hooks.DECISIONS)
    hostile = fc.untrusted_strings(events[0])
    out = []
    for q, (st, dec) in sorted(w.focus.items()):
        cat = dec.chosen if dec is not None else \
            hooks.action_category(st, events[q])
        out.append(fc.focus_entry(game, st, events[q], players, error=None, decision=dec,
                                  category=cat, descriptions=desc, hostile=hostile))
    bad = v.events if v.status == "illegal" and v.events > 0 else None
    bad_seat = events[bad].seat if bad is not None and bad < len(events) else None
    if bad is not None and (seq == bad or (seq is None and seat is None)
                            or (seat is not None and bad_seat == seat)):
        out.append(fc.focus_entry(game, w.last, events[bad], players, error=v.error,
                                  decision=None, category=None, descriptions=desc,
                                  hostile=hostile))
    return out


def _header(events: Sequence[Event], game: Any, path: str | None, source: str) -> dict[str, Any]:
    start = _start(events)
    return {"format": FORMAT, "source": source, "file": path, "game_id": events[0].game_id,
            "game": {"id": start["game"] if game is None else game.GAME_ID,
                     "title": None if game is None else game.TITLE,
                     "rule_prefix": None if game is None else game.RULE_PREFIX},
            "rules_version": start["rules_version"], "options": start["options"],
            "players": start["players"], "session": start["session"],
            "previous_game": start["previous_game"]}


def build_report(events: Sequence[Event], *, log: LogRead | None = None,
                 game_log: GameLog | None = None, path: str | None = None,
                 seq: int | None = None, seat: int | None = None,
                 trusted: dict[str, str] | None = None, source: str = "file",
                 anchors: tuple[str, dict[str, Any]] | None = None,
                 previous: Sequence[Event] | None = None) -> dict[str, Any]:
    """The audit report of one game's (verified) events, from its file's ``log`` and
    ``game_log`` when read from a file (``source`` 'warehouse': no file to check)."""
    if not events:
        raise AuditError("the game has no intact events")
    walker = Walker(seq, seat)
    gv = game_verdict(events, chain=game_log.error if game_log is not None else None,
                      observers=(walker,), replay_broken=True)
    if gv.replay is None:                  # the engine failed: a bug, raised as it was
        assert gv.error is not None
        raise gv.error.__cause__ or gv.error
    v = gv.replay
    game = v.game
    if game is None:
        try:
            game = game_module(events[0])
        except EngineError:
            game = None
    backwards = timing.backwards(events)
    report = _header(events, game, path, source)
    report["integrity"] = integrity(events, log, game_log, trusted or {}, backwards, anchors,
                                    previous, gv)
    w = None
    players = report["players"]
    if game is not None and v.events > 0:
        _focus_seqs(v, events, seq, seat, len(players))
        w = walker.out
    elif seq is not None or seat is not None:
        raise AuditError(f"game {events[0].game_id} does not replay from its start: {v.error}")
    report["verdict"] = verdict_section(v, len(events))
    report["events"] = event_rows(events, v, w, players)
    report["focus"] = _focus(game, events, v, w, seq, seat, players) if w is not None else []
    report["result"] = result_section(game, events, v, w, players) if game is not None else \
        {"state": "not_recomputed", "text": "not recomputed: the game does not replay",
         "fields": [], "outcomes": []}
    report["timing"] = {"actions": w.timed if w is not None else [],
                        "lapsed": w.lapsed if w is not None else [], "backwards": backwards}
    report["summary"] = summary(report)
    return report


def summary(report: dict[str, Any]) -> dict[str, Any]:
    """Whether the audit found anything wrong, each problem in one line, and the caveats: what
    an unsigned log or an uncommitted deal cannot prove, however well it replays."""
    problems = [f"{c['name']}: {c['text']}" for c in report["integrity"] if c["ok"] is False]
    if report["verdict"]["status"] != "ok":
        problems.append(report["verdict"]["text"])
    if report["result"]["state"] == "differs":
        problems.append(report["result"]["text"])
    states = {c["name"]: c["state"] for c in report["integrity"]}
    caveats = []
    if states.get("signature") == "unsigned":
        caveats.append("the log is unsigned: it proves nothing about who wrote it (anyone can "
                       "rewrite and re-seal an unsigned log)")
    if states.get("commitment") == "none":
        caveats.append("the deal was not committed before play: nothing shows it was not "
                       "chosen afterwards")
    return {"ok": not problems, "problems": problems, "caveats": caveats}

