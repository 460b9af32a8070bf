"""``liujia check`` caps what it reads (finding 3) and names an over-long number plainly
(finding 4); each failed before."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

from liujia.cli import main

ROOT = Path(__file__).resolve().parents[2]
ACTION = '{"kind":"PASS","seat":0}'


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    def limit() -> None:                       # before the fix: MemoryError, not forever
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    return subprocess.run([sys.executable, "-m", "liujia.cli", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, preexec_fn=limit)


def test_dev_zero_position_and_action_are_refused():
    for args, name in ((("--position", "/dev/zero", "--action", ACTION), "position /dev/zero"),
                       (("--position", "/dev/null", "--action", "@/dev/zero"),
                        "--action file /dev/zero")):
        r = _cli("check", *args)
        assert r.returncode == 2, r.stderr
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and name in lines[0] and "larger than 16 MiB" in lines[0], \
            r.stderr


def test_big_position_file_is_refused(tmp_path, capsys):
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (16 << 20) + b"{}")
    assert main(["check", "--position", str(big), "--action", ACTION]) == 2
    err = capsys.readouterr().err
    assert "larger than 16 MiB: not a position" in err and str(big) in err
    assert len(err.strip().splitlines()) == 1


def test_file_of_exactly_the_limit_is_read(tmp_path, capsys):
    f = tmp_path / "pos.json"
    f.write_bytes(b"{}" + b" " * ((16 << 20) - 2))
    assert main(["check", "--position", str(f), "--action", ACTION]) == 2
    err = capsys.readouterr().err
    assert "larger than" not in err and "'game'" in err


def test_number_of_too_many_digits(tmp_path, capsys):
    f = tmp_path / "pos.json"
    f.write_text(json.dumps({"game": "x"})[:-1] + ', "seq": ' + "9" * 5000 + "}")
    assert main(["check", "--position", str(f), "--action", ACTION]) == 2
    err = capsys.readouterr().err
    assert "a number of more than 4300 digits" in err, err
    assert "set_int_max_str_digits" not in err
