"""扑克六湖's tendency catalog as data (engine.tendency): what a strong player looks for in
how someone plays, each with the rules it is about (LH-n); the warehouse compiles it to
SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import ALWAYS, RESULTS, Tendency, chosen, option, outcome, tag

TENDENCIES = (
    Tendency("claims_hu", "claims 胡 on a discard or a 加杠 when it may (LH-27, LH-29)",
        option("hu"), chosen("hu"),
        label="claims a win on a discard (胡)"),
    Tendency("passes_hu", "passes a possible 胡 (LH-30)", option("hu"), chosen("pass"),
        label="passes up a win (胡)"),
    Tendency("zimo", "declares 自摸 when it may (LH-28)", option("zimo"), chosen("zimo"),
        label="wins on its own draw (自摸)"),
    Tendency("pengs", "碰: claims a discard's triplet when it may (LH-20)",
        option("peng") & ~option("hu"), chosen("peng"),
        label="claims a triplet (碰)"),
    Tendency("chis", "吃: takes the previous player's discard into a sequence when it may "
        "(LH-26)", option("chi") & ~option("hu", "peng"), chosen("chi"),
        label="claims a sequence (吃)"),
    Tendency("gangs", "杠: claims a discard's kong when it may (LH-21)", option("gang"),
        chosen("gang"),
        label="claims a kong (杠)"),
    Tendency("an_gangs", "declares a 暗杠 when it may (LH-23)", option("an_gang"),
        chosen("an_gang"),
        label="declares a concealed kong (暗杠)"),
    Tendency("jia_gangs", "declares a 加杠 when it may (LH-22)", option("jia_gang"),
        chosen("jia_gang"),
        label="adds to a triplet (加杠)"),
    Tendency("discards_drawn", "discards the card just drawn rather than declare (LH-14, "
        "LH-16)", chosen("discard"), tag("just_drawn"),
        label="discards the card just drawn (摸牌)"),
    Tendency("wins", "wins the hand (LH-27 … LH-29, LH-59)", ALWAYS, outcome("win"), RESULTS,
        label="wins the hand (胡牌)"),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("claims_hu", "pengs", "chis", "zimo", "gangs")
