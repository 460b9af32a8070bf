"""The styles ``liujia demo`` plants are found by the analysis (docs/demo.md): a small demo-like
corpus — the demo's players with the demo's styles (``PLAYER_STYLES``, everyone else
``UNSTYLED``), each game's demo option sets — is simulated, loaded with ``liujia ingest``
and read back with ``liujia stats --player P --json``. Every row of docs/demo.md's table of
planted tendencies must show: the styled player's 95% interval excludes the population's rate,
on the documented side; and the unstyled players, pooled, sit near the population.

The corpus seats the players anew for every game (sessions of one game) so that each styled
player sits at about a quarter of the tables of even a small series."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pytest

from engine.games import find_game
from liujia.cli import main
from liujia.commands.demo import PLAYER_STYLES, UNSTYLED
from liujia.commands.simulate import write_games
from warehouse.db import SAFE_CONFIG
from warehouse.tendencies import catalog, figures

DOC = Path(__file__).resolve().parents[2] / "docs" / "demo.md"
SEED = 2026
# games of each game in the test corpus (split between its demo option sets)
GAMES = {"keng": 300, "gouji": 16, "modaoshuang": 150, "ddz6_3v3": 40, "ddz6_2v4": 40,
         "ddz6_zhengfan": 40, "liuhu": 16}
NEAR = 0.15          # the unstyled players, pooled, are this close to the population
ROW = re.compile(r"^\| (player-\d\d) \| (\w+) \| [^|`]*`(\w+)` \| `(\w+)\.(\w+)` \| "
                 r"(higher|lower) \|")


def planted() -> list[tuple[str, str, str, str, str]]:
    """(player, style, game, tendency, direction) of each row of docs/demo.md's table."""
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            player, style, game, game2, name, direction = m.groups()
            assert game == game2, line
            rows.append((player, style, game, f"{game}.{name}", direction))
    return rows


def test_the_documented_assignment_is_the_demos():
    rows = planted()
    assert rows, "docs/demo.md lists no planted tendency"
    assert {p: s for p, s, *_ in rows} == PLAYER_STYLES        # every style, as assigned
    assert UNSTYLED not in PLAYER_STYLES.values()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("demo-styles")
    logs = root / "logs"
    for game, n in GAMES.items():
        g = find_game(game)
        sets = g.DEMO.get("option_sets") or [{}]
        for k, opts in enumerate(sets):
            share = n // len(sets) + (k < n % len(sets))
            write_games(logs, game, share, SEED + 7919 * k, prefix="demo-", progress=False,
                        options=g.Options(**opts) if opts else None, policy_name=UNSTYLED,
                        player_policies=PLAYER_STYLES, session_games=1)
    db = root / "w.duckdb"
    assert main(["ingest", str(logs), "--db", str(db), "--quiet"]) == 0
    return db


def stats(db: Path, player: str, capsys) -> dict[str, dict]:
    """``liujia stats --player P --json``: the player's tendencies of every game, by name."""
    assert main(["stats", "--player", player, "--db", str(db), "--json"]) == 0
    return {r["tendency"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}


def _fmt(r: dict) -> str:
    return (f"{r['k']}/{r['n']} = {r['rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}] vs "
            f"population {r['population_rate']:.0%}")


def test_the_analysis_finds_every_planted_style(corpus, capsys):
    missed = []
    mine = {p: stats(corpus, p, capsys) for p in PLAYER_STYLES}
    for player, style, _, tendency, direction in planted():
        r = mine[player][tendency]
        pop = r["population_rate"]
        found = r["low"] > pop if direction == "higher" else r["high"] < pop
        if not found:
            missed.append(f"{player} ({style}) {tendency} not {direction}: {_fmt(r)}")
    assert not missed, "\n".join(missed)


def test_the_unstyled_players_sit_near_the_population(corpus):
    """The players no style was planted in, pooled, are near the population's rate in every
    tendency of the table (the population includes the styled players, so it is pulled a
    little their way)."""
    unstyled = sorted({f"player-{i:02d}" for i in range(24)} - set(PLAYER_STYLES))
    far = []
    with duckdb.connect(str(corpus), read_only=True, config=dict(SAFE_CONFIG)) as con:
        for tendency in sorted({t for *_, t, _ in planted()}):
            game = tendency.split(".")[0]
            rows = [r for r in figures(con, unstyled, catalog(game)).to_pylist()
                    if r["tendency"] == tendency]
            k, n = sum(r["k"] for r in rows), sum(r["n"] for r in rows)
            pop = rows[0]["population_rate"]
            if n and abs(k / n - pop) > NEAR:
                far.append(f"{tendency}: unstyled {k}/{n} = {k / n:.0%} vs {pop:.0%}")
    assert not far, "\n".join(far)
