"""liujia: replay logging and hand-history analysis for six-player Chinese card games."""

__version__ = "0.1.0"
