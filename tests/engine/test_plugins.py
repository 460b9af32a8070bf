"""Games registered at run time: ``engine.games.register`` and the ``LIUJIA_GAMES`` plug-in
entries; a game registered after the rules texts and the tendency catalog were first read is
known to them too."""

from __future__ import annotations

import pytest

from engine import games as registry
from engine.errors import EngineError
from engine.games import GAMES, find_game, plugin_entries, register_plugins


def test_plugin_entries_parse_id_module_and_variant():
    assert plugin_entries(" a=tests.toygame , b=tests.engine.variant_pkg:a,,") == {
        "a": "tests.toygame", "b": "tests.engine.variant_pkg:a"}
    assert plugin_entries("") == {}
    for bad in ("toy", "toy=", "=tests.toygame", "to y=tests.toygame", "t=tests/toygame",
                "t=tests.toygame:a:b"):
        with pytest.raises(EngineError, match="LIUJIA_GAMES: entry"):
            plugin_entries(bad)


def test_register_plugins_reads_the_environment(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", dict(GAMES))
    monkeypatch.setenv("LIUJIA_GAMES", "toy_a=tests.engine.variant_pkg:a")
    assert register_plugins() == ["toy_a"]
    assert registry.GAMES["toy_a"] == "tests.engine.variant_pkg:a"
    assert registry.find_game("toy_a").GAME_ID == "toy_a"


def test_a_plugin_cannot_replace_a_game(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", dict(GAMES))
    with pytest.raises(EngineError, match="registered already"):
        register_plugins("keng=tests.toygame")


def test_an_entry_that_cannot_be_loaded_is_an_engine_error(monkeypatch):
    monkeypatch.setattr(registry, "GAMES", dict(GAMES))
    register_plugins("nope=tests.no_such_module,wrong=tests.toygame")
    with pytest.raises(EngineError, match="'nope' .*cannot be loaded: ModuleNotFoundError"):
        registry.find_game("nope")
    with pytest.raises(EngineError, match="not the declared Game of 'wrong'"):
        registry.find_game("wrong")


def test_a_game_registered_later_is_known_to_rules_and_tendencies(monkeypatch):
    from engine.rules_text import PREFIX_FILES, rule_text
    from warehouse import tendencies as T

    assert list(GAMES)[-1] == "toy_tricks"      # registered last: re-added, the same order
    before = T.catalog_key()
    monkeypatch.delitem(GAMES, "toy_tricks")
    assert "TRICK" not in PREFIX_FILES and rule_text("TRICK-8") is None
    assert not T.catalog("toy_tricks") and T.catalog_key() != before
    monkeypatch.setitem(GAMES, "toy_tricks", "tests.toygame")
    assert PREFIX_FILES["TRICK"] == ("tests.toygame", "rules.md")
    assert rule_text("TRICK-8").startswith("**TRICK-8** Follow suit")
    assert len(T.catalog("toy_tricks")) == len(find_game("toy_tricks").tendencies)
    assert T.catalog_key() == before


def test_what_is_known_of_a_game_without_loading_it_is_what_it_declares(monkeypatch):
    for gid in registry.BUILT_IN:
        g = find_game(gid)
        assert registry.about(gid) == (g.TITLE, g.RULE_PREFIX, g.RULES_FILE), gid
    assert set(registry.ABOUT) == set(registry.BUILT_IN)
    monkeypatch.setattr(registry, "GAMES", dict(GAMES))
    register_plugins("toy_a=tests.engine.variant_pkg:a")
    toy = find_game("toy_a")
    assert registry.about("toy_a") == (toy.TITLE, toy.RULE_PREFIX, toy.RULES_FILE)


def test_the_top_level_help_and_a_rule_load_no_game_arrow_or_duckdb():
    """`liujia --help` and `liujia rules` answer without loading a built-in game package,
    pyarrow, numpy or DuckDB (what made them take a second: docs/performance.md)."""
    import subprocess
    import sys
    code = ("import sys, contextlib, io\n"
            "from liujia.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as shown:\n"
            "    try:\n"
            "        main(sys.argv[1:])\n"
            "    except SystemExit:\n"
            "        pass\n"
            "assert 'liujia' in shown.getvalue() or 'KENG' in shown.getvalue()\n"
            "heavy = ('pyarrow', 'numpy', 'duckdb', 'pandas', 'engine.games.keng',\n"
            "         'engine.games.gouji', 'engine.games.ddz6', 'engine.games.liuhu',\n"
            "         'engine.games.modaoshuang')\n"
            "print(' '.join(sorted(m for m in sys.modules if m in heavy)))\n")
    for args in (["--help"], ["rules", "KENG-1"], ["rules", "--list"]):
        out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                             text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "", (args, out.stdout)
