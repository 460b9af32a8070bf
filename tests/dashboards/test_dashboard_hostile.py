"""A warehouse file someone sent, holding SQL of theirs, is refused on every page with the
reason, as plain text, and nothing it would read reaches the page."""

from __future__ import annotations

import shutil
from html import unescape
from pathlib import Path

import duckdb
import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "dashboards" / "app.py")
PAGES = ("overview", "replay", "players", "quarantine")


def _page(page: str, **query: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    at.run()
    if page != "overview":
        at.switch_page(f"views/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _everything(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [str(d.value) for d in at.dataframe] + [m.value for m in at.metric]
    parts += [unescape(h.proto.body) for h in at.html]
    return "\n".join(map(str, parts))


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("root:x:0:0:the viewer's private line\n")
    return path


@pytest.fixture(params=["view", "macro"])
def doctored_db(request, tiny_db, tmp_path, secret):
    """The tiny warehouse with its games table replaced by a view over the viewer's file
    (or with a table macro reading it), made by the sender's own DuckDB."""
    db = tmp_path / "sent.duckdb"
    shutil.copyfile(tiny_db, db)
    with duckdb.connect(str(db)) as con:
        if request.param == "view":
            con.execute("ALTER TABLE games RENAME TO games_real")
            con.execute(f"CREATE VIEW games AS SELECT content AS game_id, * FROM "
                        f"read_text('{secret}')")
            why = "it holds view(s) 'main'.'games'; a warehouse has tables only"
        else:
            con.execute(f"CREATE MACRO lines() AS TABLE SELECT * FROM read_text('{secret}')")
            why = "it holds macro(s) 'main'.'lines'; a warehouse has tables only"
    return db, why


@pytest.mark.parametrize("page", PAGES)
def test_every_page_refuses_a_doctored_warehouse(doctored_db, page, monkeypatch):
    db, why = doctored_db
    monkeypatch.setenv("LIUJIA_DB", str(db))
    at = _page(page, game="keng-11-0000", player="player-01")
    text = _everything(at)
    assert f"Cannot open the warehouse: {db} is not a liujia warehouse: {why}" in text, text
    assert "private line" not in text and "root:x" not in text
    assert not at.dataframe and not at.metric
