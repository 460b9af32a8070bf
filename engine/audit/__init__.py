"""The audit report of one game (``liujia audit``, the dashboard's audit page): ``report``
builds it as a JSON-ready dict, ``text`` and ``html`` render it (docs/audit.md)."""
