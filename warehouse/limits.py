"""The sample sizes the warehouse's statistics are shown under (warehouse.tendencies), here
apart so that a command's help can say them without loading DuckDB."""

from __future__ import annotations

MIN_OPPORTUNITIES = 20  # a player ranks in a percentile with at least this many opportunities
MIN_QUALIFIED = 10      # a percentile needs this many qualified players to rank among
