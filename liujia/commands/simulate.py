"""``liujia simulate``: seeded self-play games written as sealed Arrow event logs."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engine.cheats import AnswerKey, Plant, parse_plant
from engine.errors import EngineError, IllegalMove
from engine.games import GAMES, find_game
from engine.log import LogWriter
from engine.sim import options_tag, player_pool, simulate
from liujia.commands._common import fail, make_part, safe_text

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

DEFAULT_GAME = next(iter(GAMES))      # the registry's first game
DEFAULT_POLICY = "random"


class PolicyNames:
    """Every policy name any registered game's ``POLICIES`` offers, as ``--policy`` choices:
    the games are loaded only when argparse checks a value or writes the help."""

    def _names(self) -> list[str]:
        return sorted({name for game in GAMES for name in find_game(game).POLICIES})

    def __contains__(self, name: object) -> bool:
        return name in self._names()

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


def policy_error(game: str, name: str) -> str | None:
    """None if the game offers this policy, else the one-line usage error naming its own."""
    offered = find_game(game).POLICIES
    if name in offered:
        return None
    return (f"--policy {name!r}: {game} has no such policy; its policies are "
            f"{', '.join(sorted(offered))}")


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register the sub-command."""
    p = sub.add_parser("simulate", help="play seeded self-play games and write Arrow event logs",
                       description="Play seeded self-play games and write them as sealed Arrow "
                       "event logs. The same seed and options give byte-identical files.")
    p.add_argument("--game", default=DEFAULT_GAME, choices=sorted(GAMES),
                   help=f"game id (default {DEFAULT_GAME})")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the one random generator")
    p.add_argument("--out", required=True, help="output folder (created if missing)")
    p.add_argument("--policy", default=DEFAULT_POLICY, choices=PolicyNames(),
                   metavar="POLICY",
                   help="bot policy of every seat, one of the chosen game's POLICIES "
                   "(random and greedy for every game; some games have more, listed when a "
                   "name is wrong) (default random)")
    p.add_argument("--session-games", type=int, default=None,
                   help="games per session with the same players (default: the game's own "
                   "length of a session, e.g. a `hands` option, else 8)")
    p.add_argument("--per-file", type=int, default=1000, help="games per log file (default 1000)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="house-rule option of the game (one of its Options, e.g. a hand size "
                   "or a required number of players); repeatable; the game's options are "
                   "listed when a name is wrong")
    p.add_argument("--plant", action="append", default=[], metavar="KIND:PLAYER[,PLAYER]:RATE",
                   help="a planted cheater (docs/fair-play.md): omniscient:player-03:0.3 "
                   "plays 30%% of its decisions with every card face up; "
                   "soft:player-03,player-07:1 never answers its accomplice when it could; "
                   "repeatable; planted players sit at every table; needs --answer-key")
    p.add_argument("--answer-key", metavar="FILE", default=None, help="where the planted "
                   "cheats are written (JSON lines), apart from the logs, which hold nothing "
                   "of them")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--no-commit", action="store_true", help="do not commit to each game's "
                   "deal in GAME_START (and reveal the salt in GAME_END), as logs of liujia "
                   "0.2 were written")
    p.add_argument("--sign", metavar="KEY", default=None, help="sign each file with this "
                   "recorder key (`liujia keys new KEY`)")
    return p


def _options(game: str, pairs: list[str]) -> object:
    mod = find_game(game)
    names = [f.name for f in fields(cast("type[DataclassInstance]", mod.Options))]
    given: dict[str, object] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep:
            raise EngineError(f"--option {pair!r}: expected NAME=VALUE")
        if name not in names:
            raise EngineError(f"--option {pair!r}: {game} has no option {name!r}; its options "
                              f"are {', '.join(names)}")
        if name in given:
            raise EngineError(f"--option {pair!r}: {name} is given twice")
        try:
            given[name] = json.loads(raw)
        except json.JSONDecodeError:
            given[name] = raw
    try:
        return mod.Options(**given)
    except IllegalMove as exc:     # the rule of the options (KENG-6, GJ-48, MDS-7) and why
        raise EngineError(f"--option: {exc.rule_id}: {exc.reason}") from None


def write_games(
    out: Path, game: str, games: int, seed: int, *, per_file: int = 1000, prefix: str = "",
    policy_name: str = "random", options: object = None, session_games: int = 8,
    progress: bool = True, signer: Any = None, commit: bool = True,
    player_policies: Mapping[str, str] | None = None, plants: Sequence[Plant] = (),
    key: AnswerKey | None = None,
) -> tuple[list[Path], int]:
    """Simulate seeded games into sealed logs of per_file games each; (files, events). A run
    that fails or is interrupted leaves the file it was writing unsealed, as a killed one does
    (``liujia validate`` reports it), never sealed as if it were whole. ``player_policies``:
    the players who play by another policy or a style (``engine.sim.simulate``)."""
    out.mkdir(parents=True, exist_ok=True)
    tag = options_tag(game, options)
    writer: LogWriter | None = None
    files: list[Path] = []
    events = 0
    from tqdm import tqdm
    bar = tqdm(total=games, unit="game", disable=not progress, desc=f"simulate {game}")
    try:
        for i, g in enumerate(simulate(game, games, seed, options=options,
                                       policy_name=policy_name, session_games=session_games,
                                       commit=commit, player_policies=player_policies,
                                       plants=plants, key=key)):
            if i % per_file == 0:
                if writer is not None:
                    writer.close()
                path = out / f"{game}{tag}-{prefix}seed{seed}-{i // per_file:04d}.arrows"
                writer = LogWriter(path, signer)
                files.append(path)
            cast(LogWriter, writer).write_game(g.events)    # the first game opened one
            events += len(g.events)
            bar.update()
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        bar.close()
    return files, events


def write_key(path: Path, key: AnswerKey) -> None:
    """The answer key, written to a temporary file made afresh beside the target (never
    through a link, ``make_part``) and renamed over it: a run that fails leaves no half key."""
    tmp = path.with_name(f".{path.name}.part")
    make_part(tmp)
    fd = os.open(tmp, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        key.write(f)
    os.replace(tmp, path)                 # replaces a link itself, never its target


def session_length(game: str, options: Any) -> int:
    """Games of a session by default: the game's ``session_length(options)`` when it has one
    (e.g. the hands of a game, LH-68), else 8."""
    g = find_game(game)
    hook = g.session_length
    return int(hook(options if options is not None else g.Options())) if hook is not None else 8


def run(args: argparse.Namespace) -> int:
    """Simulate and write the logs."""
    if args.games < 1 or args.per_file < 1 or (args.session_games or 1) < 1:
        return fail("--games, --per-file and --session-games must be at least 1")
    problem = policy_error(args.game, args.policy)
    if problem:
        return fail(problem)
    try:
        opts = _options(args.game, args.option)
    except EngineError as exc:
        return fail(str(exc))
    try:
        plants = tuple(parse_plant(spec, player_pool()) for spec in args.plant)
    except EngineError as exc:
        return fail(str(exc))
    if bool(plants) != (args.answer_key is not None):
        return fail("--plant and --answer-key go together: the planted cheats are written "
                    "to the answer key only")
    key = AnswerKey(args.game, args.seed, plants) if plants else None
    out = Path(args.out)
    session_games = args.session_games or session_length(args.game, opts)
    signer = None
    if args.sign is not None:
        from liujia.keys import KeyProblem, load_key
        try:
            signer = load_key(args.sign)
        except KeyProblem as exc:
            return fail(f"--sign: {exc}")
    try:
        files, events = write_games(out, args.game, args.games, args.seed,
                                    per_file=args.per_file, policy_name=args.policy,
                                    options=opts, session_games=session_games,
                                    progress=not args.quiet, signer=signer,
                                    commit=not args.no_commit, plants=plants, key=key)
        if key is not None:
            write_key(Path(args.answer_key), key)
    except EngineError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot write logs to {out}: {exc.strerror or exc}; the file being written "
                    "is left unsealed (liujia validate reports it), the same command writes it "
                    "again")
    print(safe_text(f"wrote {args.games} games, {events} events, to {len(files)} file(s) in "
                    f"{out}"))
    return 0
