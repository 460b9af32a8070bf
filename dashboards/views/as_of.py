"""'As of that game' for the replay page: each seat's player with a few key tendencies of the
game (``warehouse.tendencies.KEY_TENDENCIES``), computed from that player's games that started
before the game replayed only — never this game or a later one — and the population's rates
before it too. Not a page of its own: the replay page calls ``render(game_id)``. Player ids
come from the warehouse and are untrusted: they reach the page only in a data frame."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards import profile_data as pd_

CAPTION = ("Each seat's player as of this game: figures from the player's games of this game "
           "type that started before it only (never this game or a later one). Per tendency: "
           "the rate, did / could (n) and the 95% Wilson interval; the population's rate, "
           "also before this game, is in each column's help.")


def _cell(k: int, n: int, low: float | None, high: float | None) -> str:
    """A tendency in one cell: '30% (3/10, 11–60%)', or '– (0/0)' without a chance."""
    if not n:
        return "– (0/0)"
    return f"{k / n:.0%} ({k}/{n}, {100 * low:.0f}–{high:.0%})"


def as_of_frame(table: pl.DataFrame) -> tuple[pl.DataFrame, dict[str, str]]:
    """One row per seat (seat, player, games before, a column per key tendency, headed by its
    label) and, per tendency column, its help text: the description, the population's rate
    and the tendency's id."""
    about, named = pd_.descriptions(), pd_.labels()
    tendencies = list(dict.fromkeys(table["tendency"].to_list()))
    cells = table.with_columns(pl.struct("k", "n", "low", "high").map_elements(
        lambda r: _cell(r["k"], r["n"], r["low"], r["high"]),
        return_dtype=pl.String).alias("cell"))
    wide = (cells.pivot("tendency", index=["seat", "player_id", "games"], values="cell")
            .sort("seat").rename({"player_id": "player", "games": "games before"}))
    short = {t: named.get(t) or t.split(".", 1)[-1] for t in tendencies}
    helps = {}
    for t in tendencies:
        pop = table.filter(pl.col("tendency") == t)["population_rate"].drop_nulls()
        rate = f"{pop[0]:.0%}" if len(pop) else "–"
        helps[short[t]] = (f"{about.get(t, t)}. Population before this game: {rate}. "
                           f"Id: `{t}`.")
    return wide.rename(short), helps


HUD_MIN_N = 5       # fewer chances than this: the rate is withheld in the HUD line ("–")


def _term(label: str) -> str:
    """A tendency's short name for the HUD: the game's term in its label's parentheses
    ('stacks a draw (叠加)' -> '叠加'), else the label's first word."""
    if label.endswith(")") and "(" in label:
        return label[label.rindex("(") + 1:-1]
    return label.split(" ", 1)[0]


def hud_lines(table: pl.DataFrame) -> dict[int, tuple[str, str]]:
    """Seat -> (its HUD line, the line's tooltip): the games before this one and each key
    tendency's rate by its short name, '30%' (withheld as '–' under HUD_MIN_N chances); the
    tooltip names each tendency in full with did / could and the 95% interval."""
    named = pd_.labels()
    out: dict[int, tuple[str, str]] = {}
    for (seat,), rows in table.sort("seat").group_by("seat", maintain_order=True):
        games = int(rows["games"][0])
        bits, tips = [f"{games}g"], [f"games before this one: {games}"]
        for r in rows.iter_rows(named=True):
            label = named.get(r["tendency"]) or r["tendency"].split(".", 1)[-1]
            k, n = int(r["k"]), int(r["n"])
            shown = f"{k / n:.0%}" if n >= HUD_MIN_N else "–"
            bits.append(f"{_term(label)} {shown}")
            tips.append(f"{label}: {_cell(k, n, r['low'], r['high'])}")
        out[int(seat)] = (" · ".join(bits), "\n".join(tips))
    return out


def hud(game_id: str) -> dict[int, tuple[str, str]]:
    """The HUD line of each seat of a game, as of just before it (empty without figures)."""
    try:
        table = pl.from_arrow(ui.load(pd_.as_of, game_id))
    except data.NoWarehouse:
        return {}
    return {} if table.is_empty() else hud_lines(table)


def render(game_id: str) -> None:
    """Show, for the game, each seat's player and key tendencies as of just before it."""
    try:
        table = pl.from_arrow(ui.load(pd_.as_of, game_id))
    except data.NoWarehouse:
        return
    st.subheader("As of this game")
    if table.is_empty():
        st.caption("No key tendencies for this game.")
        return
    st.caption(CAPTION)
    frame, helps = as_of_frame(table)
    config = {name: st.column_config.TextColumn(name, help=text) for name, text in helps.items()}
    config["games before"] = st.column_config.NumberColumn(
        "games before", help="the player's games of this game type before this one")
    st.dataframe(frame, hide_index=True, width="stretch", column_config=config)
