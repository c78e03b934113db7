"""Files written by YCSB's JSON exporters (``-p exporter=... -p exportfile=...``).

``JSONMeasurementsExporter`` writes one pretty-printed object per figure, separated by
``} {`` — not valid JSON as a whole::

    {
      "metric" : "OVERALL",
      "measurement" : "RunTime(ms)",
      "value" : 75
    } {
      "metric" : "OVERALL",

``JSONArrayMeasurementsExporter`` writes the same objects as one valid array. NaN is written
as the string ``"NaN"``. Both become the same ``metric, measurement, value`` frame as a text
final report (see :mod:`.final_report`).
"""

from __future__ import annotations

import json
import re

import polars as pl

from .final_report import number

JSON_START = re.compile(r"^\s*(?:\{|\[\s*\{)")
_SPACE = re.compile(r"\s*")


def parse_exporter_text(text: str) -> pl.DataFrame:
    """Either exporter's text → ``metric, measurement, value``. Raises ValueError if invalid."""
    decoder = json.JSONDecoder()
    items: list = []
    pos = 0
    while (pos := _SPACE.match(text, pos).end()) < len(text):
        obj, pos = decoder.raw_decode(text, pos)   # one object, or the whole array
        items.extend(obj if isinstance(obj, list) else [obj])
    if not items:
        raise ValueError("no measurement objects")
    missing = {"metric", "measurement", "value"} - set().union(*(i.keys() for i in items))
    if missing:
        raise ValueError(f"objects lack {sorted(missing)}")
    return pl.DataFrame({k: [str(i.get(k)) for i in items]
                         for k in ("metric", "measurement", "value")}).with_columns(
        number(pl.col("value")))
