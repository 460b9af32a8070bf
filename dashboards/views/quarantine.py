"""Quarantine page: games the ingest refused, with stage, code, rule id and reason; ingest runs."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards import data, ui

st.title("Quarantine")
totals = ui.require_warehouse()
st.caption("Every game read either lands in the warehouse or here, with the reason "
           "(file, seq, stage, error code, rule id).")

q = pl.from_arrow(ui.load(data.quarantine, 1000))
st.metric("quarantined games", f"{totals.get('quarantined', q.height):,}")
if q.is_empty():
    st.success("Nothing is quarantined.")
else:
    f1, f2 = st.columns(2)
    stages = sorted(s for s in q["stage"].unique().to_list() if s is not None)
    codes = sorted(c for c in q["code"].unique().to_list() if c is not None)
    stage = f1.selectbox("Stage", ["all", *stages], key="qu_stage")
    code = f2.selectbox("Error code", ["all", *codes], key="qu_code")
    shown = q
    if stage != "all":
        shown = shown.filter(pl.col("stage") == stage)
    if code != "all":
        shown = shown.filter(pl.col("code") == code)
    st.subheader("By stage and code")
    st.dataframe(q.group_by("stage", "code", "rule_id").len("games").sort("games",
                 descending=True), hide_index=True, width="stretch")
    st.subheader(f"Quarantined games ({shown.height})")
    st.dataframe(shown, hide_index=True, width="stretch")

st.subheader("Ingest runs")
runs = ui.load(data.ingest_runs, 50)
if runs.num_rows:
    st.dataframe(runs, hide_index=True, width="stretch")
else:
    st.caption("No ingest run recorded yet.")
