"""One log file's verdict, the same for ``liujia validate``, ``liujia ingest``, ``liujia audit``
and the recording service: the file read (seal, torn tail, format), its signature against the
reader's policy, and per game the event chain, the replay (``engine.replay.fold``), the
session link to the previous game, the dealer's commitment, and an engine bug caught.

Each caller words the verdict its own way (a validate row, a quarantine record, an audit
check, a refusal); what is wrong and in which order it is decided is decided here only:
chain, then replay, then the commitment over the session link (a game refused for both is
refused for its commitment).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from engine import commit
from engine.errors import EngineError, IllegalMove, InvalidEvent, LogIntegrityError
from engine.events import Event
from engine.jsonl_reader import read_any
from engine.log import GameLog, LateEvent, LogRead, NotALog, read_log
from engine.log_stream import StreamEnd, stream_log
from engine.replay import Observer, Verdict, fold, game_module
from engine.signing import Signature, signature_state, signature_text

T = TypeVar("T")

REQUIRE = ("none", "signed", "trusted")


@dataclass
class GameVerdict:
    """One game's verdict: ``status`` ok, corrupt (chain or commitment), illegal (a rule, or
    the session link), incomplete, or error (the engine failed: a bug); ``code`` says which
    (the quarantine code: a chain's code, illegal, invalid_event, incomplete, replay_error,
    commitment, engine_error; '' when ok); ``error`` the one-line reason as an exception."""

    game_id: str
    events: Sequence[Event]
    status: str = "ok"
    code: str = ""
    error: BaseException | None = None
    replay: Verdict | None = None           # the fold's verdict (None: not replayed)
    commitment: commit.CommitStatus | None = None
    session: IllegalMove | None = None      # the session link's break, if any
    previous_game: str | None = None        # the previous game named, when not at hand

    @property
    def ok(self) -> bool:
        """True when nothing is wrong with the game."""
        return self.status == "ok"


@dataclass
class FileVerdict:
    """One file's verdict: ``unreadable`` (no log at all: not a log, or a file-level
    integrity error), else its problems (damaged, torn), its signature and the policy's
    ``refusal`` (a bad signature or an unsigned / untrusted file refused), and its games."""

    path: Path
    log: LogRead | None = None
    unreadable: LogIntegrityError | None = None
    problems: list[LogIntegrityError] = field(default_factory=list)
    signature: str = "unsigned"             # signature_state
    signature_text: str = "unsigned"        # the signature in words (signature_text)
    refusal: LogIntegrityError | None = None
    games: list[GameVerdict] = field(default_factory=list)
    stream: StreamEnd | None = None         # read as a stream (``stream_verdict``): the
    #                                       # file's facts; its games were handed on


def signature_policy(sig: Signature | None, trusted: Any, require: str
                     ) -> tuple[str, str, LogIntegrityError | None]:
    """(state, words, refusal) of a file's signature under ``require`` (none, signed,
    trusted: signed by one of ``trusted`` key ids): a bad signature is always refused."""
    state = signature_state(sig, trusted)
    text, _ = signature_text(sig, trusted) if isinstance(trusted, dict) else (state, state)
    refusal = None
    if state == "bad":
        assert sig is not None
        refusal = LogIntegrityError("bad_signature", "the file's signature does not match it: "
                                    + "; ".join(sig.problems))
    elif (require == "signed" and state == "unsigned") or \
            (require == "trusted" and state != "trusted"):
        who = f" (key {sig.key_id})" if sig is not None else ""
        refusal = LogIntegrityError(state, f"--require {require}: the file is {state}{who}")
    return state, text, refusal


def replay_code(v: Verdict) -> str:
    """The code of a replay that is not ok: incomplete, illegal, invalid_event or
    replay_error."""
    if v.status == "incomplete":
        return "incomplete"
    if isinstance(v.error, IllegalMove):
        return "illegal"
    if isinstance(v.error, InvalidEvent):
        return "invalid_event"
    return "replay_error"


def previous_game(start: Event) -> str | None:
    """The previous game of its session a GAME_START names, if any."""
    try:
        prev = json.loads(start.payload or "{}").get("previous_game")
    except (ValueError, AttributeError):
        return None
    return prev if isinstance(prev, str) else None


def session_link(start: Event, previous_final: Any) -> IllegalMove | None:
    """The game's ``check_session`` (KENG-7 and the like) against the final state of
    the previous game of its session: the break, or None."""
    return game_module(start).check_session(start, previous_final)


def game_verdict(events: Sequence[Event], *, game_id: str | None = None,
                 chain: LogIntegrityError | None = None,
                 finals: MutableMapping[str, Any] | None = None,
                 observers: Sequence[Observer] = (), replay_broken: bool = False
                 ) -> GameVerdict:
    """One game's verdict from its (chain-verified) events: ``chain`` the break of its event
    chain (the game is then not replayed unless ``replay_broken``); ``finals`` (game id →
    final state, updated with this game's) links the games of a session; the observers watch
    the replay. Never raises for bad content."""
    gid = game_id if game_id is not None else events[0].game_id if events else ""
    gv = GameVerdict(gid, events)
    if chain is not None:
        gv.status, gv.code, gv.error = "corrupt", chain.code, chain
        if not replay_broken:
            return gv
    try:
        _replayed(gv, finals, observers, chain is None)
    except Exception as exc:  # noqa: BLE001 - an engine bug must not end the verdict
        gv.status, gv.code, gv.session = "error", "engine_error", None
        gv.error = engine_failure(exc)
    return gv


def engine_failure(exc: Exception) -> EngineError:
    """The error of a game on which the engine itself failed with ``exc`` (a bug)."""
    err = EngineError(f"the engine failed while replaying it ({type(exc).__name__}: {exc}); "
                      "please report this")
    err.__cause__ = exc                      # what failed, for a caller that reports it itself
    return err


def _replayed(gv: GameVerdict, finals: MutableMapping[str, Any] | None,
              observers: Sequence[Observer],
              judge: bool) -> None:
    """Replay the game, then its session link and its commitment (``judge``: the verdict's
    status is theirs)."""
    events = gv.events
    v = gv.replay = fold(events, observers)
    gv.commitment = commit.status(events)
    if not judge:
        return
    if v.status != "ok":
        gv.status, gv.code, gv.error = v.status, replay_code(v), v.error
        return
    prev = previous_game(events[0])
    if prev is not None and finals is not None and prev in finals:
        gv.session = session_link(events[0], finals[prev])
    elif prev is not None:
        gv.previous_game = prev
    if finals is not None:
        finals[gv.game_id] = v.state
    if not gv.commitment.ok:
        gv.status, gv.code = "corrupt", "commitment"
        gv.error = LogIntegrityError("commitment", gv.commitment.message, game_id=gv.game_id)
    elif gv.session is not None:
        gv.status, gv.code, gv.error = "illegal", "illegal", gv.session


def file_verdict(path: str | Path, *, finals: MutableMapping[str, Any] | None = None,
                 strict: bool = False, require: str = "none", trusted: Any = None,
                 observers: Sequence[Observer] = ()) -> FileVerdict:
    """The verdict of one log file (Arrow or liujia.jsonl; ``strict``: a JSONL field the
    format does not know breaks its game); ``finals`` links sessions (across files when
    shared); the observers watch the replays of the games the policy does not refuse. Raises
    OSError (and NotALog with code io) when the file cannot be read."""
    p = Path(path)
    log = _read(p, lambda: read_any(p, strict=strict))
    if isinstance(log, FileVerdict):
        return log
    sig = log.signature if isinstance(log, LogRead) else None
    out = _signed(p, log, sig, log.problems, trusted, require)
    finals = {} if finals is None else finals
    watch = observers if out.refusal is None else ()
    for g in log.games:
        out.games.append(game_verdict(g.events, game_id=g.game_id, chain=g.error,
                                      finals=finals, observers=watch))
    return out


class _Journal(MutableMapping[str, Any]):
    """The final states as a file's games see them, remembering what each change replaced so
    that the file's changes can be undone (the file is then read again whole)."""

    def __init__(self, finals: MutableMapping[str, Any]) -> None:
        self.finals = finals
        self.before: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        return self.finals[key]

    def __setitem__(self, key: str, value: Any) -> None:
        if key not in self.before:
            self.before[key] = self.finals.get(key, _Journal)
        self.finals[key] = value

    def __delitem__(self, key: str) -> None:
        self[key] = self.finals[key]                 # noted, then removed
        del self.finals[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.finals)

    def __len__(self) -> int:
        return len(self.finals)

    def __contains__(self, key: object) -> bool:
        return key in self.finals

    def undo(self) -> None:
        """Put back every state the file's games replaced (or removed)."""
        for key, value in self.before.items():
            if value is _Journal:
                self.finals.pop(key, None)
            else:
                self.finals[key] = value
        self.before.clear()


def stream_verdict(path: str | Path, on_game: Callable[[int, GameLog, GameVerdict], None], *,
                   finals: MutableMapping[str, Any] | None = None, require: str = "none",
                   trusted: Any = None) -> FileVerdict:
    """``file_verdict`` of an Arrow log read as a stream (``engine.log_stream``): each game's
    verdict goes to ``on_game(place, game, verdict)`` (place: the game's index in
    ``file_verdict``'s games) as soon as its game ended, and is not kept; the verdict returned
    has the file's facts (``stream``) and no games. A file that continues a game after it was
    handed on is read again whole: on_game then gets every game again, in order."""
    p = Path(path)
    finals = {} if finals is None else finals
    journal = _Journal(finals)

    def verdict(place: int, g: GameLog) -> None:
        on_game(place, g, game_verdict(g.events, game_id=g.game_id, chain=g.error,
                                       finals=journal))
    def read() -> StreamEnd:
        try:
            return stream_log(p, verdict, previous_game)
        except LateEvent:
            journal.undo()
            return _read_whole(p, verdict)
    end = _read(p, read)
    if isinstance(end, FileVerdict):
        return end
    return _signed(p, None, end.signature, end.problems, trusted, require, stream=end)


def _read(p: Path, read: Callable[[], T]) -> T | FileVerdict:
    """``read()``, or the verdict of a file that is no log or cannot be read as one (NotALog
    with code io, an I/O error, is raised)."""
    try:
        return read()
    except NotALog as exc:
        if exc.code == "io":
            raise
        return FileVerdict(p, unreadable=exc)
    except LogIntegrityError as exc:
        return FileVerdict(p, unreadable=exc)


def _signed(p: Path, log: LogRead | None, sig: Signature | None,
            problems: Sequence[LogIntegrityError], trusted: Any, require: str,
            stream: StreamEnd | None = None) -> FileVerdict:
    """The file's verdict without its games: its problems and its signature under the
    policy (``signature_policy``)."""
    state, text, refusal = signature_policy(sig, trusted if trusted is not None else {},
                                            require)
    return FileVerdict(p, log, problems=list(problems), signature=state,
                       signature_text=text, refusal=refusal, stream=stream)


def _read_whole(p: Path, verdict: Callable[[int, GameLog], None]) -> StreamEnd:
    """What ``stream_log`` gives, of the file read whole (``read_log``): every game handed on,
    in order."""
    log = read_log(p)
    for place, g in enumerate(log.games):
        verdict(place, g)
    return StreamEnd(p, log.problems, log.sealed, log.signature, len(log.games),
                     sum(g.error is not None for g in log.games),
                     sum(len(g.events) for g in log.games))
