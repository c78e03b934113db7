"""The paced window's catch-up (stability.catching_up, keeps_schedule), by seeded simulation.

YCSB paces a thread by a schedule counted from its start (-target): a thread behind it runs as
fast as it can until it has caught up. Modelled per 2-s tick: the server can do cap_k x target
operations a second, cap_k climbing from COLD to WARM (time constant TAU ticks) with AR(1)
noise (sigma 15%, lag-1 correlation 0.5); the clients do what the server allows, never more
than the schedule has reached. The live warm-up judge (is_warm on 10-tick windows, at most 60
ticks: quickstart's 120 s) ends the warm-up; the measured window is the 10 ticks after it.

Shares of 2,000 runs each (`python analysis/tests/test_catch_up_simulation.py 2000`; the tests
use fewer): "biased", the measured window more than 5% above the target although the warm-up
was called warm (the analysis flags it: stability.catching_up); "maxed", the warm-up reached
its maximum (NOT steady):

    server (cold -> warm, tau)   is_warm alone: biased  maxed   and keeps_schedule: biased  maxed
    0.3 -> 1.4, 8 ticks                  12.5%          0.0%                 0.1%       0.0%
    0.3 -> 1.4, 15 ticks                 87.3%          0.0%                 0.2%       1.6%
    0.3 -> 1.4, 25 ticks                 73.5%          0.0%                 0.4%      91.5%
    1.4 -> 1.4 (warm from the start)      0.1%          0.0%                 0.0%       0.0%
    1.15 -> 1.15                          3.0%          0.0%                 0.0%       0.1%
    0.3 -> 1.15, 15 ticks                47.5%          0.0%                 1.9%      96.7%

A catch-up's plateau is flat: is_warm alone ends on it. With the schedule check the warm-up
waits until the clients keep their schedule; where the backlog is too large to clear within
the maximum, the phase is NOT steady (under --precision its trial is run again), never a
figure of the backlog.
"""

from __future__ import annotations

import sys

import numpy as np
from ycsb_analysis import stability

TARGET, TICK_S, WINDOW, MAX_TICKS, RHO = 7200.0, 2.0, 10, 60, 0.5


def served(rng, ticks: int, cold: float, warm: float, tau: float, sigma: float) -> np.ndarray:
    """ops/s the server can do per tick: a climb from cold to warm x TARGET, AR(1) noise."""
    e = rng.normal(0.0, sigma * np.sqrt(1 - RHO * RHO), ticks)
    noise = np.empty(ticks)
    noise[0] = rng.normal(0.0, sigma)
    for k in range(1, ticks):
        noise[k] = RHO * noise[k - 1] + e[k]
    level = warm - (warm - cold) * np.exp(-np.arange(ticks) / tau)
    return np.maximum(0.0, TARGET * level * (1 + noise))


def paced(capacity: np.ndarray) -> np.ndarray:
    """Each tick's ops/s of a client paced to TARGET on a server of this capacity."""
    done, rates = 0.0, []
    for k, c in enumerate(capacity):
        now = min(done + c * TICK_S, TARGET * TICK_S * (k + 1))
        rates.append((now - done) / TICK_S)
        done = now
    return np.array(rates)


def measured_window(rates: np.ndarray, with_schedule: bool) -> tuple[np.ndarray, bool]:
    """The 10 ticks after the warm-up ends, and whether the judge ended it (else MAX_TICKS):
    the runner's judge (warmup.Judge), with or without its schedule check."""
    for k in range(2 * WINDOW, MAX_TICKS + 1):
        seen = list(rates[:k])
        if stability.is_warm(seen, WINDOW) and (
                not with_schedule or stability.keeps_schedule(seen, TARGET)):
            return rates[k:k + WINDOW], True
    return rates[MAX_TICKS:MAX_TICKS + WINDOW], False


def runs(reps: int, cold: float, tau: float, with_schedule: bool, warm_level: float = 1.4,
         seed: int = 48) -> dict:
    """Shares of runs: measured above the target by more than CATCH_UP though the warm-up was
    called warm (a figure of the backlog taken as steady: the analysis flags it), and warm-ups
    that reached their maximum (NOT steady)."""
    rng, biased, maxed = np.random.default_rng(seed), 0, 0
    for _ in range(reps):
        rates = paced(served(rng, MAX_TICKS + WINDOW, cold, warm_level, tau, 0.15))
        window, warm = measured_window(rates, with_schedule)
        biased += warm and stability.catching_up(list(window), TARGET)
        maxed += not warm
    return {"biased": biased / reps, "maxed": maxed / reps}


def test_the_rule_needs_a_target_and_a_mean_above_it_by_more_than_catch_up():
    assert not stability.catching_up([7200.0, 7210.0, 7190.0], None)  # a closed loop
    assert not stability.catching_up([9000.0, 9100.0], 0)
    assert not stability.catching_up([7500.0, 7550.0], 7200)          # +4.5%
    assert stability.catching_up([7600.0, 7580.0], 7200)              # +5.4%
    assert not stability.catching_up([7600.0], 7200)                  # one tick: no mean


def test_keeping_the_schedule_is_the_last_ticks_at_the_target():
    assert stability.keeps_schedule([3000.0, 7190.0, 7201.0, 7212.0], 7200)
    assert not stability.keeps_schedule([7200.0, 7200.0, 7400.0], 7200)  # catching up
    assert not stability.keeps_schedule([7200.0, 7200.0, 6900.0], 7200)  # behind
    assert not stability.keeps_schedule([7200.0, 7200.0], 7200)          # too few ticks
    assert stability.keeps_schedule([5000.0, 9000.0], None)              # a closed loop
    # a slow rate in 1-s ticks: two operations more or less are within the schedule
    assert stability.keeps_schedule([40.8, 43.1, 44.1, 42.0], 42, tick_s=1)
    assert not stability.keeps_schedule([40.8, 43.1, 46.0], 42, tick_s=1)


def test_the_schedule_check_keeps_the_catch_up_out_of_the_measured_window():
    # a climb over about 30 s (tau 15 ticks), as the power check's side B: the warm-up judge
    # alone ends on the catch-up's flat plateau most of the time
    assert runs(300, cold=0.3, tau=15, with_schedule=False)["biased"] > 0.5
    found = runs(300, cold=0.3, tau=15, with_schedule=True)
    assert found["biased"] <= 0.02 and found["maxed"] <= 0.15


def test_a_client_that_keeps_its_schedule_is_not_flagged():
    # a warm server from the start, its capacity dipping below the target now and then (15%
    # noise around 1.4x): the short backlogs of those dips do not reach 5% of a window, and the
    # warm-up is not held back by them
    found = runs(300, cold=1.4, tau=8, with_schedule=True)
    assert found["biased"] <= 0.05 and found["maxed"] <= 0.05
    rng, flagged = np.random.default_rng(3), 0
    for _ in range(300):
        rates = paced(served(rng, MAX_TICKS + WINDOW, 1.4, 1.4, 8, 0.15))
        flagged += stability.catching_up(list(rates[2 * WINDOW:3 * WINDOW]), TARGET)
    assert flagged / 300 <= 0.05


if __name__ == "__main__":
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for cold, tau, level in ((0.3, 8, 1.4), (0.3, 15, 1.4), (0.3, 25, 1.4), (1.4, 8, 1.4),
                             (1.15, 8, 1.15), (0.3, 15, 1.15)):
        a, b = runs(reps, cold, tau, False, level), runs(reps, cold, tau, True, level)
        print(f"{cold:4} -> {level:4}, tau {tau:2}: {a['biased']:6.1%} {a['maxed']:6.1%} "
              f"{b['biased']:6.1%} {b['maxed']:6.1%}")
