"""Golden playthroughs: a text rendering of every event and state of seeded 扑克六湖 hands.

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.games.liuhu.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import liuhu as lh
from engine.replay import Replay
from tests.games.liuhu.conftest import playout
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (seed, policy, options)
    "greedy-seed2-default.txt": (2, "greedy", {}),
    "greedy-seed5-groups5-hunzi.txt": (5, "greedy", {"groups": 5, "hunzi": 1, "decks": 3,
                                                     "chi_card": "any", "min_hu": 6}),
}


def playthrough(seed: int, policy: str, options: dict) -> str:
    """The text of one seeded hand: each event, then the auditor's table after the moves."""
    events, _ = playout(seed, options, policy, game_id=f"golden-{seed}")
    rep = Replay(events)
    out = []
    for e, s in zip(rep.events, rep.states(), strict=True):
        out.append(f"=== {e.describe()}" if e.kind != "GAME_START" else
                   f"=== seq 0 GAME_START hand {e.value} dealer {e.target} ({e.tag})")
        if e.kind not in ("GAME_START", "DEAL", "DRAW", "WINDOW"):
            out.append(lh.GAME.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
