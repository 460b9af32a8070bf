"""The warehouse's errors and the settings of every connection it opens: the bottom of the
warehouse package, imported by ``warehouse.db`` (which re-exports them) and ``warehouse.verify``
so that neither has to import the other's module to name them."""

from __future__ import annotations

import os

# Every connection liujia opens: no access to files, URLs or extensions beyond the database
# file itself (a warehouse file someone sent must not read the viewer's files), and the
# configuration locked so that no query can turn it back on.
SAFE_CONFIG = {"enable_external_access": False, "lock_configuration": True}


class WarehouseError(RuntimeError):
    """A warehouse that cannot be opened or written as asked."""


class NotAWarehouse(WarehouseError):
    """A DuckDB file that is not a liujia warehouse this version can read safely."""

    def __init__(self, path: str | os.PathLike[str], problem: str, suffix: str = "") -> None:
        self.path, self.problem = os.fspath(path), problem
        super().__init__(f"{self.path} is not a liujia warehouse: {problem}{suffix}")


class WarehouseMissing(WarehouseError, FileNotFoundError):
    """The warehouse file does not exist (nothing has been ingested yet)."""
