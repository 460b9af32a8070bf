"""``liujia validate --salvage`` never writes through a symbolic link and never replaces a
file already in the salvage folder (hostile-tester findings 1 and 2); each failed before."""

from __future__ import annotations

import os

import pytest

from liujia.cli import main


@pytest.fixture(scope="module")
def cut(tmp_path_factory):
    """A log cut short: damaged, with an intact prefix to salvage."""
    out = tmp_path_factory.mktemp("sim")
    assert main(["simulate", "--games", "5", "--seed", "5", "--out", str(out), "--per-file",
                 "5", "--quiet"]) == 0
    data = next(out.glob("*.arrows")).read_bytes()
    return data[: int(len(data) * 0.7)]


def test_leftover_part_symlink_is_not_followed(cut, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    sym = tmp_path / "sym"
    sym.mkdir()
    (sym / "x.arrows").write_bytes(cut)
    os.symlink("../victim.txt", sym / ".x.salvaged.arrows.part")
    assert main(["validate", str(sym / "x.arrows"), "--salvage", str(sym)]) == 1
    capsys.readouterr()
    assert victim.read_text() == "precious"
    out = sym / "x.salvaged.arrows"
    assert out.is_file() and not out.is_symlink()
    assert not os.path.lexists(sym / ".x.salvaged.arrows.part")
    assert main(["validate", "--json", str(out)]) in (0, 1)


def test_existing_salvage_is_not_replaced(cut, tmp_path, capsys):
    (tmp_path / "keep.arrows").write_bytes(cut)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.salvaged.arrows").write_text("mine")
    (out / "keep-2.salvaged.arrows").write_text("mine too")
    assert main(["validate", str(tmp_path / "keep.arrows"), "--salvage", str(out)]) == 1
    err = capsys.readouterr().err
    assert (out / "keep.salvaged.arrows").read_text() == "mine"
    assert (out / "keep-2.salvaged.arrows").read_text() == "mine too"
    written = out / "keep-3.salvaged.arrows"
    assert written.is_file() and str(written) in err
    assert sorted(p.name for p in out.iterdir()) == [
        "keep-2.salvaged.arrows", "keep-3.salvaged.arrows", "keep.salvaged.arrows"]


def test_existing_symlink_at_target_is_not_replaced_or_followed(cut, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "keep.arrows").write_bytes(cut)
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "keep.salvaged.arrows")
    assert main(["validate", str(tmp_path / "keep.arrows"), "--salvage", str(out)]) == 1
    capsys.readouterr()
    assert victim.read_text() == "precious"
    assert (out / "keep.salvaged.arrows").is_symlink()
    assert (out / "keep-2.salvaged.arrows").is_file()
