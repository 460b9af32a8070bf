"""The dashboard's one entry script: ``streamlit run dashboards/app.py`` (see ``liujia serve``).

Pages live in dashboards/views/; st.navigation routes between them. The warehouse file comes
from $LIUJIA_DB (set by ``liujia serve --db``), else the project's default. Every page gets the
shipped CJK font (dashboards/static/, ``ui.use_cjk_font``).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from dashboards import data, guard, ui

VIEWS = Path(__file__).resolve().parent / "views"


def pages() -> list[st.Page]:
    """The dashboard's pages, in menu order."""
    return [
        st.Page(VIEWS / "overview.py", title="Overview", icon=":material/dashboard:",
                default=True),                                   # served at /
        st.Page(VIEWS / "replay.py", title="Replay", icon=":material/playing_cards:",
                url_path="replay"),
        st.Page(VIEWS / "players.py", title="Players", icon=":material/group:",
                url_path="players"),
        st.Page(VIEWS / "sessions.py", title="Sessions", icon=":material/timeline:", url_path="sessions"),
        st.Page(VIEWS / "search.py", title="Search", icon=":material/search:",
                url_path="search"),
        st.Page(VIEWS / "compare.py", title="Compare", icon=":material/compare_arrows:",
                url_path="compare"),
        st.Page(VIEWS / "quarantine.py", title="Quarantine", icon=":material/report:",
                url_path="quarantine"),
        st.Page(VIEWS / "audit.py", title="Audit", icon=":material/gavel:", url_path="audit"),
    ]


def main() -> None:
    """Configure the page, show the sidebar and run the selected page."""
    st.set_page_config(page_title="liujia", page_icon="🂡", layout="wide")
    ui.use_cjk_font()                   # Chinese labels without CJK fonts on the machine
    guard.require_token()
    nav = st.navigation(pages())
    ui.note(f"warehouse: {data.db_path()}", "caption", where=st.sidebar)
    nav.run()


main()
