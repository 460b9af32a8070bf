"""六人斗地主 (ddz6_3v3, ddz6_2v4, ddz6_zhengfan): rules DDZ-1 … DDZ-93 of rules/ddz6.md.

So far its foundation only: the packs (``cards``), combinations and their comparison
(``combos``, section 8), the move generator (``moves``) and the auto-win hand tests of DDZ-78
(``autowin``). It is not yet a registered game.
"""

from engine.games.ddz6.cards import VARIANTS, deck
from engine.games.ddz6.combos import Combo, beats, classify, combo_rules, play_rule
from engine.games.ddz6.moves import Play, has_answer, iter_plays, legal_plays

__all__ = ["VARIANTS", "Combo", "Play", "beats", "classify", "combo_rules", "deck",
           "has_answer", "iter_plays", "legal_plays", "play_rule"]
