"""The over-time series read in bounded memory give exactly what the plain way gives.

``timeseries`` reads a long run's per-metric throughput in two passes (each metric's rows found
first, then read one metric at a time onto the grid, in slices of the status frame) and its
latency lines one operation at a time. Here each is checked against a straightforward pandas
reading — the measurement rows merged with their entries, sorted by time, grouped by metric —
on the fixtures' real outputs and on runs made of them: several clients whose ticks fall at
other moments, entries missing, a count missing, rows out of time order, thousands of metrics,
and slices of a few rows so that every slice boundary is crossed. Same keys in the same order,
the same floats bit for bit.
"""

import dataclasses
import functools

import numpy as np
import pandas as pd
import pytest
from conftest import OUTPUTS, REPORT_CASES, RESULTS
from ycsb_analysis import timeseries
from ycsb_analysis.loader import Client, Run, load

# --- the plain way ---------------------------------------------------------------------------

def _plain_curves(run):
    """``{key: [(t, cum), …]}`` per client, read as a merge, a sort and a groupby would."""
    start = timeseries._run_start(run)
    curves, steps, ends = {}, [], []
    for c in run.clients:
        entries, meas = c.output.status_entries, c.output.status_measurements
        if entries.empty or meas.empty or "count" not in meas:
            continue
        e = entries.sort_values("time")
        e = e.assign(interval_s=timeseries._interval_lengths(e).to_numpy(dtype=float),
                     t_s=(e["time"] - start).dt.total_seconds())
        steps.append(e["interval_s"][e["interval_s"] > 0].to_numpy())
        ends.append(float(e["t_s"].max()))
        m = meas[meas["count"].notna() & ~meas["intended"].astype(bool)
                 & meas["structure"].isin(["", "hdrhistogram", "raw"])]
        joined = m[["entry", "metric", "operation", "failed", "count"]].merge(
            e[["entry", "t_s", "interval_s"]], on="entry"
        ).sort_values("t_s", kind="stable")
        for (metric, op, failed), g in joined.groupby(
            ["metric", "operation", "failed"], sort=False, observed=True
        ):
            first_len = g["interval_s"].iloc[0]
            first_start = g["t_s"].iloc[0] - max(first_len if np.isfinite(first_len) else 0.0,
                                                 1e-3)
            t = np.concatenate([[first_start], g["t_s"].to_numpy(dtype=float)])
            cum = np.concatenate([[0.0], np.cumsum(g["count"].to_numpy(dtype=float))])
            curves.setdefault((metric, op, bool(failed)), []).append((t, cum))
    return curves, steps, ends


def _plain_blocks(run):
    """``keys, rates, t_end`` of the plain way."""
    curves, steps, ends = _plain_curves(run)
    if not curves:
        return None
    steps = np.concatenate(steps)
    step = float(np.median(steps)) if len(steps) else 1.0
    first = min(float(t[0]) for cs in curves.values() for t, _ in cs)
    edges = timeseries._grid(first, max(ends), step)
    widths = np.diff(edges)
    ok = widths > step * 0.05
    rates = []
    for cs in curves.values():
        total = np.zeros(len(edges))
        for t, cum in cs:
            total += np.interp(edges, t, cum, left=0.0, right=cum[-1])
        with np.errstate(divide="ignore", invalid="ignore"):
            rates.append((np.diff(total) / widths)[ok])
    return list(curves), rates, edges[1:][ok]


def _plain_lines(run, intended, columns):
    """:func:`timeseries.latency_lines` read as a filter and a groupby would."""
    start = timeseries._run_start(run)
    order = {s: i for i, s in enumerate(timeseries.LATENCY_STRUCTURES)}
    out = {}
    for c in run.clients:
        entries, meas = c.output.status_entries, c.output.status_measurements
        if entries.empty or meas.empty:
            continue
        m = meas[(meas["intended"].astype(bool) == intended) & ~meas["failed"].astype(bool)
                 & (meas["count"].isna() | (meas["count"] > 0))
                 & ~meas["operation"].isin(timeseries.NOT_PLOTTED_OPERATIONS)]
        rank = m["structure"].astype(object).map(lambda s: order.get(s, len(order)))
        m = m.assign(rank=rank.to_numpy(dtype=int),
                     t_s=(m["time"] - start).dt.total_seconds())
        for op, g in m.groupby("operation", sort=False, observed=True):
            g = g[g["rank"] == g["rank"].min()]
            out.setdefault(str(op), []).append(
                (c.index, g["t_s"].to_numpy(), {k: g[k].to_numpy() for k in columns if k in g})
            )
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """The same dtype, shape and bytes (NaN and −0.0 included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _check(run, key_order=True):
    b = timeseries._throughput_blocks(run)
    plain = _plain_blocks(run)
    if plain is None:
        assert b is None
    else:
        keys, rates, t_end = plain
        assert b is not None and _same(b.t_end, t_end)
        if key_order:
            assert b.keys == keys
        else:   # (rows out of order: ties of the first time may put the keys otherwise)
            assert sorted(b.keys) == sorted(keys)
        for key, rate in zip(keys, rates):
            assert _same(b.rates[b.keys.index(key)], rate), key
    columns = ["average_latency_us", "p50", "p99", "p99.9", "missing-column"]
    for intended in (False, True):
        lines = timeseries.latency_lines(run, intended, columns)
        plain = _plain_lines(run, intended, columns)
        assert list(lines) == list(plain) if key_order else sorted(lines) == sorted(plain)
        for op, per_client in plain.items():
            assert len(lines[op]) == len(per_client)
            for (i, t, values), (pi, pt, pvalues) in zip(lines[op], per_client):
                assert i == pi and _same(t, pt) and list(values) == list(pvalues)
                assert all(_same(values[k], pvalues[k]) for k in values)
    return b


# --- runs --------------------------------------------------------------------------------------

@functools.cache
def _fixture_runs():
    """The fixtures' runs, loaded once (the series read here are not cached on them)."""
    inputs = [str(p) for p in sorted(OUTPUTS.glob("*.err"))]
    inputs += [str(REPORT_CASES / "intended"), str(REPORT_CASES / "clock-step.err"),
               str(RESULTS)]
    return load(inputs)


def _client(run_or_client, index, shift_s=0.0, entries=None, meas=None):
    """A client of a run made from a fixture's client: its times moved by ``shift_s``."""
    c = run_or_client.clients[0] if isinstance(run_or_client, Run) else run_or_client
    e = c.output.status_entries if entries is None else entries
    m = c.output.status_measurements if meas is None else meas
    shift = pd.to_timedelta(shift_s, unit="s")
    out = dataclasses.replace(c.output, status_entries=e.assign(time=e["time"] + shift),
                              status_measurements=m.assign(time=m["time"] + shift))
    return Client(index, out)


def _grown(c, times: int):
    """A client's status entries repeated ``times`` times one after the other (entries numbered
    on, times moved on by the run's length), as a longer run of the same client would print."""
    e, m = c.output.status_entries, c.output.status_measurements
    span = e["time"].max() - e["time"].min() + pd.Timedelta(seconds=1)
    n = int(e["entry"].max()) + 1
    es = [e.assign(entry=e["entry"] + k * n, time=e["time"] + k * span) for k in range(times)]
    ms = [m.assign(entry=m["entry"] + k * n, time=m["time"] + k * span) for k in range(times)]
    cat = [col for col in m.columns if isinstance(m[col].dtype, pd.CategoricalDtype)]
    grown_m = pd.concat(ms, ignore_index=True)
    for col in cat:   # (concat keeps a categorical when all pieces have the same categories)
        assert isinstance(grown_m[col].dtype, pd.CategoricalDtype)
    return dataclasses.replace(
        c, output=dataclasses.replace(c.output, status_entries=pd.concat(es, ignore_index=True),
                                      status_measurements=grown_m)
    )


def _two_pass(run) -> bool:
    """Whether every client of ``run`` with counted rows is read the two-pass way."""
    start = timeseries._run_start(run)
    for c in run.clients:
        e, m = c.output.status_entries, c.output.status_measurements
        if e.empty or m.empty or "count" not in m:
            continue
        wanted = m["count"].notna().to_numpy() & ~m["intended"].astype(bool).to_numpy()
        if timeseries._metric_groups(m, wanted, *timeseries._entry_times(e, start)) is None:
            return False
    return True


def _run(clients):
    return Run("made", {"phase": "run"}, clients)


@pytest.fixture(params=[1 << 20, 5, 1], ids=["one-slice", "slices-of-5", "slices-of-1"])
def slices(request, monkeypatch):
    monkeypatch.setattr(timeseries, "_SLICE", request.param)
    return request.param


def test_fixture_runs_give_the_plain_figures(slices):
    runs = _fixture_runs()
    assert len(runs) >= 15
    blocks = [_check(r) for r in runs]
    assert sum(b is not None for b in blocks) >= 10
    # read the two-pass way (the general way only for rows out of time order)
    assert all(_two_pass(r) for r in runs if r.clients[0].output.status_measurements.size)
    # failed metrics, CLEANUP and several clients are among them
    keys = {k for b in blocks if b is not None for k in b.keys}
    assert any(k[2] for k in keys) and any(k[1] == "CLEANUP" for k in keys)
    assert any(len(r.clients) == 3 for r in runs)


def test_clients_ticking_at_other_moments_give_the_plain_figures(slices):
    runs = {r.phase: r for r in _fixture_runs()}
    hdr, both, raw = runs["hdrhistogram"], runs["interval-both"], runs["hdrhistogram+raw"]
    three = runs["run-clients-3"]
    clients = [_client(hdr, 0), _client(both, 1, 0.37), _client(raw, 2, -0.81),
               _client(three.clients[1], 3, 1.234567)]
    made = _run(clients)
    assert _two_pass(made)
    b = _check(made)
    # the same metric from several clients: summed on one grid
    assert b is not None and len(b.keys) >= 6


def test_a_long_client_read_in_slices_gives_the_plain_figures(slices):
    (run,) = load([str(OUTPUTS / "hdrhistogram+raw.err")])
    (other,) = load([str(OUTPUTS / "hdrhistogram.err")])
    long_client = _grown(run.clients[0], 40)
    made = _run([long_client, _client(_grown(other.clients[0], 25), 1, 0.5)])
    assert _two_pass(made)
    b = _check(made)
    assert len(long_client.output.status_measurements) > 400 and len(b.t_end) > 100


def test_missing_entries_counts_and_names_give_the_plain_figures(slices):
    (run,) = load([str(OUTPUTS / "hdrhistogram+histogram.err")])
    c = _grown(run.clients[0], 6)
    e, m = c.output.status_entries, c.output.status_measurements.copy()
    e = e[e["entry"] != int(e["entry"].iloc[3])]            # an entry gone: its rows too
    m.loc[m.index[5], "count"] = np.nan                      # a count missing
    m.loc[m.index[9], "operation"] = np.nan                  # an operation's name missing
    made = _run([_client(c, 0, entries=e, meas=m), _client(run, 1, 0.25)])
    assert _two_pass(made)
    assert _check(made) is not None


def test_entries_numbered_with_gaps_and_rows_out_of_order_give_the_plain_figures(slices):
    (run,) = load([str(OUTPUTS / "hdrhistogram.err")])
    c = _grown(run.clients[0], 5)
    e, m = c.output.status_entries, c.output.status_measurements
    gaps = _client(c, 0, entries=e.assign(entry=e["entry"] * 3 + 7),
                   meas=m.assign(entry=m["entry"] * 3 + 7))
    assert _two_pass(_run([gaps]))
    b = _check(_run([gaps]))
    # the rows shuffled: the general way (a sort) reads them; every metric's figures the same
    shuffled = m.iloc[np.random.default_rng(3).permutation(len(m))]
    mixed = _run([_client(c, 0, meas=shuffled)])
    assert timeseries._metric_groups(
        shuffled, shuffled["count"].notna().to_numpy(), *timeseries._entry_times(
            e, timeseries._run_start(mixed))) is None
    b_mixed = _check(mixed, key_order=False)
    assert sorted(b.keys) == sorted(b_mixed.keys)
    for key, rate in zip(b.keys, b.rates):
        assert _same(rate, b_mixed.rates[b_mixed.keys.index(key)])


def test_entries_out_of_time_order_are_sorted_as_before(slices):
    (run,) = load([str(OUTPUTS / "hdrhistogram.err")])
    c = _grown(run.clients[0], 4)
    e = c.output.status_entries
    reversed_entries = e.iloc[::-1]
    b = _check(_run([_client(c, 0, entries=reversed_entries)]))
    assert b is not None


def test_thousands_of_metrics_go_the_general_way():
    (run,) = load([str(OUTPUTS / "hdrhistogram.err")])
    c = _grown(run.clients[0], 3)
    m = c.output.status_measurements
    # a name per row among 5,000: more metric × operation × failed combinations than a
    # 2-byte group number holds
    names = [f"OP{i}" for i in range(5000)]
    m = m.assign(metric=pd.Categorical(names[: len(m)], categories=names))
    entry_ids = c.output.status_entries["entry"].to_numpy()
    assert timeseries._metric_groups(
        m, m["count"].notna().to_numpy(), entry_ids,
        np.arange(len(entry_ids), dtype=float), np.ones(len(entry_ids))) is None
    _check(_run([_client(c, 0, meas=m)]))


def test_cumulative_sum_in_place_and_zero_plus_first_client_are_the_plain_floats():
    """The two shortcuts of the grid's sums: counts summed in place into their array, and the
    first client's curve taken as ``0 + curve`` without the zeros (−0.0 made 0.0 as 0.0 + −0.0
    makes it)."""
    x = np.random.default_rng(1).random(10_001) * 1e6
    into = x.copy()
    np.cumsum(into, out=into)
    assert _same(into, np.cumsum(x))
    y = np.array([-0.0, 0.0, 1.5, np.nan, -2.0])
    z = y.copy()
    z += 0.0
    assert _same(z, np.zeros(5) + y)
