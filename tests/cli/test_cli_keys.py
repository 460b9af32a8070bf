"""``liujia keys``, ``liujia sign``, ``simulate --sign`` and what ``validate`` says of a log's
signature and commitment, with the ``--require`` policy (issue 13)."""

from __future__ import annotations

import json
import os
import struct

import pytest

from engine.signing import SIG_END
from liujia.cli import main


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("LIUJIA_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _public(capsys) -> str:
    return capsys.readouterr().out.split("public key ")[1].split()[0]


def test_keys_new_list_trust(home, capsys):
    assert main(["keys", "list"]) == 0
    assert "no keys" in capsys.readouterr().out
    assert main(["keys", "new", "club-a"]) == 0
    public = _public(capsys)
    assert oct(os.stat(home / "keys" / "club-a.pem").st_mode & 0o777) == "0o600"
    assert main(["keys", "new", "club-a"]) == 2                   # never overwritten
    assert "exists already" in capsys.readouterr().err
    assert main(["keys", "trust", "bob", "ab" * 32]) == 0
    assert main(["keys", "trust", "bob", "cd" * 32]) == 2         # another key, same name
    assert main(["keys", "trust", "eve", "xyz"]) == 2
    assert main(["keys", "new", "../evil"]) == 2
    capsys.readouterr()
    assert main(["keys", "list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [x.split()[0] for x in out] == ["bob", "club-a"]
    assert public in out[1] and "(can sign)" in out[1] and "(can sign)" not in out[0]


def _simulate(out, *extra):
    assert main(["simulate", "--game", "keng", "--games", "3", "--seed", "2", "--out",
                 str(out), "--quiet", *extra]) == 0


def test_validate_reports_signature_commitment_and_policy(home, tmp_path, capsys):
    assert main(["keys", "new", "rec"]) == 0
    _simulate(tmp_path / "signed", "--sign", "rec")
    _simulate(tmp_path / "plain")
    capsys.readouterr()
    assert main(["validate", str(tmp_path / "signed"), str(tmp_path / "plain")]) == 0
    out = capsys.readouterr().out
    assert "signed by rec (key " in out and "trusted here); 3 game(s) as signed" in out
    assert out.count("deal as committed") == 6                      # every game, both files
    assert main(["validate", str(tmp_path / "plain"), "--require", "signed"]) == 1
    assert "refused     --require signed: the file is unsigned" in capsys.readouterr().out
    os.environ["LIUJIA_HOME"] = str(tmp_path / "elsewhere")       # a machine without the key
    assert main(["validate", str(tmp_path / "signed"), "--require", "trusted"]) == 1
    out = capsys.readouterr().out
    assert "NOT trusted here" in out and "--require trusted: the file is untrusted" in out
    assert main(["validate", str(tmp_path / "signed"), "--json"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert {r["signature"] for r in rows} == {"untrusted"}
    assert {r["commitment"] for r in rows} == {"verified"}


def test_a_forged_signed_file_fails_validation(home, tmp_path, capsys):
    assert main(["keys", "new", "rec"]) == 0
    _simulate(tmp_path / "s", "--sign", "rec")
    (path,) = (tmp_path / "s").iterdir()
    data = bytearray(path.read_bytes())
    (size,) = struct.unpack("<Q", bytes(data[-16:-8]))
    assert data.endswith(SIG_END)
    data[100] ^= 0xFF                                               # a byte of the stream
    path.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "BAD SIGNATURE" in out or "checksum" in out


def test_sign_signs_once_and_refuses_damaged_logs(home, tmp_path, capsys):
    assert main(["keys", "new", "rec"]) == 0
    _simulate(tmp_path / "p")
    capsys.readouterr()
    assert main(["sign", str(tmp_path / "p"), "--key", "rec"]) == 0
    assert "signed by rec" in capsys.readouterr().out
    assert main(["sign", str(tmp_path / "p"), "--key", "rec"]) == 1
    assert "signed already" in capsys.readouterr().out
    assert main(["sign", str(tmp_path / "p"), "--key", "nobody"]) == 2
    assert "no key 'nobody'" in capsys.readouterr().err
    assert main(["simulate", "--game", "keng", "--games", "1", "--out", str(tmp_path / "q"),
                 "--sign", "nobody", "--quiet"]) == 2
