"""Parse throughput of the status-line parser on a generated multi-hundred-MB status log.

    .venv/bin/python analysis/benchmarks/parse_speed.py            # ~300 MB
    .venv/bin/python analysis/benchmarks/parse_speed.py --mb 50    # quicker

Writes the log into a temporary directory (deleted afterwards) by repeating real status
entries of the fixtures (plain hdrhistogram lines, German decimal commas, and two-in-one
multi-line entries), with foreign log lines mixed in, then times ``parse_file`` on it and
prints MB/s, lines/s, CPU seconds and the process's peak memory (the generator writes as it
goes, so the peak is the parser's). On a shared machine wall time varies with the load;
CPU time much less. A script, not a test.
"""

from __future__ import annotations

import argparse
import re
import resource
import tempfile
from datetime import datetime, timedelta
import time
from pathlib import Path

from ycsb_analysis.multi_output import parse_file

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "outputs"


def sample_block() -> str:
    lines = []
    for name in ("hdrhistogram.err", "locale-de.err", "hdrhistogram+histogram.err", "raw.err"):
        text = (FIXTURES / name).read_text(encoding="utf-8")
        lines += [l for l in text.splitlines() if " sec: " in l or l.startswith(("[", " [", "Raw"))]
    lines.append("20/01/19 13:19:16 INFO zookeeper.ZooKeeper: Session: 0x36f98ad0a4ad8cc closed")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=300.0, help="size of the generated log in MB (default 300)")
    args = ap.parse_args()
    # Each repetition gets its own timestamps, as a long run's status lines do (identical
    # consecutive entries would be dropped as YCSB's repeated last line).
    template = re.sub(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:\d{3}", "{t}", sample_block())
    per_block = template.count("{t}")
    block_bytes = len(template.encode("utf-8"))
    repeats = max(1, int(args.mb * 1e6 / block_bytes))
    start = datetime(2026, 1, 1)
    with tempfile.TemporaryDirectory(prefix="ycsb-parse-speed-") as tmp:
        path = Path(tmp) / "client-0.err"
        n_lines = 0
        with path.open("w", encoding="utf-8") as f:
            for i in range(repeats):
                times = iter((start + timedelta(seconds=i * per_block + k)).strftime("%Y-%m-%d %H:%M:%S:000")
                             for k in range(per_block))
                text = re.sub(r"\{t\}", lambda _: next(times), template)
                n_lines += text.count("\n")
                f.write(text)
        size = path.stat().st_size
        print(f"generated {size / 1e6:.0f} MB, {n_lines:,} lines in {path}")
        t0, cpu0 = time.perf_counter(), time.process_time()
        (out,) = parse_file(path)
        elapsed, cpu = time.perf_counter() - t0, time.process_time() - cpu0
        print(f"parsed {len(out.status_entries):,} status entries, {len(out.status_measurements):,} "
              f"per-metric rows, {out.skipped_lines:,} unknown lines skipped, in {elapsed:.1f} s")
        print(f"throughput: {size / 1e6 / elapsed:.1f} MB/s, {n_lines / elapsed:,.0f} lines/s "
              f"(CPU {cpu:.1f} s: {size / 1e6 / cpu:.1f} MB/s)")
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        print(f"peak memory (max RSS): {peak_mb:,.0f} MB")


if __name__ == "__main__":
    main()
