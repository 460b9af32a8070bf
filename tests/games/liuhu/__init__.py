"""Tests of 扑克六湖 (liuhu)."""
