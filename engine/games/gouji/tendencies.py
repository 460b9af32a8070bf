"""够级's tendency catalog as data (engine.tendency): what a strong player looks for in
how someone plays, each with the rules it is about (GJ-n); the warehouse compiles it to
SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import ALWAYS, RESULTS, Tendency, chosen, option, place, relation, tag

TENDENCIES = (
    Tendency("answers_opposite", "answers its opposite's 够级 play when it can "
        "(GJ-19, GJ-20)", relation("opposite") & tag("top_gouji") & option("answer"),
        chosen("answer"),
        label="answers the opposite's 够级 play (管)"),
    Tendency("yields", "让牌: yields its opposite's play when allowed (GJ-26)",
        option("rang"), chosen("rang"),
        label="yields to its opposite (让牌)"),
    Tendency("burns", "烧牌: burns another's 够级 play when licensed and able (GJ-39)",
        option("burn"), chosen("burn"),
        label="burns a 够级 play (烧牌)"),
    Tendency("opens", "开点: leads natural 4s after its pure 够级 play stood, when it can "
        "(GJ-36)", option("kaidian"), chosen("kaidian"),
        label="opens the point (开点)"),
    Tendency("first", "goes out first, as 头客 (GJ-31)", ALWAYS, place(1), RESULTS,
        label="goes out first (头客)"),
    Tendency("last", "ends as 拉客, last or judged (GJ-31, GJ-45)", ALWAYS, place(6), RESULTS,
        label="ends last (拉客)"),
    Tendency("leads_gouji", "leads a 够级 play when it could lead an ordinary one (GJ-19)",
        option("lead_gouji") & option("lead"), chosen("lead_gouji"),
        label="leads a 够级 play (够级牌)"),
    Tendency("relieves", "解烧: answers the burner opposite when it can (GJ-41)",
        relation("opposite") & tag("top_burner") & option("answer"), chosen("answer"),
        label="relieves a burn (解烧)"),
    Tendency("covers_teammate", "beats a teammate's play when it can (GJ-22)",
        relation("teammate") & option("answer", "burn"), chosen("answer", "burn"),
        label="beats a teammate's play (管)"),
    Tendency("answers_ordinary", "answers an ordinary (not 够级) play when it can (GJ-22)",
        option("answer") & ~tag("top_gouji"), chosen("answer"),
        label="answers an ordinary play (管)"),
    Tendency("false_burns", "诈烧: leads without a joker while burning (GJ-40, GJ-43)",
        option("false_burn"), chosen("false_burn"),
        label="burns without a joker (诈烧)"),
    Tendency("agrees", "和点: agrees its opposite's 宣点 (GJ-38)", chosen("agree", "refuse"),
        chosen("agree"),
        label="agrees the point (和点)"),
)
# the few the replay page shows for each seat "as of" a game
KEY_TENDENCIES = ("answers_opposite", "burns", "first", "yields", "leads_gouji")
