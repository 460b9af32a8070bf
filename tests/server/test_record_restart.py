"""The recording service's restart: what its process imports, its recovery of many open games
(docs/record-server.md, "Limits"; the timing is a benchmark, tests/bench/record_restart.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_one_command_imports_only_what_it_needs():
    code = ("import sys\nfrom liujia.cli import main\n"
            "try:\n    main(['record-server', '--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in ('pandas', 'duckdb', 'streamlit', 'warehouse') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "record-server" in out and out.strip().endswith("[]"), out


def test_a_sealed_games_verdict_is_kept_while_its_file_is_the_same(tmp_path, monkeypatch):
    import liujia.server.store as store_mod
    from tests.server.test_record_server import HA, _game, client, wire

    events = _game("keng", commit=True)
    gid = events[0].game_id
    calls = []
    real = store_mod.file_verdict
    monkeypatch.setattr(store_mod, "file_verdict", lambda p: calls.append(p) or real(p))
    with client(tmp_path) as c:
        assert c.post("/v1/games", json=wire(events[0]), headers=HA).status_code == 201
        r = c.post(f"/v1/games/{gid}/batch", json={"events": [wire(e) for e in events[1:]]},
                   headers=HA)
        assert r.json()["acks"][-1]["sealed"]
        for _ in range(3):                              # status, a retry of GAME_END, status
            assert c.get(f"/v1/games/{gid}", headers=HA).json()["sealed"]
            assert c.post(f"/v1/games/{gid}/events", json=wire(events[-1]),
                          headers=HA).json()["duplicate"]
        assert len(calls) == 1
        sealed = tmp_path / "sealed" / f"{gid}.arrows"
        with open(sealed, "ab") as f:                   # another file: read and judged again
            f.write(b"x")
        r = c.get(f"/v1/games/{gid}", headers=HA)
        assert r.status_code == 500 and "does not verify" in r.json()["reason"]
        assert len(calls) == 2
