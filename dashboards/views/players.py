"""Players page: with no player chosen, every player of the warehouse (games, wins, losses,
draws, win rate, last seen; filter by game type, search the ids, select a row to open the
profile); a player's profile under three filters — game, date range (the games started in
it, UTC days) and seat — that apply to every figure, table and chart (warehouse.tendencies.
Scope, the population's figures too): the record, results over time (blocks of N games) and
by seat and by side with 95% intervals against the population, the tendencies of every game
played (a table and a chart of each rate with its interval against the population), the
partnerships, and the player's games with replay links. Player ids are untrusted: they reach
the page only as plain text (ui.note) or in data frames."""

from __future__ import annotations

from datetime import date
from typing import Any
from urllib.parse import quote

import altair as alt
import polars as pl
import streamlit as st

from dashboards import data, ui
from dashboards import profile_data as pd_
from warehouse.records import with_headline, words
from warehouse.tendencies import Scope

PERCENT = st.column_config.NumberColumn(format="percent")
RATE_AXIS = alt.Axis(format="%")


def _all_games(g: str | None) -> str:
    return ui.game_label(g)


def _all_seats(s: int | None) -> str:
    return "all seats" if s is None else f"seat {s}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x:.0%}"


def _interval() -> pl.Expr:
    return pl.struct("low", "high").map_elements(
        lambda r: f"{_pct(r['low'])}–{_pct(r['high'])}", return_dtype=pl.String)


st.title("Players")
ui.require_warehouse()
picked_player = st.session_state.pop("pl_pick", None)
if picked_player is not None:            # a row of the list was selected on the last run
    st.session_state["pl_player"] = picked_player
if "pl_player" not in st.session_state:
    st.session_state["pl_player"] = st.query_params.get("player", "")
player = st.text_input("Player id", key="pl_player", placeholder="e.g. player-07").strip()
if st.query_params.get("player", "") != player:
    st.query_params["player"] = player
if not player:                           # the list: no profile filters in its URL
    for _name in ("game", "since", "until", "seat"):
        if _name in st.query_params:
            del st.query_params[_name]


# ---------------------------------------------------------------- the players list

def players_list() -> None:
    """Every player, filtered by game type and a search of the ids; a row opens a profile."""
    st.caption("Type a player id, or select a player in the list, to see the player's record, "
               "tendencies and games; the replay page's search also finds games by player.")
    st.subheader("All players")
    types = pl.from_arrow(ui.load(data.games_by_type))
    options = [None, *types["game"].to_list()] if not types.is_empty() else [None]
    c1, c2 = st.columns(2)
    game = c1.selectbox("Game", options, format_func=_all_games, key="pl_list_game")
    search = c2.text_input("Search player ids", key="pl_search",
                           placeholder="part of a player id").strip()
    listed = [with_headline(r) for r in ui.load(data.players_list, game, search).to_pylist()]
    table = pl.DataFrame([{
        "player": r["player_id"], "game": ui.game_label(r["game"]), "games": r["games"],
        "wins": r["wins"], "losses": r["losses"], "draws": r["draws"],
        "rate": r["rate"], "n": r["rate_n"], "rate is": r["rate_name"],
        "net score": r["score"], "per game": r["score_mean"], "last seen": r["last_seen"]}
        for r in listed], schema_overrides={"rate": pl.Float64, "per game": pl.Float64})
    ui.note(f"{len({r['player_id'] for r in listed}):,} players, one row per game type "
            "played (rates and scores of unlike games do not pool). Select a row to open the "
            "player's profile; the rate is over decided games (a draw counts neither way) "
            "unless 'rate is' says otherwise.", "caption")
    nonce = st.session_state.setdefault("pl_nonce", 0)
    shown = st.dataframe(
        table, hide_index=True, width="stretch", key=f"pl_list_{nonce}", on_select="rerun",
        selection_mode="single-row",
        column_config={"rate": st.column_config.NumberColumn("rate", format="percent"),
                       "n": st.column_config.NumberColumn("n", help="the rate's n"),
                       "per game": st.column_config.NumberColumn(format="%+.2f"),
                       "last seen": st.column_config.DatetimeColumn("last seen")})
    rows = shown.selection.rows if shown is not None else []
    if rows and 0 <= rows[0] < table.height:
        chosen = table["player"][rows[0]]
        st.session_state["pl_pick"] = chosen
        st.session_state["pl_nonce"] = nonce + 1     # a fresh list (no selection) next time
        st.query_params["player"] = chosen
        st.rerun()


if not player:
    players_list()
    st.stop()


# ---------------------------------------------------------------- the filters

def _keep(key: str, allowed: Any) -> None:
    """Forget a widget's kept value that is not allowed any more (another player's)."""
    if key in st.session_state and st.session_state[key] is not None \
            and not allowed(st.session_state[key]):
        del st.session_state[key]


URL_FILTERS = {"game": "pl_game", "since": "pl_since", "until": "pl_until", "seat": "pl_seat"}


def _url_value(name: str, text: str | None) -> Any:
    """A filter's value from its URL form (None when missing or malformed; whether it is
    allowed for this player is checked by ``filters``)."""
    if not text:
        return None
    if name in ("since", "until"):
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None
    if name == "seat":
        return int(text) if text.isascii() and text.isdigit() and len(text) <= 2 else None
    return text[:64]


def filters_from_url() -> None:
    """Fill the profile's filters from the URL once per player (a shared link)."""
    if st.session_state.get("pl_url_for") == player:
        return
    st.session_state["pl_url_for"] = player
    for name, key in URL_FILTERS.items():
        st.session_state[key] = _url_value(name, st.query_params.get(name))


def filters_to_url(game: str | None, scope: Scope) -> None:
    """Put the profile's filters in the URL beside the player (only those set)."""
    values = {"game": game, "since": scope.since, "until": scope.until, "seat": scope.seat}
    for name, value in values.items():
        text = None if value is None else (value.isoformat() if isinstance(value, date)
                                           else str(value))
        if text is None:
            if name in st.query_params:
                del st.query_params[name]
        elif st.query_params.get(name) != text:
            st.query_params[name] = text


def filters(record_all: pl.DataFrame, span: dict[str, Any]) -> tuple[str | None, Scope]:
    """The profile's game, date range and seat widgets (from the URL when a link set them,
    and back into it): the game and the Scope they give."""
    filters_from_url()
    played = list(dict.fromkeys(record_all["game"].to_list()))
    _keep("pl_game", lambda g: g in played)
    first, last = (span["first"].date(), span["last"].date()) if span["games"] else (None,) * 2
    for key in ("pl_since", "pl_until"):
        _keep(key, lambda d: first is not None and first <= d <= last)
    c1, c2, c3, c4 = st.columns(4)
    game = c1.selectbox("Game", [None, *played], format_func=_all_games, key="pl_game",
                        help="applies to the whole profile")
    kw: dict[str, Any] = {"min_value": first, "max_value": last, "format": "YYYY-MM-DD"}
    since = c2.date_input("From", value=None, key="pl_since", help="games started on or after "
                          "this day (UTC); empty: from the first", **kw)
    until = c3.date_input("Until", value=None, key="pl_until", help="games started on or "
                          "before this day (UTC); empty: to the last", **kw)
    seats = record_all if game is None else record_all.filter(pl.col("game") == game)
    seat_options = [None, *sorted(set(seats["seat"].to_list()))]
    _keep("pl_seat", lambda s: s in seat_options)
    seat = c4.selectbox("Seat", seat_options, format_func=_all_seats, key="pl_seat",
                        help="the games the player sat at this seat")
    since = since if isinstance(since, date) else None
    until = until if isinstance(until, date) else None
    scope = Scope(since=since, until=until, seat=seat)
    filters_to_url(game, scope)
    return game, scope


# ---------------------------------------------------------------- charts

def rate_chart(frame: pl.DataFrame, label: str, n: str, title: str,
               extra: tuple[str, ...] = (), axis_title: str | None = None,
               key: str | None = None) -> alt.LayerChart:
    """One row per ``label``: the rate as a point, its 95% interval as a rule and, when the
    frame has one, the population's rate as a red tick; n and ``extra`` in the tooltip, and
    the ``key`` column (a tendency's id) too. The chart's own field names are plain words
    (Vega-Lite reads dots and brackets in a field name as paths)."""
    order = frame[label].to_list()
    has_pop = "population_rate" in frame.columns
    fields = {label: "label", n: "n", **{e: f"extra{i}" for i, e in enumerate(extra)},
              **({key: "key"} if key else {})}
    chart_data = frame.select(*fields, "rate", "low", "high",
                              *(["population_rate"] if has_pop else [])).rename(fields)
    base = alt.Chart(chart_data.to_pandas()).encode(
        y=alt.Y("label:N", sort=order, title=None, axis=alt.Axis(labelLimit=240)))
    x = alt.X("low:Q", title=axis_title or "rate (point), 95% interval (rule)"
              + (", population (tick)" if has_pop else ""),
              scale=alt.Scale(domain=[0, 1]), axis=RATE_AXIS)
    rule = base.mark_rule(strokeWidth=2).encode(x=x, x2="high:Q")
    point = base.mark_point(filled=True, size=70).encode(
        x="rate:Q", tooltip=[alt.Tooltip("label:N", title=label),
                             *([alt.Tooltip("key:N", title=key)] if key else []),
                             alt.Tooltip("rate:Q", format=".1%"),
                             alt.Tooltip("n:Q", title=n),
                             *(alt.Tooltip(f"{fields[e]}:Q", title=e) for e in extra),
                             alt.Tooltip("low:Q", format=".1%"),
                             alt.Tooltip("high:Q", format=".1%")])
    layers = [rule, point]
    if has_pop:
        layers.append(base.mark_tick(color="#d62728", thickness=2, size=18).encode(
            x="population_rate:Q", tooltip=[alt.Tooltip("population_rate:Q", format=".1%")]))
    return alt.layer(*layers).properties(height=alt.Step(28), title=title)


def time_chart(frame: pl.DataFrame, block: int) -> alt.LayerChart:
    """The win rate of each block of games in order: a point and line, its interval a rule."""
    chart_data = frame.with_columns(
        (pl.col("block") * block + 1).alias("start"),
        pl.col("first").dt.strftime("%Y-%m-%d %H:%M").alias("first"),
        pl.col("last").dt.strftime("%Y-%m-%d %H:%M").alias("last"),
    ).select("game", "start", "games", "wins", "losses", "draws", "decided",
             pl.col("win_rate").alias("rate"), "low", "high", "first", "last").to_pandas()
    base = alt.Chart(chart_data).encode(
        x=alt.X("start:Q", axis=alt.Axis(labelAngle=0, format="d"),
                title=f"blocks of {block} games of one type (the number of the first)"),
        color=alt.Color("game:N", title="game"))
    y = alt.Y("low:Q", title="win rate", scale=alt.Scale(domain=[0, 1]), axis=RATE_AXIS)
    tips = [alt.Tooltip("game:N"), alt.Tooltip("start:Q", title="from game"), "games:Q", "wins:Q", "losses:Q",
            "draws:Q", alt.Tooltip("decided:Q", title="n (decided)"),
            alt.Tooltip("rate:Q", format=".1%", title="win rate"),
            alt.Tooltip("low:Q", format=".1%"), alt.Tooltip("high:Q", format=".1%"),
            alt.Tooltip("first:N", title="first game"), alt.Tooltip("last:N", title="last game")]
    rule = base.mark_rule(strokeWidth=2).encode(y=y, y2="high:Q")
    line = base.mark_line(point=True).encode(y="rate:Q", tooltip=tips)
    return alt.layer(rule, line).properties(height=260, title="results over time")


def tendency_chart(frame: pl.DataFrame, game: str) -> alt.LayerChart:
    """Each tendency's rate as a point, its 95% interval as a rule, the population as a tick;
    rows by the tendency's label, its id in the tooltip."""
    return rate_chart(frame, "tendency", "could", f"tendencies · {game}", ("did",), key="id")


def _tendency_help(frame: pl.DataFrame) -> str:
    """The tendency column's tooltip: what the names are, and each one's id (from the
    catalog, code: never warehouse text)."""
    ids = "\n".join(f"- {name}: `{key}`" for name, key in
                     zip(frame["tendency"], frame["id"], strict=True))
    return ("The tendency as a player says it, with the game's term; its id (in `liujia "
            f"stats --json` and the warehouse):\n\n{ids}")


# ---------------------------------------------------------------- the profile's sections

def by_game_type(record: pl.DataFrame, scores: pl.DataFrame) -> list[dict[str, Any]]:
    """Per game type: games, wins, losses, draws (from the record), the net score and the
    score's mean and standard deviation per game (from every game's score), with the game's
    headline rate and the score's interval (``warehouse.records``)."""
    rows = []
    for (g,), part in record.group_by("game", maintain_order=True):
        sc = scores.filter(pl.col("game") == g)["score"]
        sd = sc.std() if sc.len() >= 2 else None
        rows.append(with_headline({
            "game": g, "games": int(part["games"].sum()), "wins": int(part["wins"].sum()),
            "losses": int(part["losses"].sum()), "draws": int(part["draws"].sum()),
            "score": int(sc.sum()), "score_mean": float(sc.mean()) if sc.len() else None,
            "score_sd": None if sd is None else float(sd)}))    # type: ignore[arg-type]
    return rows


def record_section(record: pl.DataFrame, scores: pl.DataFrame) -> None:
    """Per game type — never pooled: unlike games' win rates and scores do not mix — the
    record in the game's own words, the headline rate with n and its interval, the net
    score and the score per game with its interval; the metrics when one game type is shown;
    the running net score over the games of each type; the record by seat and side."""
    rows = by_game_type(record, scores)
    if len(rows) == 1:
        r, w = rows[0], words(rows[0]["game"])
        cells = st.columns(6)
        for col, (label, value) in zip(cells, (
                (w.games, f"{r['games']:,}"), (w.wins, f"{r['wins']:,}"),
                (w.losses, f"{r['losses']:,}"), (w.draws, f"{r['draws']:,}"),
                (w.rate, "–" if r["rate"] is None else f"{r['rate']:.0%}"),
                ("net score", f"{r['score']:+,}")), strict=True):
            col.metric(label, value, help=w.about if label == w.rate else None)
    else:
        st.caption("Each game type apart: win rates and scores of unlike games do not pool.")
    table = pl.DataFrame([{
        "game": ui.game_label(r["game"]), "games": r["games"], "wins": r["wins"],
        "losses": r["losses"], "draws": r["draws"], "rate": r["rate_name"],
        "value": r["rate"], "n": r["rate_n"],
        "95% interval": ui.interval_text(r["rate_low"], r["rate_high"], True),
        "net score": r["score"], "per game": r["score_mean"],
        "per game, 95%": ui.interval_text(r["score_low"], r["score_high"], False),
        "what the rate is": words(r["game"]).about} for r in rows])
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"value": st.column_config.NumberColumn("rate", format="percent"),
                                "per game": st.column_config.NumberColumn(format="%+.2f")})
    if scores.height:
        st.altair_chart(score_chart(scores), width="stretch")
    st.subheader("Record by game, seat and side")
    st.dataframe(record, hide_index=True, width="stretch")


def score_chart(scores: pl.DataFrame) -> alt.Chart:
    """The running net score over the games of each type, in the order they started."""
    data_ = scores.with_columns(
        pl.col("game").map_elements(ui.game_label, return_dtype=pl.String),
        pl.col("started").dt.strftime("%Y-%m-%d %H:%M")).to_pandas()
    return alt.Chart(data_).mark_line(point=alt.OverlayMarkDef(size=12)).encode(
        x=alt.X("n:Q", title="games of the type, in order", axis=alt.Axis(format="d")),
        y=alt.Y("total:Q", title="net score"),
        color=alt.Color("game:N", title=None, legend=alt.Legend(orient="bottom",
                                                                 labelLimit=0)),
        tooltip=["game:N", alt.Tooltip("n:Q", title="game"), "started:N", "game_id:N",
                 "score:Q", alt.Tooltip("total:Q", title="net score")],
    ).properties(height=240, title="net score over time")


def _results_frame(t: pl.DataFrame, by: str) -> pl.DataFrame:
    """The decided results by seat or side (a game without sides has none) for a chart."""
    grp = pl.col(by).cast(pl.String)
    label = pl.concat_str(pl.col("game"), pl.lit(" · "),
                          pl.lit("seat ") + grp if by == "seat" else grp)
    return t.filter((pl.col("decided") > 0) & pl.col(by).is_not_null()).select(
        label.alias(f"game · {by}"), pl.col("decided").alias("n (decided)"), "games", "wins",
        "losses", "draws", pl.col("win_rate").alias("rate"), "low", "high",
        _interval().alias("95% interval"), "population_rate")


def results_section(prof: dict[str, Any], game: str | None, scope: Scope, games: int) -> None:
    """Results over time (blocks of N games) and by seat and by side, each with its table."""
    st.subheader("Results")
    st.caption("Win rates over decided games (a draw counts neither way), each with its 95% "
               "Wilson interval; the red tick is every player's rate at that seat or side "
               "under the same filters.")
    shown_for = (player, game, scope, games)    # new filters: the block size starts afresh
    if st.session_state.get("pl_block_for") != shown_for:
        st.session_state["pl_block_for"] = shown_for
        st.session_state["pl_block"] = pd_.default_block(games)
    block = st.selectbox("Games per block", pd_.BLOCKS, key="pl_block",
                         help="per game type: win rates of different games do not mix")
    over = pl.from_arrow(prof["over_time"] if block == prof["block"] else
                         ui.load(pd_.results_over_time, player, game, scope, block))
    if over.is_empty() or over["decided"].sum() == 0:
        st.caption("No decided game in these filters.")
    else:
        st.altair_chart(time_chart(over, block), width="stretch")
    for col, by in zip(st.columns(2), ("seat", "side"), strict=True):
        frame = _results_frame(pl.from_arrow(prof[f"by_{by}"]), by)
        if frame.is_empty():
            col.caption(f"No decided game by {by} in these filters"
                        + (" (or no sides in these games)." if by == "side" else "."))
        else:
            col.altair_chart(rate_chart(frame, f"game · {by}", "n (decided)", f"results by {by}",
                                        ("wins", "losses"), "win rate"), width="stretch")
    with st.expander("Results: the numbers"):
        st.dataframe(over.drop("block"), hide_index=True, width="stretch",
                     column_config={"win_rate": PERCENT, "low": PERCENT, "high": PERCENT})
        for by in ("seat", "side"):
            st.dataframe(_results_frame(pl.from_arrow(prof[f"by_{by}"]), by).drop("low", "high"),
                         hide_index=True, width="stretch",
                         column_config={"rate": PERCENT, "population_rate":
                                        st.column_config.NumberColumn("population rate",
                                                                      format="percent")})


def tendencies_section(tendencies: dict[str, Any]) -> None:
    """Per catalog game played: the tendencies table and its chart."""
    st.subheader("Tendencies")
    st.caption("Per tendency (docs/decisions.md): how often the player did it (did) when the "
               "player could (could), the rate with its 95% Wilson interval, the rate of all "
               "players pooled and the player's percentile among players with enough "
               "opportunities — everyone's under the same filters. Each tendency is named as "
               "a player says it; its id is in the column's help and the chart's tooltip.")
    if not tendencies:
        st.caption("No tendency catalog for the games shown.")
    for g, table in tendencies.items():   # catalog game ids: from code, not the warehouse
        st.markdown(f"#### {ui.game_label(g)}")
        t = pl.from_arrow(table)
        if t.is_empty():
            st.caption("No opportunity for any tendency of this game in these filters.")
            continue
        about, named = pd_.descriptions(g), pd_.labels(g)
        frame = t.select(
            pl.col("tendency").replace_strict(named, default=pl.col("tendency")),
            pl.col("k").alias("did"), pl.col("n").alias("could"), "rate", "low",
            "high", _interval().alias("95% interval"), "population_rate", "percentile",
            pl.col("tendency").replace_strict(about, default="").alias("description"),
            pl.col("tendency").alias("id"))
        st.dataframe(frame.drop("low", "high", "id"), hide_index=True, width="stretch",
                     key=f"pl_tend_{g}",
                     column_config={"tendency": st.column_config.TextColumn(
                                        "tendency", help=_tendency_help(frame)),
                                    "rate": PERCENT,
                                    "population_rate": st.column_config.NumberColumn(
                                        "population rate", format="percent"),
                                    "percentile": st.column_config.NumberColumn(format="%.0f")})
        st.altair_chart(tendency_chart(frame, g), width="stretch")


def accuracy_section(game: str | None, scope: Scope) -> None:
    """The review's verdict on the player's decisions per game type beside everyone's, and
    the worst decisions, each opening the replay at that moment in the player's seat."""
    from engine.games import find_game
    from warehouse.reviews import MIN_GRADED

    st.subheader("Accuracy")
    rows = ui.load(pd_.accuracy, player, game, scope)
    if not rows:
        st.caption("No reviewed decision of the player in these filters: reviews are made by "
                   "`liujia ingest --review` (docs/review.md).")
        return
    st.caption("From the move review (docs/review.md): per game type, the decisions reviewed "
               "and graded (a grade withheld when the loss was too uncertain), the mean loss "
               "against the best candidate on the game's own scale with its 95% interval, and "
               "the share of mistakes and blunders with its Wilson interval — beside every "
               f"player's. Under {MIN_GRADED} graded decisions a figure is withheld (–).")
    frame = pl.DataFrame([{
        "game": ui.game_label(r["game"]), "scale": find_game(r["game"]).review_scale.unit,
        "reviewed": r["reviewed"], "graded": r["graded"], "mean loss": r["mean_loss"],
        "95% interval": "–" if r["loss_low"] is None
        else f"{r['loss_low']:.3f} to {r['loss_high']:.3f}",
        "everyone's mean loss": r.get("population_mean_loss"),
        "mistakes and blunders": r["bad_rate"],
        "95% interval ": ui.interval_text(r["bad_low"], r["bad_high"]),
        "everyone's share": r.get("population_bad_rate"), "blunders": r["blunders"],
        "flags": r["flags"]} for r in rows],
        schema_overrides={"mean loss": pl.Float64, "everyone's mean loss": pl.Float64,
                          "mistakes and blunders": pl.Float64, "everyone's share": pl.Float64})
    st.dataframe(frame, hide_index=True, width="stretch", key="pl_accuracy",
                 column_config={"mistakes and blunders": PERCENT, "everyone's share": PERCENT,
                                "mean loss": st.column_config.NumberColumn(format="%.3f"),
                                "everyone's mean loss": st.column_config.NumberColumn(
                                    format="%.3f")})
    bad = ui.load(pd_.worst, player, game, scope)
    if not bad:
        st.caption("No graded inaccuracy, mistake or blunder.")
        return
    st.markdown("**Worst decisions**")
    st.dataframe(pl.DataFrame([{
        "started": r["started"], "game": ui.game_label(r["game"]), "game id": r["game_id"],
        "seq": r["seq"], "grade": r["grade"], "loss": r["loss"], "± se": r["loss_se"],
        "chosen": r["chosen"], "better": r["best"],
        "replay": f"./replay?game={quote(r['game_id'])}&step={r['seq']}&view={int(r['seat'])}"}
        for r in bad]), hide_index=True, width="stretch", key="pl_worst",
        column_config={"replay": st.column_config.LinkColumn("replay", display_text="open"),
                       "loss": st.column_config.NumberColumn(format="%.3f"),
                       "± se": st.column_config.NumberColumn(format="%.3f")})


def partners_section(partners: pl.DataFrame) -> None:
    """Each teammate and opposite with n games, wins and the win rate's interval."""
    st.subheader("Partnerships")
    st.caption("The player's results with each other player as a teammate (same side) and as "
               "the opposite (对门); n is the number of games together, the win rate is over "
               "the decided ones (a draw counts neither way).")
    if partners.is_empty():
        st.caption("No teammate or opposite in these games (a game without sides).")
        return
    st.dataframe(partners.rename({"games": "n"}), hide_index=True, width="stretch",
                 column_config={"win_rate": st.column_config.NumberColumn(
                                    "win rate", format="percent"),
                                "low": PERCENT, "high": PERCENT})


def games_section(listed: pl.DataFrame, games: int) -> None:
    """The player's latest games with the result and a replay link."""
    st.subheader("Games")
    listed = listed.with_columns(
        pl.struct("winning_side", "winners").map_elements(
            lambda r: ui.result_label(r["winning_side"], r["winners"]),
            return_dtype=pl.String).alias("winner"),
        pl.struct("game_id", "seat").map_elements(
            lambda r: f"./replay?game={quote(r['game_id'])}&view={int(r['seat'])}",
            return_dtype=pl.String).alias("replay"))
    ui.note(f"The latest {listed.height} of the {games:,} games in these filters (seat, side "
            f"and result: the player's) whose players match {player}.", "caption")
    st.dataframe(listed, hide_index=True, width="stretch",
                 column_config={"replay": st.column_config.LinkColumn("replay",
                                                                      display_text="open")})


# ---------------------------------------------------------------- the profile

base = ui.load(pd_.base, player)
record_all = pl.from_arrow(base["record_all"])
if record_all.is_empty():
    ui.note(f"No game of player {player} in the warehouse.", "info")
    st.stop()
game, scope = filters(record_all, base["span"])
if scope.since is not None and scope.until is not None and scope.since > scope.until:
    st.caption("The range is empty: From is after Until.")
prof = ui.load(pd_.profile, player, game, scope)
record = pl.from_arrow(prof["record"])
if record.is_empty():
    ui.note(f"No game of player {player} in these filters.", "info")
    st.stop()
n_games = int(record["games"].sum())
record_section(record, pl.from_arrow(prof["scores"]))
results_section(prof, game, scope, n_games)
tendencies_section(prof["tendencies"])
accuracy_section(game, scope)
partners_section(pl.from_arrow(prof["partnerships"]))
games_section(pl.from_arrow(prof["games"]), n_games)
