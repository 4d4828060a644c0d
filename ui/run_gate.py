"""At most a few page runs of this process at once; the others wait their turn, in arrival order.

The server is one Python process: one thread runs Python at a time, and N sessions' runs started together share
the interpreter in 5 ms slices, so each one finishes only when all of them do (50 joiners of the home page: every
first page at ~2.6 s, bench/README.md). In turns, the first viewer is served after one run's time and the median
viewer after half the total, for the same total. `SLOTS` runs at a time (default 2, `HELM_RUN_SLOTS`) keep a run
that waits on a file from holding up the rest.

Meant for Home.py, around its page's run: `with run_gate.slot(): pg.run()` (proposed; until Home.py takes it,
`python -m bench.audience --gate 2` measures it through bench/variants). A run that ends early (st.stop, st.rerun,
st.switch_page, an error) leaves the block by its exception and frees its slot."""
from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

DEFAULT_SLOTS = 2


def _slots_from(raw: str | None) -> int:
    """HELM_RUN_SLOTS as a count of at least 1; the default when unset or not a whole number."""
    try:
        return max(1, int(raw)) if raw is not None else DEFAULT_SLOTS
    except ValueError:
        return DEFAULT_SLOTS


SLOTS = _slots_from(os.environ.get("HELM_RUN_SLOTS"))
_slots = threading.BoundedSemaphore(SLOTS)  # waiters are woken in the order they came (threading.Condition)


@contextlib.contextmanager
def slot() -> Iterator[None]:
    """Hold one of the process's run slots for the block."""
    with _slots:
        yield
