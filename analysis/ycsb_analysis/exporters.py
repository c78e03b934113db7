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
as the string ``"NaN"``. Both become the same ``metric, measurement, value`` frame as a
text final report (see ``report_parser``).
"""

from __future__ import annotations

import json

import pandas as pd

from .line_formats import to_number


def parse_exporter_text(text: str) -> pd.DataFrame:
    """Either exporter's text → ``metric, measurement, value``. Raises ValueError if invalid."""
    decoder = json.JSONDecoder()
    items: list = []
    pos, end = 0, len(text)
    while True:
        while pos < end and text[pos].isspace():
            pos += 1
        if pos >= end:
            break
        obj, pos = decoder.raw_decode(text, pos)   # one object, or the whole array
        if isinstance(obj, list):
            items.extend(obj)
        else:
            items.append(obj)
    if not items:
        raise ValueError("no measurement objects")
    frame = pd.DataFrame(items)
    missing = {"metric", "measurement", "value"} - set(frame.columns)
    if missing:
        raise ValueError(f"objects lack {sorted(missing)}")
    return pd.DataFrame({
        "metric": frame["metric"].astype(str).astype(object),
        "measurement": frame["measurement"].astype(str).astype(object),
        "value": to_number(frame["value"].astype(str)),
    })
