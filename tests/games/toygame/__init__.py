"""Tests and test data of the eighth game, 小墩 (the package tests.toygame)."""
