"""Typed engine errors: every rejection names where it happened and why."""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class InvalidEvent(EngineError):
    """An event that is malformed: wrong kind, field, seat or card for its shape."""

    def __init__(self, message: str, *, game_id: str = "", seq: int = -1, field: str = "") -> None:
        self.game_id = game_id
        self.seq = seq
        self.field = field
        where = " ".join(p for p in (f"game {game_id}" if game_id else "",
                                     f"seq {seq}" if seq >= 0 else "") if p)
        text = f"{where}: {message}" if where else message
        super().__init__(text + (f" (field {field})" if field else ""))


class IllegalMove(EngineError):
    """A well-formed event that breaks a rule; carries the rule id and a one-line reason.

    ``rule_id`` is the most specific rule: why *this* seat may not do *this* now. ``also``
    names the other rules the event breaks, ``legal`` says what would have been legal now
    (the seat to act and its kinds of action). Both are appended to ``reason``, which stays
    the whole one-line explanation (``cause`` is the reason without them), so the message
    keeps its form ``"{rule_id}: {reason}"``:
    ``GJ-23: … may not answer again this round; also breaks GJ-22; legal now: seat 3: PLAY, PASS``.
    """

    def __init__(
        self,
        rule_id: str,
        reason: str,
        *,
        game_id: str = "",
        seq: int = -1,
        seat: int = -1,
        event: Any = None,
        also: tuple[str, ...] = (),
        legal: str = "",
    ) -> None:
        self.rule_id = rule_id
        self.cause = reason
        self.also = tuple(dict.fromkeys(r for r in also if r and r != rule_id))
        self.legal = legal
        self.reason = reason + (f"; also breaks {', '.join(self.also)}" if self.also else "") \
            + (f"; legal now: {legal}" if legal else "")
        self.game_id = game_id
        self.seq = seq
        self.seat = seat
        self.event = event
        where = ", ".join(p for p in (f"game {game_id}" if game_id else "",
                                      f"seq {seq}" if seq >= 0 else "",
                                      f"seat {seat}" if seat >= 0 else "") if p)
        super().__init__(f"{rule_id}: {self.reason}" + (f" ({where})" if where else ""))


class LogIntegrityError(EngineError):
    """A stored log that is damaged: torn, unsealed, changed, gapped, duplicated or reordered."""

    def __init__(
        self, code: str, message: str, *, path: str = "", game_id: str = "", seq: int = -1,
        offset: int = -1,
    ) -> None:
        self.code = code
        self.path = path
        self.game_id = game_id
        self.seq = seq
        self.offset = offset
        where = [p for p in (path, f"game {game_id}" if game_id else "",
                             f"seq {seq}" if seq >= 0 else "",
                             f"byte {offset}" if offset >= 0 else "") if p]
        super().__init__(f"{code}: {message}" + (f" [{', '.join(where)}]" if where else ""))
