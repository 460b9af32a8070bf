"""The audit report as one self-contained HTML file that prints well: inline CSS (with
``@media print``), no script, no external resource; every string from the log escaped with
``html.escape``. ``report_fragment`` is the same report for a page that has its own
document (the dashboard's audit page, through ``st.html``)."""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Iterable, Sequence
from html import escape
from pathlib import Path, PurePath
from typing import Any

CSS = """
.lj-audit{font-family:"liujia CJK audit",system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",
 "PingFang SC",sans-serif;color:#1f2328;line-height:1.4;max-width:1100px;margin:0 auto;padding:0 1rem}
.lj-audit h1{font-size:1.5rem;margin:.6rem 0}.lj-audit h2{font-size:1.2rem;margin:1.4rem 0 .4rem;
 border-bottom:1px solid #d0d7de}.lj-audit h3{font-size:1rem;margin:1rem 0 .3rem}
.lj-audit table{border-collapse:collapse;width:100%;font-size:.85rem;margin:.3rem 0}
.lj-audit th,.lj-audit td{border:1px solid #d0d7de;padding:.15rem .4rem;text-align:left;
 vertical-align:top;overflow-wrap:anywhere}
.lj-audit th{background:#f6f8fa}
.lj-audit pre{font-family:ui-monospace,"Noto Sans Mono CJK SC",monospace;font-size:.75rem;
 background:#f6f8fa;border:1px solid #d0d7de;padding:.4rem;white-space:pre-wrap;
 overflow-wrap:anywhere;margin:.2rem 0}
.lj-audit .ok{color:#116329}.lj-audit .bad{color:#a40e26;font-weight:600}
.lj-audit .na{color:#57606a}
.lj-audit .box{border:1px solid #d0d7de;border-radius:.4rem;padding:.5rem .8rem;margin:.5rem 0}
.lj-audit .box.bad{background:#fff0f0;border-color:#f5b5b5}
.lj-audit .box.ok{background:#eefbf0;border-color:#a9dfb4}
.lj-audit tr.chosen td{background:#fff8c5;font-weight:600}
.lj-audit tr.illegal td{background:#fff0f0}
.lj-audit .views{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:.4rem}
@media print{
 .lj-audit{max-width:none;padding:0;font-size:9pt}
 .lj-audit h2{break-after:avoid}.lj-audit h3{break-after:avoid}
 .lj-audit tr,.lj-audit pre{break-inside:avoid}
 .lj-audit .views{display:block}
 .lj-audit .box,.lj-audit tr.chosen td,.lj-audit tr.illegal td{-webkit-print-color-adjust:exact;
  print-color-adjust:exact}
 @page{margin:1.5cm}
}
"""

GOOD = {"ok", "verified", "trusted", "same"}
BAD = {"broken", "bad", "mismatch", "malformed", "differs", "illegal", "corrupt", "incomplete"}


def e(x: Any) -> str:
    """Any value as escaped HTML text (None as an empty string)."""
    return "" if x is None else escape(str(x), quote=True)


def js(x: Any) -> str:
    """A JSON value as escaped text."""
    return e(json.dumps(x, ensure_ascii=False, sort_keys=True))


def state_class(state: Any) -> str:
    """The CSS class of a state word: ok, bad or na."""
    s = str(state)
    return "ok" if s in GOOD else "bad" if s in BAD else "na"


def _tr(cells: Sequence[str], cls: str) -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<tr{attr}>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def table(head: Sequence[str], rows: Iterable[Sequence[str]],
          classes: Iterable[str] | None = None) -> str:
    """An HTML table; the cells are HTML already (escape before)."""
    rows = list(rows)
    cls = list(classes) if classes is not None else [""] * len(rows)
    body = "".join(_tr(r, c) for r, c in zip(rows, cls, strict=True))
    return "<table><thead><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + \
        f"</tr></thead><tbody>{body}</tbody></table>"


def header_html(r: dict[str, Any]) -> str:
    """Title, the summary box, the ruleset, the options and the players."""
    g = r["game"]
    s = r["summary"]
    probs = "".join(f"<li>{e(p)}</li>" for p in s["problems"])
    box = (f'<div class="box ok">No problem found. {e(r["verdict"]["text"])}</div>' if s["ok"]
           else f'<div class="box bad"><b>Problems found</b><ul>{probs}</ul></div>')
    box += "".join(f'<div class="box">Caveat: {e(c)}</div>' for c in s.get("caveats", ()))
    # the file's name only: a report is shared, the folders of the machine it was made on not
    where = (f"file {e(PurePath(r['file']).name)}" if r.get("file")
             else f"from the {e(r['source'])}")
    opts = table(["option", "value"], ([e(k), js(v)] for k, v in (r.get("options") or {}).items()))
    players = table(["seat", "player"], ([str(i), e(p)] for i, p in enumerate(r["players"])))
    session = (f"<p>Session {e(r['session'])}; previous game "
               f"{e(r.get('previous_game') or 'none')}</p>" if r.get("session") else "")
    return (f"<h1>Audit of game {e(r['game_id'])}</h1>"
            f"<p>{e(g.get('title'))} ({e(g.get('id'))}) · {where} · rules version "
            f"{e(r.get('rules_version'))} · report {e(r['format'])}</p>{box}"
            f"<h2>Ruleset and options</h2>{opts}<h2>Players</h2>{players}{session}")


def integrity_html(r: dict[str, Any]) -> str:
    """The integrity checks."""
    rows = []
    for c in r["integrity"]:
        details = "".join(f"<li>{e(d)}</li>" for d in c["details"])
        rows.append([e(c["name"].replace("_", " ")),
                     f'<span class="{state_class(c["state"])}">{e(c["state"])}</span>',
                     e(c["text"]) + (f"<ul>{details}</ul>" if details else "")])
    return "<h2>Integrity</h2>" + table(["check", "state", "what it says"], rows)


def rules_html(rules: Sequence[dict[str, Any]]) -> str:
    """The full text of each rule cited."""
    return "".join(f"<h4>{e(x['id'])}</h4><pre>{e(x['text'])}</pre>" for x in rules)


def verdict_html(r: dict[str, Any]) -> str:
    """The game's verdict and the first illegal event."""
    v = r["verdict"]
    out = f'<h2>Verdict</h2><p class="{state_class(v["status"])}">{e(v["text"])}</p>'
    err = v.get("first_illegal")
    if err:
        also = ", ".join(err.get("also") or ()) or "none"
        out += (f"<p>Rule {e(err.get('rule_id') or err.get('field'))}; also breaks "
                f"{e(also)}; legal then: {e(err.get('legal') or 'not said')}</p>"
                + rules_html(err.get("rules", ())))
    return out


def result_html(r: dict[str, Any]) -> str:
    """The result recomputed against the logged one, and the outcomes."""
    res = r["result"]
    out = f'<h2>Result</h2><p class="{state_class(res["state"])}">{e(res["text"])}</p>'
    if res["fields"]:
        out += table(["field", "logged", "recomputed", "same"],
                     ([e(f["field"]), js(f["logged"]), js(f["recomputed"]),
                       "yes" if f["same"] else '<b class="bad">no</b>'] for f in res["fields"]),
                     ("" if f["same"] else "illegal" for f in res["fields"]))
    if res.get("outcomes"):
        out += table(["seat", "player", "side", "place", "score", "result"],
                     ([str(o["seat"]), e(o["player"]), e(o.get("side")), e(o.get("place")),
                       e(o["score"]), e(o["result"])] for o in res["outcomes"]))
    return out


def timing_html(r: dict[str, Any]) -> str:
    """Out-of-turn and timed actions, options let go, impossible timestamps."""
    t = r["timing"]
    out = "<h2>Out-of-turn and timed actions</h2>"
    out += table(["seq", "time", "seat", "action", "waiting for", "could act", "answers",
                  "delay", "flags"],
                 ([str(a["seq"]), e(a["time"]), str(a["seat"]),
                   e(a["kind"] + (f" ({a['chosen']})" if a.get("chosen") else "")),
                   e(a["to_move"] if a["to_move"] >= 0 else "automatic event"),
                   e(", ".join(map(str, a["could_act"])) + f" ({a['kind']}: "
                     + (", ".join(map(str, a["could_same"])) or "none") + ")"),
                   e(f"seq {a['answers']['seq']} {a['answers']['kind']} at "
                     f"{a['answers']['time']}"), e(a["delay"]), e("; ".join(a["flags"]))]
                  for a in t["actions"]),
                 ("illegal" if a["impossible"] else "" for a in t["actions"]))
    if t["lapsed"]:
        out += "<h3>Standing options let go</h3>" + table(
            ["seq", "time", "event", "seats that could have acted", "option"],
            ([str(x["seq"]), e(x["time"]), e(x["kind"]), e(", ".join(map(str, x["seats"]))),
              e(", ".join(x["options"]))] for x in t["lapsed"]))
    out += f"<h3>Impossible timestamps ({len(t['backwards'])})</h3>"
    out += "".join(f'<p class="bad">{e(b["text"])}</p>' for b in t["backwards"]) or \
        "<p>None: every event is stamped at or after the one before.</p>"
    return out


def focus_html(f: dict[str, Any]) -> str:
    """One disputed moment: verdict, decision, legal options, rules, every seat's view."""
    who = f" ({f['player']})" if f.get("player") else ""
    out = (f"<h3>seq {e(f['seq'])} at {e(f['time'])}: {e(f['action'])}{e(who)} · "
           f'<span class="{state_class(f["verdict"])}">{e(f["verdict"])}</span></h3>')
    if f.get("error"):
        out += f'<p class="bad">{e(f["error"]["message"])}</p>'
    wait = f"seat {f['to_move']}" if f["to_move"] >= 0 else f"the automatic {f['owed']}"
    out += f"<p>The game waited for {e(wait)}.</p>"
    if f.get("decision"):
        d = f["decision"]
        out += f"<p>Decision: options {e(', '.join(d['options']))}; chosen {e(d['chosen'])}</p>"
    lg = f["legal"]
    more = f", {lg['listed']} listed" if lg["listed"] < lg["count"] else ""
    out += f"<h4>Legal options ({lg['count']}{more})</h4>"
    out += table(["", "action"], ([("chosen" if o["chosen"] else ""), e(o["action"])]
                                  for o in lg["options"]),
                 ("chosen" if o["chosen"] else "" for o in lg["options"]))
    if not lg["chosen_listed"] and f["verdict"] != "ok":
        out += f'<p class="bad">The action taken ({e(f["action"])}) is not a legal option.</p>'
    elif not lg["chosen_listed"]:
        out += (f"<p>The action taken ({e(f['action'])}) is not among the options listed; the "
                "engine accepts it (e.g. a void 抢 that carries its penalty).</p>")
    out += "<h4>Rules cited</h4>" + (rules_html(f["rules"]) or "<p>None.</p>")
    out += "<h4>What each seat knew (the state before the event)</h4><div class=\"views\">"
    out += "".join(f"<div><b>{e(v['who'])}</b><pre>{e(v['table'])}</pre></div>"
                   for v in f["views"])
    return out + "</div>"


def events_html(r: dict[str, Any]) -> str:
    """Every event's verdict."""
    rows = r["events"]
    return f"<h2>Every event ({len(rows)})</h2>" + table(
        ["seq", "time", "player", "action", "verdict", "rule"],
        ([str(x["seq"]), e(x["time"]), e(x.get("player")), e(x["action"]), e(x["verdict"]),
          e(x.get("rule_id"))] for x in rows),
        ("illegal" if x["verdict"] != "ok" else "" for x in rows))


FONT = Path(__file__).resolve().parent / "fonts" / "liujia-cjk-audit.woff2"
FONT_FAMILY = "liujia CJK audit"
CJK_RANGE = "U+3000-9FFF, U+FF00-FFEF"


@functools.cache
def font_css() -> str:
    """The shipped CJK font of the report (fonts/README.md) as an @font-face rule limited to
    CJK code points, so that Chinese shows on a machine without CJK fonts; '' if missing.
    Leading the report's font stack, so that no system font is tried first for CJK."""
    try:
        b64 = base64.b64encode(FONT.read_bytes()).decode("ascii")
    except OSError:
        return ""
    return (f'@font-face{{font-family:"{FONT_FAMILY}";font-style:normal;font-weight:100 900;'
            f'unicode-range:{CJK_RANGE};src:url(data:font/woff2;base64,{b64}) format("woff2")}}')


def report_fragment(r: dict[str, Any]) -> str:
    """The report as a <style> and a <div> (for a page with its own document)."""
    moments = "".join(focus_html(f) for f in r["focus"])
    body = (header_html(r) + integrity_html(r) + verdict_html(r) + result_html(r)
            + (f"<h2>Disputed moments</h2>{moments}" if moments else "")
            + timing_html(r) + events_html(r))
    return f'<style>{font_css()}{CSS}</style><div class="lj-audit">{body}</div>'


def report_html(r: dict[str, Any]) -> str:
    """The report as one self-contained HTML document."""
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>liujia audit · {e(r['game_id'])}</title></head><body>"
            f"{report_fragment(r)}</body></html>\n")

