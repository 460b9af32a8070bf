"""Terminal output obeys the auditor, not the log: text from a log (game and player ids,
payload text, reasons quoting them) and file names reach the terminal with every control,
escape sequence, bidi override and invisible format character escaped (issue 9).

The hostile logs are simulated games with their ids changed and re-sealed, so the hash chain
verifies; whether the engine then calls the game ok or illegal (it refuses ids outside the id
alphabet), what is printed must be escaped. The commands run as the real CLI, in a subprocess,
so that a traceback or a raw byte would show."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from engine.events import seal_events
from engine.log import write_log
from engine.sim import simulate
from liujia.cli import main

ROOT = Path(__file__).resolve().parents[2]

# What a log may try: clear the screen, move the cursor, set the window title, recolour,
# a C1 CSI, DEL, backspace, carriage return and line feed, a right-to-left override and
# isolates, zero-width and BOM characters, a line separator.
HOSTILE = ("\x1b[2J\x1b[H" "\x1b]0;owned\x07" "\x1b[31m" "\x9b2J" "\x7f" "\x08" "\r\n"
           "\u202e" "\u2066" "\u2069" "\u200b" "\ufeff" "\u2028")
GAME_ID = "keng-evil" + HOSTILE + "gnp.exe"
FILE_NAME = "log\u202e\x1b[2Jgnp.arrows"


def raw_controls(text: str) -> list[str]:
    """The characters of text a terminal would act on or not show (a line feed is fine)."""
    bad = {c for c in text if c != "\n" and (
        unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp")
        or 0x202A <= ord(c) <= 0x202E or 0x2066 <= ord(c) <= 0x2069)}
    return sorted(f"U+{ord(c):04X}" for c in bad)


def hostile_game(seed: int = 7, gid: str = GAME_ID, end: bool = True) -> list:
    """A simulated 六人坑 game with hostile game and player ids (and a hostile payload
    string), re-sealed so that its hash chain verifies."""
    events = next(iter(simulate("keng", 1, seed=seed))).events
    if not end:
        events = events[:-1]
    p = json.loads(events[0].payload)
    p["players"] = [f"p{i}{HOSTILE}" for i in range(len(p["players"]))]
    p["session"] = "s" + HOSTILE
    start = events[0]._replace(payload=json.dumps(p))
    return seal_events(e._replace(game_id=gid, digest=b"") for e in [start, *events[1:]])


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hostile")
    write_log(d / FILE_NAME, [hostile_game()])
    return d / FILE_NAME


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The real command line in a subprocess writing strict UTF-8 (as in a UTF-8 locale);
    its output read as text, any undecodable byte kept as a surrogate."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "liujia", *args], cwd=cwd, env=env,
                          capture_output=True, timeout=120, encoding="utf-8",
                          errors="surrogateescape")


def assert_clean(r: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in r.stderr, r.stderr
    assert not raw_controls(r.stdout), (raw_controls(r.stdout), r.stdout[:2000])
    assert not raw_controls(r.stderr), (raw_controls(r.stderr), r.stderr[:2000])


def test_safe_text_escapes_what_a_terminal_acts_on():
    from liujia.commands._common import safe_lines, safe_text
    assert safe_text("keng-1-000001 六人坑 ♠♥ 10 x") == "keng-1-000001 六人坑 ♠♥ 10 x"
    assert safe_text("p52enil\u202e exe.png") == "p52enil\\u202e exe.png"
    assert safe_text("\x1b[2J\x9b\x7f\t\n") == "\\x1b[2J\\x9b\\x7f\\x09\\x0a"
    assert safe_text("a\u2066b\u2069\u200b\ufeff\u2028\U000e0041") == \
        "a\\u2066b\\u2069\\u200b\\ufeff\\u2028\\U000e0041"
    assert safe_text(os.fsdecode(b"bad\xff.arrows")) == "bad\\udcff.arrows"
    assert safe_text("\u3000全角") == "\u3000全角"          # an ideographic space is shown
    assert not raw_controls(safe_text(HOSTILE))
    assert safe_lines("seat 0\x1b[2J\nseat 1") == "seat 0\\x1b[2J\nseat 1"


def test_safe_json_is_json_with_nothing_raw():
    from liujia.commands._common import safe_json
    obj = {"game_id": GAME_ID, "file": os.fsdecode(b"bad\xff.arrows"), "title": "六人坑"}
    for indent in (None, 1):
        text = safe_json(obj, indent=indent)
        assert not raw_controls(text)
        assert json.loads(text) == obj          # lossless: the true id comes back
        assert "六人坑" in text                  # non-ASCII text stays readable


def test_validate_escapes_ids_file_names_and_reasons(hostile):
    r = cli("validate", str(hostile))
    assert r.returncode in (0, 1)
    assert_clean(r)
    assert "\\x1b[2J" in r.stdout and "\\u202e" in r.stdout
    assert r.stdout.count("\n") == 2            # one report line, one summary: no forged lines


def test_validate_json_is_escaped_and_lossless(hostile):
    r = cli("validate", "--json", str(hostile))
    assert r.returncode in (0, 1)
    assert_clean(r)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows and all(row["file"] == str(hostile) for row in rows)
    assert {row["game_id"] for row in rows} == {GAME_ID}


def test_validate_escapes_the_reports_of_damaged_files(hostile, tmp_path):
    data = hostile.read_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x55
    cut = data[: len(data) * 3 // 4]
    (tmp_path / ("flip" + FILE_NAME)).write_bytes(bytes(flipped))
    (tmp_path / ("cut" + FILE_NAME)).write_bytes(cut)
    write_log(tmp_path / ("open" + FILE_NAME), [hostile_game(end=False)])
    for args in ((), ("--json",)):
        r = cli("validate", *args, str(tmp_path))
        assert r.returncode == 1
        assert_clean(r)
        assert "\\u202e" in r.stdout


def test_validate_escapes_undecodable_file_names(hostile, tmp_path):
    d = os.fsencode(tmp_path)
    with open(os.path.join(d, b"bad\xff\x1b[2J.arrows"), "wb") as f:
        f.write(hostile.read_bytes())
    with open(os.path.join(d, b"junk\xfe.arrows"), "wb") as f:
        f.write(b"not a log \x1b[2J")
    for args in ((), ("--json",)):
        r = cli("validate", *args, str(tmp_path))
        assert r.returncode == 1
        assert_clean(r)
        assert "\\udcff" in r.stdout


def test_replay_and_position_escape_whatever_the_verdict(hostile):
    for cmd in (("replay", str(hostile), "--game", GAME_ID),
                ("replay", str(hostile), "--game", GAME_ID, "--step", "3", "--seat", "1"),
                ("position", str(hostile), "--game", GAME_ID, "--step", "3"),
                ("replay", str(hostile), "--game", "no-such" + HOSTILE)):
        r = cli(*cmd)
        assert r.returncode in (0, 1, 2), r
        assert_clean(r)


def test_shown_table_escapes_the_logs_strings_whole():
    """A player id with a line break cannot forge a line of the table: the log's own strings
    are escaped whole before the table's lines are."""
    from types import SimpleNamespace

    from liujia.commands.replay import shown_table
    start = hostile_game()[0]
    players = json.loads(start.payload)["players"]
    table = "\n".join([f"game {GAME_ID}"] + [f"  seat {i} {p}  7 cards"
                                             for i, p in enumerate(players)])
    out = shown_table(SimpleNamespace(events=[start]), table)
    assert not raw_controls(out)
    assert out.count("\n") == len(players)         # one line per seat, as rendered
    assert all("\\u202e" in line for line in out.splitlines())


def test_replay_escapes_the_rendered_table(hostile, monkeypatch, capsys):
    """Without the engine's id check (as before it existed), the table itself shows hostile
    ids: they are escaped whole, their line breaks too, the table's own lines kept."""
    import engine.games.common as common
    monkeypatch.setattr(common, "id_problem", lambda value: None, raising=False)
    monkeypatch.setattr(common, "_check_ids", lambda *a: None, raising=False)
    code = main(["replay", str(hostile), "--game", GAME_ID, "--step", "3"])
    cap = capsys.readouterr()
    assert not raw_controls(cap.out + cap.err), raw_controls(cap.out + cap.err)
    if code == 0:                               # the engine took the ids: the table shows them
        seats = [x for x in cap.out.splitlines() if "seat " in x and "\\u202e" in x]
        assert len(seats) == 6, cap.out         # each player id on its own seat's line
    code = main(["position", str(hostile), "--game", GAME_ID, "--step", "3"])
    cap = capsys.readouterr()
    assert not raw_controls(cap.out + cap.err)
    if code == 0:
        assert json.loads(cap.out)["game_id"] == GAME_ID    # the JSON keeps the true id
