"""``liujia convert`` and the JSONL side of ``liujia validate`` / ``liujia ingest`` on the command
line: round trips on every game, damaged input, exit codes, one-line errors, escaped output."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from engine.games import GAMES
from engine.jsonl import write_jsonl
from engine.log import read_log
from liujia.cli import main
from tests.options import option_args


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("liujia: ") and "Traceback" not in err, err
    return lines[0]


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    """A sealed Arrow log of two simulated games of every registered game, from the CLI."""
    out = tmp_path_factory.mktemp("logs")
    found = {}
    for game in GAMES:
        opts = option_args(game, seats=3)
        d = out / game
        assert main(["simulate", "--game", game, "--games", "2", "--seed", "9", "--out", str(d),
                     "--quiet", *opts]) == 0
        (found[game],) = d.glob("*.arrows")
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_arrow_to_jsonl_to_gzip_and_back_is_identical(logs, game, tmp_path, capsys):
    src = logs[game]
    a, z, back = tmp_path / "a.jsonl", tmp_path / "a.jsonl.gz", tmp_path / "back.arrows"
    assert main(["convert", str(src), str(a)]) == 0
    assert main(["convert", str(a), str(z)]) == 0
    assert main(["convert", str(z), str(back)]) == 0
    out = capsys.readouterr().out
    assert "converted 2 game(s)" in out and "(jsonl.gz) ->" in out
    before, after = read_log(src), read_log(back)
    assert after.ok and [g.events for g in after.games] == [g.events for g in before.games]
    assert [g.final_digest for g in after.games] == [g.final_digest for g in before.games]
    assert back.read_bytes() == src.read_bytes()            # written game by game: same bytes
    assert gzip.decompress(z.read_bytes()) == a.read_bytes()
    assert main(["validate", str(a), str(z), "--quiet"]) == 0
    assert "2 file(s): 4 ok" in capsys.readouterr().out


def test_convert_refuses_damaged_input_and_writes_nothing(logs, tmp_path, capsys):
    a = tmp_path / "a.jsonl"
    assert main(["convert", str(logs["keng"]), str(a)]) == 0
    lines = a.read_text().splitlines()
    o = json.loads(lines[6])
    o["cards"] = ["RJ"]
    lines[6] = json.dumps(o)
    a.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    out = tmp_path / "b.arrows"
    assert main(["convert", str(a), str(out)]) == 1
    line = _one_line(capsys.readouterr().err)
    assert "not converted" in line and f"{a}:7" in line and "digest" in line
    assert not out.exists() and not list(tmp_path.glob(".*.part"))
    cut = tmp_path / "cut.arrows"
    cut.write_bytes(logs["keng"].read_bytes()[:-20])
    assert main(["convert", str(cut), str(tmp_path / "c.jsonl")]) == 1
    assert "unsealed" in _one_line(capsys.readouterr().err)
    assert not (tmp_path / "c.jsonl").exists()
    (tmp_path / "x.jsonl").write_text("hello\n")
    assert main(["convert", str(tmp_path / "x.jsonl"), str(out)]) == 1
    assert "not a liujia.jsonl file" in _one_line(capsys.readouterr().err)


def test_convert_usage_errors_are_one_line_exit_2(logs, tmp_path, capsys):
    src = str(logs["keng"])
    cases = [
        ([src, str(tmp_path / "a.txt")], "must be named"),
        ([str(tmp_path / "a.txt"), str(tmp_path / "a.jsonl")], "not a log file name"),
        ([str(tmp_path / "missing.arrows"), str(tmp_path / "a.jsonl")], "no such file"),
        ([src, str(tmp_path / "no" / "a.jsonl")], "no such folder"),
        ([src, src], "the input itself"),
    ]
    for argv, words in cases:
        assert main(["convert", *argv]) == 2, argv
        assert words in _one_line(capsys.readouterr().err)
    out = tmp_path / "a.jsonl"
    assert main(["convert", src, str(out)]) == 0
    assert main(["convert", src, str(out)]) == 2
    assert "--force" in _one_line(capsys.readouterr().err)
    out.write_text("old")
    assert main(["convert", src, str(out), "--force"]) == 0
    assert out.read_text().startswith('{"format": "liujia.jsonl/1"')


def test_validate_names_file_line_and_field(logs, tmp_path, capsys):
    a = tmp_path / "a.jsonl"
    assert main(["convert", str(logs["gouji"]), str(a)]) == 0
    lines = a.read_text().splitlines()
    n = len(lines) - 3                              # in the second game
    lines[n - 1] = lines[n - 1].replace('"seat": ', '"seat": "x", "was": ', 1)
    a.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert main(["validate", str(a)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{a}: ok ")
    assert out[1].startswith(f"{a}:{n}: corrupt ") and "field seat" in out[1]
    assert main(["validate", str(a), "--json"]) == 1
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert rows[1]["line"] == n and rows[1]["field"] == "seat" and rows[1]["code"] == "bad_field"


def test_unknown_fields_are_warnings_escaped_or_errors_with_strict(logs, tmp_path, capsys):
    a = tmp_path / "a.jsonl"
    write_jsonl(a, [g.events for g in read_log(logs["keng"]).games])
    lines = a.read_text().splitlines()
    lines[3] = lines[3][:-1] + ', "\\u001b]0;pwned\\u0007\\u202e": 1}'
    a.write_text("\n".join(lines) + "\n")
    assert main(["validate", str(a)]) == 0
    cap = capsys.readouterr()
    assert "warning" in cap.err and f"{a}:4" in cap.err
    assert "\x1b" not in cap.err + cap.out and "\u202e" not in cap.err + cap.out
    assert main(["validate", str(a), "--strict"]) == 1
    assert "unknown_field" in capsys.readouterr().out
    db = tmp_path / "w.duckdb"
    assert main(["ingest", str(a), "--db", str(db), "-q"]) == 0
    cap = capsys.readouterr()
    assert "2 loaded" in cap.out and "warning" in cap.err and "\x1b" not in cap.err
    assert main(["ingest", str(a), "--db", str(tmp_path / "s.duckdb"), "-q", "--strict"]) == 1
    assert "log/unknown_field" in capsys.readouterr().out
    assert main(["convert", str(a), str(tmp_path / "s.arrows"), "--strict"]) == 1
    assert "unknown_field" in _one_line(capsys.readouterr().err)
    assert main(["convert", str(a), str(tmp_path / "w.arrows")]) == 0
    assert "warning" in capsys.readouterr().err


def test_validate_and_ingest_find_jsonl_in_folders(logs, tmp_path, capsys):
    d = tmp_path / "in"
    d.mkdir()
    assert main(["convert", str(logs["liuhu"]), str(d / "a.jsonl.gz")]) == 0
    assert main(["convert", str(logs["ddz6_2v4"]), str(d / "b.jsonl")]) == 0
    capsys.readouterr()
    assert main(["validate", str(d), "--quiet"]) == 0
    assert "2 file(s): 4 ok" in capsys.readouterr().out
    assert main(["ingest", str(d), "--db", str(tmp_path / "w.duckdb"), "-q"]) == 0
    assert "4 game(s) read = 4 loaded" in capsys.readouterr().out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["validate", str(empty)]) == 2
    assert "*.jsonl" in _one_line(capsys.readouterr().err)
