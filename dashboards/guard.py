"""The access token of a dashboard served beyond this machine (``liujia serve --allow-remote``).

When ``$LIUJIA_TOKEN`` is set (``liujia serve`` sets it for an address other machines can
reach, or passes on the user's), every browser session must present it once: in the address
(``?token=…``, as printed at start) or typed into the form this shows. The token is compared in
constant time, removed from the address bar at once (so that a shared replay link does not
carry it), and remembered for the session only. Without the token a page shows nothing but the
form: no query reaches the warehouse.
"""

from __future__ import annotations

import hmac
import os

import streamlit as st

from dashboards import ui

TOKEN_ENV = "LIUJIA_TOKEN"
PASSED = "lj_token_ok"
PARAM = "token"


def _matches(given: object, token: str) -> bool:
    return isinstance(given, str) and hmac.compare_digest(given.encode(), token.encode())


def require_token() -> None:
    """Stop the page unless this session presented the access token (when one is set)."""
    token = os.environ.get(TOKEN_ENV)
    ss = st.session_state
    given = st.query_params.get(PARAM)
    if given is not None:
        del st.query_params[PARAM]
    if not token or ss.get(PASSED):
        return
    if _matches(given, token):
        ss[PASSED] = True
        return
    st.title("liujia")
    if given is not None:
        ui.note("That access token is not this dashboard's.", "error")
    ui.note("This dashboard is served beyond its own machine and needs its access token: "
            "open the address `liujia serve` printed, or type the token here.", "info")
    typed = st.text_input("Access token", type="password", key="lj_token_typed")
    if typed:
        if _matches(typed, token):
            ss[PASSED] = True
            st.rerun()
        ui.note("That access token is not this dashboard's.", "error")
    st.stop()
