"""``liujia check`` against hostile input (issue 9): impossible positions are refused with one
line naming the file and the field, exit 2; unreadable input is one line, exit 2; never a
traceback, never exit 1 (which means "illegal") for a broken input.

Each test is a finding of the hostile tester; each failed on the code before the fix.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine.events import event_to_json
from engine.games import find_game
from engine.sim import simulate
from liujia.cli import main
from tests.options import option_dict

ROOT = Path(__file__).resolve().parents[2]


def _state(game: str, pick, seed: int = 5, **opts):
    """The first state of a seeded self-play game for which pick(state) holds."""
    g = find_game(game)
    for sim in simulate(game, 3, seed, options=g.Options(**opts) if opts else None):
        s = g.initial_state(sim.events[0])
        for e in sim.events[1:]:
            s = g.apply(s, e)
            if pick(s):
                return g, s
    raise AssertionError("no such state")


def _write(tmp_path: Path, pos: dict, name: str = "pos.json") -> Path:
    f = tmp_path / name
    f.write_text(json.dumps(pos, ensure_ascii=False), encoding="utf-8")
    return f


def _refused(capsys, f: Path, action: str = '{"kind": "PASS", "seat": 1}') -> str:
    """Run check; assert exit 2 with one error line naming the file; return the line."""
    assert main(["check", "--position", str(f), "--action", action]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    lines = out.err.strip().splitlines()
    assert len(lines) == 1 and str(f) in lines[0] and "Traceback" not in out.err, out.err
    assert "seq -1" not in lines[0]
    return lines[0]


def _keng_play():
    return _state("keng", lambda s: s.phase == "play" and s.duel is None and s.pending == 0
                  and not s.drawn and s.seq > 40)


def test_a_keng_hand_of_500_aces_of_hearts_is_refused(tmp_path, capsys):
    g, s = _keng_play()
    pos = g.to_position(s)
    pos["hands"][s.to_act] = ["Ah"] * 500
    line = _refused(capsys, _write(tmp_path, pos),
                    json.dumps({"kind": "PLAY", "seat": s.to_act, "cards": ["Ah"]}))
    assert f"position field 'hands[{s.to_act}]': holds 500× Ah" in line
    assert "has 2 in all" in line


def test_seven_red_jokers_in_a_three_red_joker_deck_are_refused(tmp_path, capsys):
    g, s = _keng_play()
    pos = g.to_position(s)
    pos["hands"][(s.to_act + 1) % 6] += ["RJ"] * 7
    line = _refused(capsys, _write(tmp_path, pos))
    assert "× RJ" in line and "has 3 in all" in line


def test_a_gouji_hand_with_nine_big_jokers_is_refused(tmp_path, capsys):
    g, s = _state("gouji", lambda s: s.stage == "play" and s.top_seat >= 0 and not s.owed)
    pos = g.to_position(s)
    pos["hands"][s.to_act] = sorted(pos["hands"][s.to_act] + ["RJ"] * 9)
    line = _refused(capsys, _write(tmp_path, pos))
    assert f"position field 'hands[{s.to_act}]'" in line and "× RJ" in line
    assert "196-card 够级 pack" in line


def test_a_gouji_seat_both_locked_and_to_act_is_refused(tmp_path, capsys):
    g, s = _state("gouji", lambda s: s.stage == "play" and s.top_seat >= 0 and not s.owed
                  and not s.open_phase and s.rang_seat < 0)
    pos = g.to_position(s)
    pos["passed"] = sorted(set(pos["passed"]) | {s.to_act})
    answer = next(a for a in g.legal_actions(s) if a.kind == "PLAY")
    line = _refused(capsys, _write(tmp_path, pos), json.dumps(event_to_json(answer)))
    assert "position field 'passed'" in line or "position field 'to_act'" in line


def test_a_pending_draw_of_ten_to_the_thirty_is_refused(tmp_path, capsys):
    g, s = _state("keng", lambda s: s.phase == "play" and s.pending > 0)
    pos = g.to_position(s)
    pos["pending_draw"] = 10 ** 30
    line = _refused(capsys, _write(tmp_path, pos))
    assert "position field 'pending_draw': must be an integer from 0 to" in line
    assert "an integer of 31 digits" in line


@pytest.mark.parametrize("game", ["keng", "gouji", "modaoshuang"])
def test_a_position_of_two_players_is_refused(game, tmp_path, capsys):
    opts = option_dict(game, seats=3)
    g, s = _state(game, lambda s: s.seq > 30, **opts)
    pos = g.to_position(s)
    pos["players"] = pos["players"][:2]
    pos["hands"] = pos["hands"][:2]
    line = _refused(capsys, _write(tmp_path, pos))
    assert "position field 'players'" in line


@pytest.mark.parametrize("where", ["position", "action"])
def test_json_nested_a_thousand_levels_is_one_line_exit_2(where, tmp_path, capsys):
    deep = "[" * 1000 + "]" * 1000
    g, s = _keng_play()
    f = _write(tmp_path, g.to_position(s))
    if where == "position":
        f.write_text(deep, encoding="utf-8")
        line = _refused(capsys, f)
    else:
        assert main(["check", "--position", str(f), "--action", deep]) == 2
        line = capsys.readouterr().err.strip()
        assert line.startswith("liujia: --action") and "\n" not in line
    assert "nested too deeply" in line


def test_deep_json_is_not_a_traceback_in_a_real_process(tmp_path):
    """The installed command: exit 2 and one stderr line (a traceback exits 1, "illegal")."""
    f = tmp_path / "deep.json"
    f.write_text("{\"a\":" * 1000 + "1" + "}" * 1000, encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "liujia", "check", "--position", str(f),
                        "--action", "{}"], capture_output=True, text=True, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_a_binary_position_file_is_named(tmp_path, capsys):
    f = tmp_path / "game.bin"
    f.write_bytes(bytes(range(256)) * 4)
    line = _refused(capsys, f)
    assert "is not UTF-8 text" in line


@pytest.mark.parametrize(("field", "value", "says"), [
    ("seq", "eleven", "position field 'seq': must be an integer from 1 to 4294967295, got "
                      "'eleven'"),
    ("top", "garbage", "position field 'top': must be a JSON object, got 'garbage'"),
    ("seq", 0, "position field 'seq': must be an integer from 1"),
    ("hands", {"0": []}, "position field 'hands': must be a list of 6 values, one per seat, "
                         "got an object of 1 field"),
])
def test_position_errors_name_the_field_in_the_engines_words(field, value, says, tmp_path,
                                                             capsys):
    g, s = _keng_play()
    pos = g.to_position(s)
    pos[field] = value
    line = _refused(capsys, _write(tmp_path, pos))
    assert says in line
    assert "(field " not in line and "Traceback" not in line


def test_no_position_error_says_seq_minus_one(tmp_path, capsys):
    """Every kind of refusal of a gouji position: none carries the 'seq -1' of an event."""
    g, s = _state("gouji", lambda s: s.stage == "play" and s.owed)
    breaks = [("owed", [{"kind": "OUT", "seat": "x"}]), ("owed", [{"kind": "NOPE"}]),
              ("to_act", 9), ("stage", "bidding"), ("played", ["ZZ"])]
    for key, value in breaks:
        pos = g.to_position(s)
        pos[key] = value
        line = _refused(capsys, _write(tmp_path, pos))
        assert f"position field '{key}" in line, line


def test_a_foreign_game_or_a_control_character_is_quoted_escaped(tmp_path, capsys):
    g, s = _keng_play()
    pos = g.to_position(s)
    pos["game"] = "keng\x1b[2J"
    line = _refused(capsys, _write(tmp_path, pos))
    assert "\x1b" not in line and "position field 'game'" in line
    pos["game"] = "keng"
    pos["players"][0] = "evil\u202e\n"
    line = _refused(capsys, _write(tmp_path, pos))
    assert "\u202e" not in line and "players[0]" in line


@pytest.mark.parametrize("game", ["keng", "gouji", "modaoshuang"])
def test_a_legal_action_on_a_possible_position_still_works(game, tmp_path, capsys):
    opts = option_dict(game, seats=4)
    g, s = _state(game, lambda s: s.seq > 25 and bool(find_game(game).legal_actions(s)),
                  **opts)
    f = _write(tmp_path, g.to_position(s))
    a = random.Random(3).choice(g.legal_actions(s))
    assert main(["check", "--position", str(f), "--action", json.dumps(event_to_json(a))]) == 0
    out = capsys.readouterr().out
    assert out.startswith("legal\n")
    assert g.from_position(json.loads(out.split("\n", 1)[1])) == g.apply(s, a)
