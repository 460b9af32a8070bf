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
    """A well-formed event that breaks a rule; carries the rule id and a one-line reason."""

    def __init__(
        self,
        rule_id: str,
        reason: str,
        *,
        game_id: str = "",
        seq: int = -1,
        seat: int = -1,
        event: Any = None,
    ) -> None:
        self.rule_id = rule_id
        self.reason = reason
        self.game_id = game_id
        self.seq = seq
        self.seat = seat
        self.event = event
        where = ", ".join(p for p in (f"game {game_id}" if game_id else "",
                                      f"seq {seq}" if seq >= 0 else "",
                                      f"seat {seat}" if seat >= 0 else "") if p)
        super().__init__(f"{rule_id}: {reason}" + (f" ({where})" if where else ""))


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
