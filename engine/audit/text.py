"""The audit report as terminal text: ``report_lines(report)`` gives lines not yet escaped
(each one line of the report: a value from the log with a line break in it stays in its line),
which the command prints through ``safe_text``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

STATE_WORDS = {"ok": "ok", "not_checked": "not checked", "broken": "BROKEN", "bad": "BAD",
               "mismatch": "MISMATCH", "malformed": "MALFORMED", "none": "none"}


def short(v: Any, limit: int = 70) -> str:
    """A JSON value in at most ``limit`` characters."""
    text = json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def seats_text(seats: list[int]) -> str:
    """'seat 2', 'seats 0, 3', 'no seat'."""
    if not seats:
        return "no seat"
    return f"seat{'s' * (len(seats) > 1)} {', '.join(map(str, seats))}"


def header(r: dict[str, Any]) -> Iterator[str]:
    """What game, which file, the verdict in one line, the ruleset and the players."""
    g = r["game"]
    where = f" · file {r['file']}" if r.get("file") else f" · from the {r['source']}"
    yield f"audit of game {r['game_id']} ({g.get('title') or '?'}, {g.get('id')}){where}"
    problems = r["summary"]["problems"]
    if not problems:
        yield f"OK: {r['verdict']['text']}"
    else:                                   # the headline names the first problem found
        yield f"PROBLEMS FOUND ({len(problems)}): {problems[0]}"
        for p in problems[1:]:
            yield f"  - {p}"
        if r["verdict"]["text"] not in problems:
            yield f"  events: {r['verdict']['text']}"
    for c in r["summary"].get("caveats", ()):
        yield f"CAVEAT: {c}"
    yield f"rules version: {r.get('rules_version')}"
    opts = r.get("options") or {}
    yield "options: " + (", ".join(f"{k}={short(v, 40)}" for k, v in opts.items()) or "none")
    yield "players: " + ", ".join(f"seat {i} {p}" for i, p in enumerate(r["players"]))
    if r.get("session"):
        yield f"session: {r['session']} (previous game: {r.get('previous_game') or 'none'})"


def integrity_lines(r: dict[str, Any]) -> Iterator[str]:
    """One line per integrity check, its details indented below."""
    yield ""
    yield "integrity"
    for c in r["integrity"]:
        state = STATE_WORDS.get(c["state"], c["state"])
        yield f"  {c['name'].replace('_', ' '):<11} {state:<12} {c['text']}"
        for d in c["details"]:
            yield f"      {d}"


def event_ranges(r: dict[str, Any], every: bool) -> Iterator[str]:
    """Every event's verdict: runs of the same verdict (or, ``every``, one line each)."""
    rows = r["events"]
    yield ""
    yield f"events ({len(rows)})"
    if every:
        for e in rows:
            rule = f" {e['rule_id']}" if e.get("rule_id") else ""
            yield f"  {e['seq']:>5} {e['time']} {e['action']:<40} {e['verdict']}{rule}"
        return
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1]["verdict"] == rows[i]["verdict"]:
            j += 1
        v = rows[i]["verdict"]
        what = f"{v.upper()} {rows[i]['rule_id'] or ''}".rstrip() if v == "illegal" else v
        span = f"seq {rows[i]['seq']}" if i == j else f"seq {rows[i]['seq']}-{rows[j]['seq']}"
        yield f"  {span}: {what} ({j - i + 1} event{'s' * (j > i)})"
        i = j + 1
    err = r["verdict"].get("first_illegal")
    if err:
        yield f"  first illegal: {err['message']}"
        if err.get("legal"):
            yield f"  legal then: {err['legal']}"
        for rule in err.get("rules", ()):
            yield from rule_lines(rule, "  ")


def rule_lines(rule: dict[str, Any], indent: str) -> Iterator[str]:
    """The full text of one cited rule, indented."""
    yield f"{indent}rule {rule['id']}:"
    for line in str(rule["text"]).split("\n"):
        yield f"{indent}  {line}"


def result_lines(r: dict[str, Any]) -> Iterator[str]:
    """The result recomputed, field by field against the logged one, and the outcomes."""
    res = r["result"]
    yield ""
    yield "result"
    yield f"  {res['state'].replace('_', ' ')}: {res['text']}"
    for f in res["fields"]:
        mark = "  " if f["same"] else "≠ "
        yield (f"  {mark}{f['field']:<16} logged {short(f['logged'], 34):<36} "
               f"recomputed {short(f['recomputed'], 34)}")
    for o in res.get("outcomes", ()):
        place = f"place {o['place']}, " if o.get("place") is not None else ""
        side = f" ({o['side']})" if o.get("side") else ""
        yield f"  seat {o['seat']} {o['player']}{side}: {place}score {o['score']}, {o['result']}"


def timing_lines(r: dict[str, Any]) -> Iterator[str]:
    """Out-of-turn and timed actions, standing options let go, impossible timestamps."""
    t = r["timing"]
    yield ""
    yield f"out-of-turn and timed actions ({len(t['actions'])})"
    for a in t["actions"]:
        chosen = f" ({a['chosen']})" if a.get("chosen") else ""
        flags = f" [{'; '.join(a['flags'])}]" if a["flags"] else ""
        ans = a["answers"]
        to_move = f"seat {a['to_move']}" if a["to_move"] >= 0 else "an automatic event"
        yield (f"  seq {a['seq']} {a['time']} seat {a['seat']} {a['kind']}{chosen}{flags}; "
               f"waiting for {to_move}; could act: {seats_text(a['could_act'])} ({a['kind']}: "
               f"{seats_text(a['could_same'])}); answers seq "
               f"{ans['seq']} {ans['kind']} at {ans['time']} ({a['delay']} later)")
    if t["lapsed"]:
        yield f"standing options let go ({len(t['lapsed'])})"
        for x in t["lapsed"]:
            yield (f"  seq {x['seq']} {x['time']} {x['kind']}: {seats_text(x['seats'])} could "
                   f"have taken {', '.join(x['options'])}")
    yield f"impossible timestamps ({len(t['backwards'])})"
    for b in t["backwards"]:
        yield f"  {b['text']}"


def focus_lines(f: dict[str, Any]) -> Iterator[str]:
    """One disputed moment in full."""
    yield ""
    who = f" ({f['player']})" if f.get("player") else ""
    yield f"moment seq {f['seq']} at {f['time']}: {f['action']}{who}: {f['verdict'].upper()}"
    if f.get("error"):
        yield f"  {f['error']['message']}"
    to_move = f"seat {f['to_move']}" if f["to_move"] >= 0 else f"the automatic {f['owed']}"
    yield f"  the game waited for {to_move}"
    if f.get("decision"):
        d = f["decision"]
        yield f"  decision: options {', '.join(d['options'])}; chosen {d['chosen']}"
    lg = f["legal"]
    more = f", {lg['listed']} listed" if lg["listed"] < lg["count"] else ""
    yield f"  legal options ({lg['count']}{more}):"
    for o in lg["options"]:
        yield f"    {'*' if o['chosen'] else ' '} {o['action']}" + ("   <- chosen" * o["chosen"])
    if not lg["chosen_listed"]:
        yield f"    the action taken ({f['action']}) is not among the legal options" + (
            " (the engine accepts it: the game lists no such option, e.g. a void 抢 that "
            "carries its penalty)" if f["verdict"] == "ok" else "")
    yield "  rules cited:" if f["rules"] else "  rules cited: none"
    for rule in f["rules"]:
        yield from rule_lines(rule, "    ")
    yield "  what each seat knew (the state before the event):"
    for v in f["views"]:
        yield f"    {v['who']}:"
        for line in v["table"].split("\n"):
            yield f"      {line}"


def report_lines(r: dict[str, Any], every_event: bool = False) -> list[str]:
    """The whole report as lines of text (to be printed through ``safe_text``)."""
    out = [*header(r), *integrity_lines(r), *event_ranges(r, every_event), *result_lines(r),
           *timing_lines(r)]
    for f in r["focus"]:
        out.extend(focus_lines(f))
    return out
