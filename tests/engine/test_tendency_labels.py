"""Every tendency of every registered game has a readable label (engine.tendency.Tendency.label):
what tables, charts and text show in place of its snake_case id, with the game's own term."""

from __future__ import annotations

import re

import pytest

from engine.games import GAMES, find_game
from engine.tendency import ALWAYS, LABEL_MAX, Tendency

CJK = re.compile(r"[\u3400-\u9fff]+")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_tendency_has_a_label(game: str) -> None:
    catalog = find_game(game).tendencies
    assert catalog, f"{game} declares no tendency"
    labels = [t.label for t in catalog]
    for t in catalog:
        assert isinstance(t.label, str) and t.label.strip() == t.label != "", t.name
        assert t.label != t.name and t.label != t.name.replace("_", " "), \
            f"{game}.{t.name}: the label only repeats the id"
        assert len(t.label) <= LABEL_MAX, t.name
    assert len(set(labels)) == len(labels), f"{game}: two tendencies read the same"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_labels_carry_the_games_term(game: str) -> None:
    """A description that opens with the game's term ("叠加: stacks …") has it in the label;
    one that names a Chinese term anywhere has one in the label too."""
    for t in find_game(game).tendencies:
        head = t.description.split(":", 1)[0]
        if ":" in t.description and CJK.fullmatch(head):
            assert head in t.label, f"{game}.{t.name}: {t.label!r} lacks {head}"
        if CJK.search(t.description):
            assert CJK.search(t.label), f"{game}.{t.name}: {t.label!r} has no Chinese term"


def test_keng_stacks_reads_as_a_player_says_it() -> None:
    stacks = {t.name: t for t in find_game("keng").tendencies}["stacks"]
    assert stacks.label == "stacks a draw (叠加)"


def test_a_label_is_required_and_one_line() -> None:
    with pytest.raises(TypeError):
        Tendency("x", "x", ALWAYS, ALWAYS)   # type: ignore[call-arg]
    for bad in ("", " padded", "two\nlines", "x" * (LABEL_MAX + 1)):
        with pytest.raises(ValueError, match="label"):
            Tendency("x", "x", ALWAYS, ALWAYS, label=bad)
    assert Tendency("x", "x", ALWAYS, ALWAYS, label="does x (叉)").label == "does x (叉)"
