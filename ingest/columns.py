"""Arrow arrays and tables from Python values without ``pa.array``, which imports pandas on
its first call (~0.5 s of CPU in every process that makes one: each ingest worker and the
loader). The values go into Arrow buffers directly (``array.array`` for numbers, joined bytes
for strings), so a run never imports pandas; the arrays are equal to ``pa.array``'s.

Supported types: signed and unsigned integers, booleans, timestamps (integer microseconds,
as ``Event.ts``), strings, binary, and lists of any of these; None is a null.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import accumulate
from typing import Any, cast

import pyarrow as pa

_CODES = {  # Arrow integer type -> array.array typecode of the same width and sign
    pa.int8(): "b", pa.int16(): "h", pa.int32(): "i", pa.int64(): "q",
    pa.uint8(): "B", pa.uint16(): "H", pa.uint32(): "I", pa.uint64(): "Q",
}


def validity(values: Sequence[Any]) -> pa.Buffer | None:
    """The validity bitmap of values (bit i set unless values[i] is None); None when no value
    is null."""
    n = len(values)
    bits = 0
    nulls = False
    for i, v in enumerate(values):
        if v is None:
            nulls = True
        else:
            bits |= 1 << i
    if not nulls:
        return None
    return pa.py_buffer(bits.to_bytes((n + 7) // 8, "little"))


def _offsets(lengths: Any) -> pa.Buffer:
    return pa.py_buffer(array("i", accumulate(lengths, initial=0)))


def strings(values: Sequence[str | None]) -> pa.Array:
    """A string array of values (None: null)."""
    mask = validity(values)
    # no mask: validity found no None, so values are all str
    data = [b"" if v is None else v.encode() for v in values] if mask is not None \
        else [v.encode() for v in cast(Sequence[str], values)]
    return pa.Array.from_buffers(pa.string(), len(values),
                                 [mask, _offsets(map(len, data)), pa.py_buffer(b"".join(data))])


def binaries(values: Sequence[bytes | None]) -> pa.Array:
    """A binary array of values (None: null)."""
    mask = validity(values)
    data = [b"" if v is None else v for v in values] if mask is not None \
        else cast(Sequence[bytes], values)
    return pa.Array.from_buffers(pa.binary(), len(values),
                                 [mask, _offsets(map(len, data)), pa.py_buffer(b"".join(data))])


def numbers(values: Sequence[int | None], type_: pa.DataType) -> pa.Array:
    """An integer (or timestamp: integer microseconds) array of values (None: null)."""
    code = _CODES[pa.int64() if pa.types.is_timestamp(type_) else type_]
    mask = validity(values)
    data = array(code, [0 if v is None else v for v in values] if mask is not None
                 else cast(Sequence[int], values))
    return pa.Array.from_buffers(type_, len(values), [mask, pa.py_buffer(data)])


def booleans(values: Sequence[bool | None]) -> pa.Array:
    """A boolean array of values (None: null)."""
    mask = validity(values)
    bits = 0
    for i, v in enumerate(values):
        if v:
            bits |= 1 << i
    data = pa.py_buffer(bits.to_bytes((len(values) + 7) // 8, "little"))
    return pa.Array.from_buffers(pa.bool_(), len(values), [mask, data])


def column(values: Sequence[Any], type_: pa.DataType) -> pa.Array:
    """An array of the type from Python values (see the module's docstring for the types)."""
    if pa.types.is_string(type_):
        return strings(values)
    if pa.types.is_binary(type_):
        return binaries(values)
    if pa.types.is_boolean(type_):
        return booleans(values)
    if pa.types.is_integer(type_) or pa.types.is_timestamp(type_):
        return numbers(values, type_)
    if pa.types.is_list(type_):
        mask = validity(values)
        items = [() if v is None else v for v in values] if mask is not None else values
        flat = [x for v in items for x in v]
        child = column(flat, type_.value_type)
        return pa.Array.from_buffers(type_, len(values), [mask, _offsets(map(len, items))],
                                         children=[child])
    raise TypeError(f"no pandas-free Arrow builder for {type_}")


def table(rows: Sequence[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """``pa.Table.from_pylist(rows, schema=schema)`` without pandas: each field's values from
    the row dicts (a missing key is a null)."""
    arrays = [column([r.get(f.name) for r in rows], f.type) for f in schema]
    return pa.Table.from_batches([pa.RecordBatch.from_arrays(arrays, schema=schema)])
