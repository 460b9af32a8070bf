"""六人斗地主's tendency catalogs as data (engine.tendency), one per variant: the choices each
variant has (bidding in 3v3 and 2v4, doubling in 3v3, show hand in the 4-deck variants, side
choosing in 正反) and the play tendencies all three share (DDZ-n); the warehouse compiles them
to SQL (docs/decisions.md)."""

from __future__ import annotations

from engine.tendency import (
    ALWAYS,
    RESULTS,
    Tendency,
    chosen,
    option,
    outcome,
    relation,
    side,
    tag,
)

_BEAT = option("play", "bomb")

_PLAY = (
    Tendency("bombs", "plays a bomb on another's play when it holds one that beats it "
             "(DDZ-42)", ~tag("lead") & option("bomb"), chosen("bomb"),
             label="bombs another's play (炸彈)"),
    Tendency("bombs_when_only_bomb", "bombs when only a bomb beats the top play rather "
             "than passing (DDZ-42, DDZ-73)", option("bomb") & option("pass") & ~option("play"),
             chosen("bomb"),
             label="bombs when only a bomb beats (炸彈)"),
    Tendency("leads_bomb", "leads a bomb when it holds one rather than an ordinary play "
             "(DDZ-42, DDZ-72)", tag("lead") & option("bomb"), chosen("bomb"),
             label="leads a bomb (炸彈)"),
    Tendency("lets_partner_run", "does not beat its own side's top play when it could "
             "(DDZ-72, DDZ-73)", tag("partner_top") & _BEAT, chosen("pass"),
             label="lets its side's play stand"),
    Tendency("contests", "beats an opponent's play when it can (DDZ-41, DDZ-42)",
             relation("opponent") & _BEAT, chosen("play", "bomb"),
             label="beats an opponent's play"),
    Tendency("stops_foe_low", "beats an opponent's play when an opponent holds three "
             "cards or fewer, when it can (DDZ-41, DDZ-76)",
             relation("opponent") & tag("foe_low") & _BEAT, chosen("play", "bomb"),
             label="stops an opponent about to go out"),
)
_BIDS = Tendency("bids", "叫分: bids rather than passes when it may bid (DDZ-14)",
                 option("bid"), chosen("bid"),
                 label="bids (叫分)")
_DOUBLES = (
    Tendency("doubles", "加倍: doubles when it may (DDZ-37)", option("double"), chosen("double"),
             label="doubles (加倍)"),
    Tendency("doubles_as_farmer", "加倍: doubles as a farmer (DDZ-37)",
             option("double") & side("farmer"), chosen("double"),
             label="doubles as a farmer (加倍)"),
)
_SHOWS = Tendency("shows", "明牌: shows its hand as a landlord when it may (DDZ-38, DDZ-39)",
                  option("show"), chosen("show"),
                  label="shows its hand (明牌)")
_JOINS_FAN = Tendency("joins_fan", "站隊: a farmer joins the 反 (dark-mark) landlord rather "
                      "than the 正 (DDZ-35)", option("fan"), chosen("fan"),
                      label="joins the 反 landlord (站隊)")
_WINS_ZHENGFAN = (
    Tendency("wins", "ends the hand on the winning side (DDZ-76, DDZ-89)", ALWAYS,
             outcome("win"), RESULTS,
             label="wins the hand"),
    Tendency("wins_fan", "wins on the 反 side (DDZ-32, DDZ-76)", side("fan"), outcome("win"),
             RESULTS,
             label="wins on the 反 side"),
)
_WINS_LANDLORD = (
    Tendency("wins_as_landlord", "wins as a landlord (DDZ-76, DDZ-84, DDZ-88)",
             side("landlord"), outcome("win"), RESULTS,
             label="wins as a landlord (地主)"),
    Tendency("wins_as_farmer", "wins as a farmer (DDZ-76, DDZ-84, DDZ-88)", side("farmer"),
             outcome("win"), RESULTS,
             label="wins as a farmer (農民)"),
)

# variant -> its catalog, and the few the replay page shows for each seat "as of" a game
TENDENCIES: dict[str, tuple[Tendency, ...]] = {
    "3v3": (_BIDS, *_DOUBLES, *_PLAY, *_WINS_LANDLORD),
    "2v4": (_BIDS, _SHOWS, *_PLAY, *_WINS_LANDLORD),
    "zhengfan": (_SHOWS, _JOINS_FAN, *_PLAY, *_WINS_ZHENGFAN),
}
KEY_TENDENCIES: dict[str, tuple[str, ...]] = {
    "3v3": ("bids", "doubles", "bombs", "contests", "lets_partner_run"),
    "2v4": ("bids", "shows", "bombs", "contests", "lets_partner_run"),
    "zhengfan": ("shows", "joins_fan", "bombs", "contests", "lets_partner_run"),
}
