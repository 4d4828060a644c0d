"""Shared timing helper for the bench modules."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def timed_ms(fn: Callable[[], object], repeat: int) -> float:
    """Median wall time of `fn()` over `repeat` runs (at least one), in milliseconds."""
    times = []
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3
