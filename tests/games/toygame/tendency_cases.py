"""小墩's hand-counted tendency cases (test data, tests/warehouse/test_tendencies.py): tendency ->
(rows of player P, n, k); s = opportunity and success, o = opportunity only, - = neither.
Decisions rows are dicts of ``decision_row`` fields; results rows are (place, result, reason,
decider, dianpao) of one game each."""

from __future__ import annotations

TD = ["duck", "take"]
LEAD = ["lead_high", "lead_low"]
SHED = ["shed_high", "shed_low"]

CASES = {
    "toy_tricks.takes": ([dict(options=TD, chosen="take"),                                # s
                          dict(options=TD, chosen="duck"),                                # o
                          dict(options=SHED, chosen="shed_low")], 2, 1),                  # -
    "toy_tricks.takes_last": ([dict(options=TD, chosen="take", tags=["last"]),            # s
                               dict(options=TD, chosen="duck", tags=["last"]),            # o
                               dict(options=TD, chosen="take")], 2, 1),                   # -
    "toy_tricks.leads_high": ([dict(options=LEAD, chosen="lead_high"),                    # s
                               dict(options=LEAD, chosen="lead_low"),                     # o
                               dict(options=LEAD, chosen="lead_high"),                    # s
                               dict(options=TD, chosen="take")], 3, 2),                   # -
    "toy_tricks.sheds_high": ([dict(options=SHED, chosen="shed_high"),                    # s
                               dict(options=SHED, chosen="shed_low"),                     # o
                               dict(options=LEAD, chosen="lead_high")], 2, 1),            # -
    "toy_tricks.takes_first": ([dict(options=TD, chosen="take", tags=["first_trick"]),    # s
                                dict(options=TD, chosen="duck",
                                     tags=["first_trick", "last"]),                       # o
                                dict(options=TD, chosen="take", tags=["last"])], 2, 1),   # -
    "toy_tricks.leads_high_late": ([dict(options=LEAD, chosen="lead_high", phase="late"),  # s
                                    dict(options=LEAD, chosen="lead_low", phase="late"),   # o
                                    dict(options=LEAD, chosen="lead_high", phase="early")],  # -
                                   2, 1),
    "toy_tricks.sheds_high_late": ([dict(options=SHED, chosen="shed_high", phase="late"),  # s
                                    dict(options=SHED, chosen="shed_low", phase="late"),   # o
                                    dict(options=SHED, chosen="shed_high",
                                         phase="early")], 2, 1),                          # -
    "toy_tricks.wins": ([(None, "win", None, False, False),                               # s
                         (None, "loss", None, False, False),                              # o
                         (None, "draw", None, False, False)], 2, 1),                      # -
    "toy_tricks.draws": ([(None, "draw", None, False, False),                             # s
                          (None, "win", None, False, False),                              # o
                          (None, "loss", None, False, False)], 3, 1),                     # o
}
