"""The examples of docs/lake.md, run as written against a lake this test builds: each reader
(DuckDB, Polars, Dask dataframes, Spark where PySpark is installed) must find the rows liujia
finds through its own reader."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from engine.log import write_log
from engine.sim import simulate
from ingest.lake import build_lake
from warehouse.db import reader

DOC = Path(__file__).resolve().parents[2] / "docs" / "lake.md"


def examples() -> list[str]:
    """The ```python blocks of docs/lake.md, in order."""
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.fixture(scope="module")
def lake(tmp_path_factory):
    root = tmp_path_factory.mktemp("readers")
    write_log(root / "keng.arrows", [g.events for g in simulate("keng", 4, seed=31)])
    write_log(root / "gouji.arrows", [g.events for g in simulate("gouji", 2, seed=32)])
    build_lake([root / "keng.arrows"], root / "lake", progress=False)
    build_lake([root / "gouji.arrows"], root / "lake", progress=False)   # two runs of files
    return root / "lake"


def _run(lake: Path, block: int) -> dict:
    scope: dict = {"lake": str(lake)}
    exec(examples()[0], scope)          # lake_files
    exec(examples()[block], scope)
    return scope


def _sql(lake: Path, sql: str) -> list[tuple]:
    with reader(lake) as con:
        return [tuple(r) for r in con.execute(sql).fetchall()]


def test_the_doc_has_the_five_examples():
    blocks = examples()
    assert len(blocks) == 5
    assert [("duckdb" in b, "polars" in b, "dask" in b, "pyspark" in b) for b in blocks[1:]] \
        == [(True, False, False, False), (False, True, False, False),
            (False, False, True, False), (False, False, False, True)]


def test_duckdb(lake):
    got = _run(lake, 1)["by_kind"]
    assert got == _sql(lake, "SELECT kind, count(*) FROM events GROUP BY kind ORDER BY kind")


def test_polars(lake):
    got = _run(lake, 2)["wins"].rows()
    assert got == _sql(lake, "SELECT g.game, s.result, count(*) FROM seats s JOIN games g "
                             "USING (game_id) GROUP BY ALL ORDER BY 1, 2")


def test_dask(lake):
    got = _run(lake, 3)["per_game"]
    assert list(got.items()) == _sql(lake, "SELECT game, count(*) FROM decisions "
                                           "GROUP BY game ORDER BY game")


@pytest.mark.skipif(importlib.util.find_spec("pyspark") is None,
                    reason="PySpark is not installed (it needs a JDK; liujia does not ship it)")
def test_spark(lake):
    got = [(r[0], r[1]) for r in _run(lake, 4)["top"]]
    assert got == _sql(lake, "SELECT fact, sum(count) FROM facts GROUP BY fact ORDER BY fact")
