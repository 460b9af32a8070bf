"""In Chromium: the replay page draws its Chinese labels with the shipped CJK font, also on a
machine without CJK fonts, and Latin text keeps Streamlit's and the table's own fonts.

A warehouse of 够级 games (whose table is full of Chinese labels: 对门, 头客, 让牌 …) is
served with ``liujia serve`` on 127.0.0.1. Chromium's ``CSS.getPlatformFontsForNode`` names
the fonts that drew a node's text: the CJK glyphs must come from the subset (Noto Sans CJK SC,
a web font), every other glyph from another font. ``LIUJIA_E2E_FONT_SHOT=FILE`` keeps a
screenshot of the page.
"""

from __future__ import annotations

import base64
import json
import os
import re
from pathlib import Path

import pytest

from dashboards.events import event_rows
from dashboards.table import table_html
from dashboards.ui import CJK_FAMILY, OWN_STACKS
from engine.replay import Replay
from tests.dashboards.browser import DevTools, browser, served, wait

__all__ = ["browser"]          # the Chromium fixture

SHOT_ENV = "LIUJIA_E2E_FONT_SHOT"
FONT_NAME = "Noto Sans CJK SC"      # the subset's family in its name table
CJK = re.compile("[\u3000-\u9fff\uff00-\uffef]")

# Mark each element with a text node of its own holding CJK (data-lj-cjk = its index); return
# their texts, the fonts the page knows and its font-loading status.
PROBE_JS = """(async () => {
  await document.fonts.ready;
  const cjk = /[\\u3000-\\u9fff\\uff00-\\uffef]/;
  const marked = [];
  for (const el of document.querySelectorAll('.lj-table *, .lj-now-line, .lj-events td')) {
    const own = [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
    if (cjk.test(own)) {
      el.dataset.ljCjk = marked.length;
      marked.push({text: own, line: el.classList.contains('lj-now-line'),
                   badge: el.classList.contains('lj-badge')});
    }
  }
  const h1 = document.querySelector('h1');
  if (h1) h1.dataset.ljLatin = '1';
  return JSON.stringify({
    marked, status: document.fonts.status,
    check: document.fonts.check('16px "FAMILY"', '六人坑够级摸到爽'),
    faces: [...document.fonts].map(f => ({family: f.family.replace(/"/g, ''), style: f.style,
      weight: f.weight, range: f.unicodeRange, status: f.status})),
    stack: getComputedStyle(document.querySelector('.lj-table')).fontFamily,
    card: getComputedStyle(document.querySelector('.lj-card')).fontFamily,
  });
})()""".replace("FAMILY", CJK_FAMILY)


# Probes put into the page once it is drawn: CJK text in every weight and style of Streamlit's
# fonts (the CJK face joins each family only when its descriptors equal Streamlit's faces')
# and bold in the dashboard's own HTML. Each font is loaded first, as the page would on use.
PROBES_JS = """(async () => {
  const sans = getComputedStyle(document.querySelector('h1')).fontFamily;
  const probes = [
    ['sans-bold', `font-family:${sans};font-weight:700`, ''],
    ['sans-italic', `font-family:${sans};font-style:italic`, ''],
    ['code', `font-family:"Source Code Pro",monospace`, ''],
    ['card-bold', 'font-weight:700', 'lj-card'],
    ['events-bold', 'font-weight:600', 'lj-events'],
  ];
  const box = document.createElement('div');
  for (const [name, style, cls] of probes) {
    const el = document.createElement('p');
    el.dataset.ljProbe = name; el.className = cls; el.setAttribute('style', style);
    el.textContent = 'TEXT';
    box.append(el);
  }
  document.querySelector('.lj-now-line').after(box);
  for (const el of box.children) {
    const cs = getComputedStyle(el);
    await document.fonts.load(`${cs.fontStyle} ${cs.fontWeight} 16px ${cs.fontFamily}`,
                              el.textContent);
  }
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return JSON.stringify(probes.map(p => p[0]));
})()"""
PROBE_TEXT = "六人坑 够级 摸到爽 大王"


def _evaluate(tab: DevTools, expression: str) -> dict:
    """The JSON value of an async expression in the page."""
    r = tab.call("Runtime.evaluate", expression=expression, awaitPromise=True,
                 returnByValue=True)
    return json.loads(r["result"]["value"])


def _fonts_of(tab: DevTools, selector: str) -> list[dict]:
    """The platform fonts that drew the text nodes of the element (name, custom, glyphs)."""
    root = tab.call("DOM.getDocument", depth=0)["root"]["nodeId"]
    node = tab.call("DOM.querySelector", nodeId=root, selector=selector)["nodeId"]
    assert node, selector
    return tab.call("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]


@pytest.fixture
def gouji_server(gouji_db, tmp_path):
    """`liujia serve` over the seven 够级 games; yields the base URL."""
    with served(gouji_db, tmp_path) as base:
        yield base


def _step_to_show(events) -> int:
    """The first seq whose table shows the 够级 badge (bold, small: text Chromium once left as
    boxes) and whose event detail holds CJK text (the event line, in Streamlit's font)."""
    rp = Replay(events)
    rows = event_rows(events)
    for seq in range(1, len(rp)):
        if CJK.search(rows[seq]["detail"]):
            view = rp.game.view(rp.state_at(seq), None)
            html = table_html(rp.game_type, view, list(rp.final.players))
            if re.search(r'class="lj-badge[^"]*">够级</span>', html):
                return seq
    raise AssertionError("no step shows the 够级 badge with a Chinese event detail")


def test_replay_page_draws_chinese_with_the_shipped_font(gouji_server, browser, gouji_games,
                                                         tmp_path):
    events = gouji_games[0]
    gid = events[0].game_id
    step = _step_to_show(events)
    browser.call("Page.navigate", url=f"{gouji_server}/replay?game={gid}&step={step}"
                                      "&view=auditor")
    wait(lambda: browser.eval("!!document.querySelector('.lj-table .lj-card') && "
                              f"document.body.innerText.includes('seq {step} /')"),
         90, f"the replay page of {gid} at step {step}", step=0.5)
    state = wait(lambda: (s := _evaluate(browser, PROBE_JS))["status"] == "loaded" and s,
                 30, "the page's fonts to load")
    shot = browser.call("Page.captureScreenshot", format="png")["data"]
    out = Path(os.environ.get(SHOT_ENV) or tmp_path / "replay-fonts.png")
    out.write_bytes(base64.b64decode(shot))       # the page as drawn, before the probes

    # the shipped face is there and loaded: its own family, and Streamlit's sans-serif family
    # extended by a face limited to CJK code points
    ours = [f for f in state["faces"] if f["family"] == CJK_FAMILY]
    assert [f["status"] for f in ours] == ["loaded"], state["faces"]
    joined = [f for f in state["faces"] if f["family"] == "Source Sans" and "U+3000" in
              f["range"].upper() and f["style"] == "normal"]
    assert [f["status"] for f in joined] == ["loaded"], state["faces"]
    assert state["check"] is True
    # the CJK family (CJK code points only) leads the table's own stacks
    for key, selector in (("stack", ".lj-table"), ("card", ".lj-card")):
        assert state[key] == ", ".join([f'"{CJK_FAMILY}"', *OWN_STACKS[selector].split(",")])

    browser.call("DOM.enable")
    browser.call("CSS.enable")
    marked = state["marked"]
    assert any("对门" in m["text"] for m in marked), marked           # the table (system-ui)
    assert any(m["line"] for m in marked), marked      # the event line (Streamlit's font)
    assert any(m["badge"] for m in marked), marked     # bold at .8rem
    for i, text in enumerate(m["text"] for m in marked):
        fonts = _fonts_of(browser, f'[data-lj-cjk="{i}"]')
        noto = [f for f in fonts if f["familyName"] == FONT_NAME]
        assert noto and all(f["isCustomFont"] for f in noto), (text, fonts)
        n_cjk = len(CJK.findall(text))
        assert sum(f["glyphCount"] for f in noto) == n_cjk, (text, fonts)
        others = [f for f in fonts if f["familyName"] != FONT_NAME]
        if CJK.sub("", text).strip():       # the rest of the text: the normal fonts
            assert others, (text, fonts)
    # every weight and style of Streamlit's fonts, and bold in the dashboard's HTML
    probes = _evaluate(browser, PROBES_JS.replace("TEXT", PROBE_TEXT))
    for name in probes:
        fonts = _fonts_of(browser, f'[data-lj-probe="{name}"]')
        noto = sum(f["glyphCount"] for f in fonts if f["familyName"] == FONT_NAME)
        assert noto == len(CJK.findall(PROBE_TEXT)), (name, fonts)
    # Latin text is Streamlit's own font, untouched
    title = _fonts_of(browser, "[data-lj-latin]")
    assert title and all(f["familyName"] != FONT_NAME for f in title), title
    assert any(f["isCustomFont"] and "SourceSans" in f["familyName"].replace(" ", "")
               for f in title), title
