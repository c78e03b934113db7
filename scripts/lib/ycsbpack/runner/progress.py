"""Progress lines a person can follow: step i of n, what runs, elapsed and estimated time left.

The estimate is the sum of the remaining steps' rough durations, corrected by how far the
finished steps were off their own estimates.
"""
import time


def _clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m{s:02d}s" if h else f"{m}m{s:02d}s"


class Progress:
    def __init__(self, estimates: list, label: str = ""):
        self.estimates = list(estimates)
        self.label = f"{label}: " if label else ""
        self.t0 = time.monotonic()
        self.done_estimated = 0.0
        self.done_actual = 0.0
        self.step_start = None

    def begin(self, i: int, what: str) -> None:
        """i counts from 0."""
        elapsed = time.monotonic() - self.t0
        ratio = 1.0
        if self.done_estimated > 0:
            ratio = min(3.0, max(0.5, self.done_actual / self.done_estimated))
        left = sum(self.estimates[i:]) * ratio
        print(f"== {self.label}step {i + 1} of {len(self.estimates)} [{_clock(elapsed)} "
              f"elapsed, about {_clock(left)} left]: {what}", flush=True)
        self.step_start = time.monotonic()

    def end(self, i: int) -> float:
        took = time.monotonic() - self.step_start
        self.done_estimated += self.estimates[i]
        self.done_actual += took
        return took

    def elapsed(self) -> str:
        return _clock(time.monotonic() - self.t0)
