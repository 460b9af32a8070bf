"""摸到爽's tendency catalog as data (engine.tendency): what a strong player looks for in
how someone plays, each with the rules it is about (MDS-n); the warehouse compiles it to
SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import (
    ALWAYS,
    RESULTS,
    Tendency,
    chosen,
    option,
    outcome,
    phase,
    place,
    result_seat,
    tag,
)

TENDENCIES = (
    Tendency("feints", "诈摸: draws while holding the round suit (MDS-21)",
        option("feint"), chosen("feint"),
        label="draws though holding the suit (诈摸)"),
    Tendency("plays_joker", "plays a joker (百搭) when it may (MDS-3, MDS-19)",
        option("joker"), chosen("joker"),
        label="plays a joker (百搭)"),
    Tendency("reports", "报双: reports two cards left before the deadline (MDS-22)",
        chosen("report", "miss_report"), chosen("report"),
        label="reports two cards left (报双)"),
    Tendency("dianpao", "点炮: is the loser who let the winner go out (MDS-35)",
        outcome("loss"), result_seat("dianpao", "dianpao"), RESULTS,
        label="lets the winner go out (点炮)"),
    Tendency("violates_joker", "plays a joker against its limits (MDS-19, MDS-20) "
        "when it could", option("joker_violation"), chosen("joker_violation"),
        label="breaks a joker limit"),
    Tendency("gives", "罚: gives a card to a missed report's offender (MDS-25)",
        option("gift"), chosen("gift"),
        label="gives a penalty card (罚)"),
    Tendency("dumps_final", "plays a card in the final round when it can (MDS-34)",
        phase("final") & option("follow"), chosen("follow"),
        label="plays in the final round (最后一轮)"),
    Tendency("tops", "plays above the table's highest card when it can (MDS-13)",
        tag("could_top"), tag("tops"),
        label="plays the round's highest card"),
    Tendency("draws_for_joker", "先摸: draws rather than plays its joker when lacking "
        "the suit (MDS-17)", option("draw") & option("joker"), chosen("draw"),
        label="draws rather than play a joker (先摸)"),
    Tendency("keeps_joker", "收到爽: does not play (collects) rather than play its "
        "joker when lacking the suit (MDS-29, MDS-30)",
        phase("shou") & option("no_play") & option("joker"), chosen("no_play"),
        label="collects rather than play a joker (收到爽)"),
    Tendency("wins", "goes out first and wins (MDS-33)", ALWAYS, place(1), RESULTS,
        label="goes out first and wins"),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("feints", "reports", "plays_joker", "dianpao", "wins")
