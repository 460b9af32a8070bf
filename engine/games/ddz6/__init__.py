"""六人斗地主 (ddz6_3v3, ddz6_2v4, ddz6_zhengfan): rules DDZ-1 … DDZ-93 of rules/ddz6.md.

The packs (``cards``), combinations and their comparison (``combos``, section 8), the move
generator (``moves``), the auto-win hand tests (``autowin``), and the game layer: options
(section 3), state, the deal, bidding, identities, doubling and show hand (``setup``), play,
end and settlement (``play``, ``scoring``), the dispatcher (``rules``), the engine functions
(``game``), information (``info``), bots, the fact catalogs (``facts``), and one game object
per variant (``variants``: ``VARIANTS["3v3"]`` …), registered as ``ddz6_3v3``, ``ddz6_2v4``
and ``ddz6_zhengfan``.
"""

from engine.games.ddz6.cards import deck
from engine.games.ddz6.combos import Combo, beats, classify, combo_rules, play_rule
from engine.games.ddz6.moves import Play, has_answer, iter_plays, legal_plays
from engine.games.ddz6.variants import VARIANTS

__all__ = ["VARIANTS", "Combo", "Play", "beats", "classify", "combo_rules",
           "deck", "has_answer", "iter_plays", "legal_plays", "play_rule"]
