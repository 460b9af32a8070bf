"""House-rule options of 够级 (gouji.md section 4), validated with their allowed values."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.errors import IllegalMove

# option name -> (allowed values, default)
ALLOWED: dict[str, tuple[tuple[Any, ...], Any]] = {
    "kaidian_effect": (("burn_licence", "record"), "burn_licence"),
    "men_scope": (("single_three", "threes_only"), "single_three"),
    "judged_counts_as_out": ((True, False), True),
}


@dataclass(frozen=True, slots=True)
class GoujiOptions:
    """The house rules of one game; every field is recorded in GAME_START (GJ-48)."""

    kaidian_effect: str = "burn_licence"
    men_scope: str = "single_three"
    judged_counts_as_out: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            allowed, _ = ALLOWED[f.name]
            v = getattr(self, f.name)
            if v not in allowed or type(v) is not type(allowed[0]):
                raise IllegalMove("GJ-48", f"option {f.name}={v!r} is not one of "
                                  f"{', '.join(map(repr, allowed))}")

    def to_dict(self) -> dict[str, Any]:
        """Every option with its value, defaults written out."""
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GoujiOptions:
        """Options from a dict; unknown names are an error naming the known ones."""
        if not isinstance(d, dict):
            raise IllegalMove("GJ-48", "options must be a JSON object")
        unknown = set(d) - set(ALLOWED)
        if unknown:
            raise IllegalMove("GJ-48", f"unknown option(s) {', '.join(sorted(unknown))}; known: "
                              f"{', '.join(ALLOWED)}")
        missing = set(ALLOWED) - set(d)
        if missing:
            raise IllegalMove("GJ-48", f"option(s) {', '.join(sorted(missing))} are not recorded "
                              "in GAME_START")
        return cls(**d)

    @property
    def burn_licence(self) -> bool:
        """True when only opened players may burn (GJ-37)."""
        return self.kaidian_effect == "burn_licence"
