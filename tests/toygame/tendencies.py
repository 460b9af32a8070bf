"""小墩's tendency catalog as data (engine.tendency), compiled to SQL by the warehouse."""

from __future__ import annotations

from engine.tendency import ALWAYS, RESULTS, Tendency, chosen, option, outcome, phase, tag

TENDENCIES = (
    Tendency("takes", "takes the trick when it can follow above the best card (TRICK-9)",
             option("take") & option("duck"), chosen("take"),
             label="takes the trick"),
    Tendency("takes_last", "playing last, takes the trick when it can (TRICK-6, TRICK-9)",
             tag("last") & option("take"), chosen("take"),
             label="takes the trick playing last"),
    Tendency("leads_high", "leads a card ranked T or above when it may lead low (TRICK-6)",
             option("lead_high") & option("lead_low"), chosen("lead_high"),
             label="leads a high card"),
    Tendency("sheds_high", "void in the led suit, sheds a high card (TRICK-8)",
             option("shed_high") & option("shed_low"), chosen("shed_high"),
             label="sheds high when void"),
    Tendency("takes_first", "takes the first trick when it can (TRICK-4, TRICK-9)",
             tag("first_trick") & option("take") & option("duck"), chosen("take"),
             label="takes the first trick"),
    Tendency("leads_high_late", "in the last two tricks, leads high when it may lead low "
             "(TRICK-6)", phase("late") & option("lead_high") & option("lead_low"),
             chosen("lead_high"),
             label="leads high in the last two tricks"),
    Tendency("sheds_high_late", "in the last two tricks, void, sheds a high card (TRICK-8)",
             phase("late") & option("shed_high") & option("shed_low"), chosen("shed_high"),
             label="sheds high in the last two tricks"),
    Tendency("wins", "has the highest score (TRICK-12)", outcome("win") | outcome("loss"),
             outcome("win"), RESULTS,
             label="wins on score"),
    Tendency("draws", "every seat has the same score (TRICK-12)", ALWAYS, outcome("draw"),
             RESULTS,
             label="ties on score"),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("takes", "leads_high")
