"""Golden playthroughs of 够级: every event of seeded games, and the auditor's table after the
deal and after every round.

Regenerate after an intended change, then review the diff:
``.venv/bin/python -m tests.games.gouji.golden``
"""

from __future__ import annotations

from pathlib import Path

from engine.games import gouji
from engine.replay import Replay
from engine.sim import simulate
from tests.golden_files import write_golden

HERE = Path(__file__).parent / "golden"
CASES = {  # file name -> (seed, policy, options, games of the session)
    "greedy-seed5-two-games.txt": (5, "greedy", {}, 2),
    "random-seed3-record.txt": (3, "random", {"kaidian_effect": "record"}, 1),
}
SHOW_TABLE_AFTER = ("DEAL", "ROUND_END", "GAME_END")


def playthrough(seed: int, policy: str, options: dict, games: int) -> str:
    """The text of the first games of a seeded session: each event, tables at round ends."""
    out = []
    for game in simulate("gouji", games, seed, policy_name=policy,
                         options=gouji.GoujiOptions(**options)):
        rep = Replay(game.events)
        for e, s in zip(rep.events, rep.states(), strict=True):
            line = e.describe()
            if e.kind == "DEAL":
                line = line.split(" DEAL ")[0] + f" DEAL ({len(e.cards)} cards) value {e.value}"
            out.append(f"=== {line}")
            if e.kind in SHOW_TABLE_AFTER:
                out.append(gouji.GAME.render(s))
    return "\n".join(out) + "\n"


def main() -> None:
    """Write every golden file."""
    write_golden(HERE, CASES, playthrough)


if __name__ == "__main__":
    main()
