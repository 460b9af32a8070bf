"""Golden playthroughs: a text rendering of every event and state of seeded 摸到爽 games.

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.games.modaoshuang.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import modaoshuang as mds
from engine.replay import Replay
from tests.games.modaoshuang.conftest import playout
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (seed, policy, options)
    "random-3p-seed7.txt": (7, "random", {"mds_players": 3}),
    "greedy-5p-seed11-alt-options.txt": (11, "greedy", {
        "mds_players": 5, "mds_hand_size": 4, "mds_zhamo": False, "mds_settlement": "chips",
        "mds_joker_violation": "illegal", "mds_one_card_report": True,
        "mds_dianpao": "preceding"}),
}


def playthrough(seed: int, policy: str, options: dict) -> str:
    """The text of one seeded game: each event, then the auditor's table after it."""
    events, _ = playout(seed, options, policy, game_id=f"golden-{seed}")
    rep = Replay(events)
    out = []
    for e, s in zip(rep.events, rep.states(), strict=True):
        out.append(f"=== {e.describe()}" if e.kind != "GAME_START" else
                   f"=== seq 0 GAME_START first leader {e.value} ({e.tag})")
        if e.kind not in ("GAME_START", "DEAL"):
            out.append(mds.GAME.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
