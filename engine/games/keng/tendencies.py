"""六人坑's tendency catalog as data (engine.tendency): what a strong player looks for in
how someone plays, each with the rules it is about (KENG-n); the warehouse compiles it to
SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import ALWAYS, RESULTS, Tendency, chosen, option, reason, result_seat, tag

_FUNCTIONS = ("king", "queen", "jack", "duel", "small_joker", "big_joker")
TENDENCIES = (
    Tendency("stacks", "叠加: stacks a K or an RJ on a pending draw rather than accepting "
        "it, when it can (KENG-27)", option("stack_k", "stack_rj"), chosen("stack_k", "stack_rj"),
        label="stacks a draw (叠加)"),
    Tendency("stacks_k", "stacks a K on a pending draw when it can (KENG-27, KENG-28)",
        option("stack_k"), chosen("stack_k"),
        label="stacks a K on a draw (叠加)"),
    Tendency("snatches", "抢: snatches when it holds a valid snatch, before the window "
        "closes (KENG-34 to KENG-37)", chosen("snatch", "let"), chosen("snatch"),
        label="snatches (抢)"),
    Tendency("duels", "挑: starts a duel with an A when it can (KENG-29)", option("duel"),
        chosen("duel"),
        label="starts a duel (挑)"),
    Tendency("misses_report", "忘记报告: lets the last-card report deadline pass (KENG-33)",
        chosen("report", "miss_report"), chosen("miss_report"),
        label="forgets to report the last card (忘记报告)"),
    Tendency("names_most_held", "names, for a joker, the suit it holds most of after the "
        "play (KENG-20)", tag("named_most_held") | tag("named_other"), tag("named_most_held"),
        label="names its longest suit for a joker (指定花色)"),
    Tendency("attacks", "坑: plays a K with no draw pending when it can (KENG-24)",
        option("king"), chosen("king"),
        label="attacks with a K (坑)"),
    Tendency("attacks_low", "attacks (K or RJ) the next seat when it holds two cards or "
        "fewer, when it can (KENG-24, KENG-26)", option("king", "big_joker") & tag("next_low"),
        chosen("king", "big_joker"),
        label="attacks a short next seat (坑)"),
    Tendency("keeps_functions", "plays a number card when it could play a function card "
        "instead (KENG-4, KENG-17)", option("number") & option(*_FUNCTIONS), chosen("number"),
        label="saves its function cards (功能牌)"),
    Tendency("plays_after_draw", "plays after drawing two rather than passing, when it can "
        "(KENG-12)", option("pass") & option("number", *_FUNCTIONS), ~chosen("pass"),
        label="plays on after drawing two (摸两张)"),
    Tendency("duel_aces", "变色: plays an A in a duel when it could play a number card "
        "(KENG-30)", option("duel_ace") & option("duel_number"), chosen("duel_ace"),
        label="changes suit with an A in a duel (变色)"),
    Tendency("goes_out", "decides the game by going out (KENG-46, KENG-49)", ALWAYS,
        reason("out") & result_seat("deciding_seat", "decider"), RESULTS,
        label="goes out to win (走人)"),
    Tendency("over_limit", "loses the game for its team by going over the hand limit "
        "(KENG-47)", ALWAYS, reason("over_limit") & result_seat("deciding_seat", "decider"), RESULTS,
        label="goes over the hand limit"),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("stacks", "snatches", "attacks_low", "duels", "goes_out")
