"""扑克六湖's tendency catalog as data (engine.tendency): what a strong player looks for in
how someone plays, each with the rules it is about (LH-n); the warehouse compiles it to
SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import ALWAYS, RESULTS, Tendency, chosen, option, outcome, tag

TENDENCIES = (
    Tendency("claims_hu", "claims 胡 on a discard or a 加杠 when it may (LH-27, LH-29)",
        option("hu"), chosen("hu")),
    Tendency("passes_hu", "passes a possible 胡 (LH-30)", option("hu"), chosen("pass")),
    Tendency("zimo", "declares 自摸 when it may (LH-28)", option("zimo"), chosen("zimo")),
    Tendency("pengs", "碰: claims a discard's triplet when it may (LH-20)",
        option("peng") & ~option("hu"), chosen("peng")),
    Tendency("chis", "吃: takes the previous player's discard into a sequence when it may "
        "(LH-26)", option("chi") & ~option("hu", "peng"), chosen("chi")),
    Tendency("gangs", "杠: claims a discard's kong when it may (LH-21)", option("gang"),
        chosen("gang")),
    Tendency("an_gangs", "declares a 暗杠 when it may (LH-23)", option("an_gang"),
        chosen("an_gang")),
    Tendency("jia_gangs", "declares a 加杠 when it may (LH-22)", option("jia_gang"),
        chosen("jia_gang")),
    Tendency("discards_drawn", "discards the card just drawn rather than declare (LH-14, "
        "LH-16)", chosen("discard"), tag("just_drawn")),
    Tendency("wins", "wins the hand (LH-27 … LH-29, LH-59)", ALWAYS, outcome("win"), RESULTS),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("claims_hu", "pengs", "chis")
