"""House-rule options of 六人坑 (keng.md section 4), validated with their allowed ranges."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.errors import IllegalMove

# option name -> (allowed values or (lo, hi) range, default)
RANGES: dict[str, tuple[Any, Any]] = {
    "keng_hand_size": ((6, 8), 7),
    "keng_hand_limit": ((18, 32), 25),
    "keng_tens": ((True, False), True),
    "keng_black_jokers": ((3, 6), 3),
    "keng_red_jokers": ((3, 6), 3),
    "keng_rj_stack_value": ((3, 4), 3),
    "keng_k_on_rj": ((True, False), False),
    "keng_pair_action": (("each", "once"), "each"),
    "keng_draw_when_able": ((True, False), False),
}


@dataclass(frozen=True, slots=True)
class KengOptions:
    """The house rules of one game; every field is recorded in GAME_START (KENG-6)."""

    keng_hand_size: int = 7
    keng_hand_limit: int = 25
    keng_tens: bool = True
    keng_black_jokers: int = 3
    keng_red_jokers: int = 3
    keng_rj_stack_value: int = 3
    keng_k_on_rj: bool = False
    keng_pair_action: str = "each"
    keng_draw_when_able: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            allowed, _ = RANGES[f.name]
            v = getattr(self, f.name)
            if isinstance(allowed[0], bool):
                ok = isinstance(v, bool)
                what = "on/off (true/false)"
            elif isinstance(allowed[0], int):
                ok = isinstance(v, int) and not isinstance(v, bool) and allowed[0] <= v <= allowed[1]
                what = f"an integer from {allowed[0]} to {allowed[1]}"
            else:
                ok = v in allowed
                what = " or ".join(repr(a) for a in allowed)
            if not ok:
                raise IllegalMove("KENG-6", f"option {f.name}={v!r} is not allowed: must be {what}")

    def to_dict(self) -> dict[str, Any]:
        """All options, defaults written out."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> KengOptions:
        """Options from a dict; unknown names and missing names are errors (KENG-6)."""
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise IllegalMove("KENG-6", f"unknown options {sorted(unknown)}; known: {sorted(names)}")
        missing = names - set(d)
        if missing:
            raise IllegalMove("KENG-6", f"options {sorted(missing)} are not recorded in GAME_START")
        return cls(**d)
