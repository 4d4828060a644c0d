"""Warm-up once per process: the bundled files the pages' first views read, loaded in a background thread.

The first visit of a page in a fresh server process read the bundled files its views need (the genuine safety
runs alone ~1.7 s, their per-question agreement ~3 s): a presenter's first PageDown onto such a page waited for
it. The first run of any session (Home.py calls `start_warm_up` every run) starts one background thread per
process that loads them into the same process-wide caches the pages use (ui.cache: a session that asks for one
meanwhile waits on the cache's own lock for that value, never computes it twice).
"""
from __future__ import annotations

import functools
import threading
from typing import Callable

from . import cache

_WARM_LOCK = threading.Lock()
_warm_thread: threading.Thread | None = None


def warm_up_steps() -> list[tuple[str, Callable[[], object]]]:
    """What the warm-up loads, in order: (name, loader). Everything here is process-wide and the same for every
    visitor (bundled files only; nothing of a session, so no upload and no session state)."""
    steps: list[tuple[str, Callable[[], object]]] = [
        (f"release {name}", functools.partial(cache.bundled_release, name)) for name in cache.RELEASES]
    steps += [("claims", cache.claims), ("model matches", cache.model_matches),
              ("bundled sources", cache.bundled_sources)]
    safety, babi = cache.REAL_PREFIX + "safety", cache.REAL_PREFIX + "babi"
    steps += [(f"bundled output {s}", functools.partial(cache.bundled_output, s)) for s in (safety, babi)]
    # The Prompts & Completions page's first view (either exam) and the calibration page's real-confidence runs.
    steps += [("agreement BBQ", functools.partial(cache.bundled_agreement, safety, "BBQ", None)),
              ("agreement XSTest", functools.partial(cache.bundled_agreement, safety, "XSTest", "xst_score")),
              ("confident runs", functools.partial(cache.bundled_confident_runs, safety)),
              ("moving targets", cache.moving_targets)]
    return steps


class _NotInWarmUp:
    """Drops Streamlit's "missing ScriptRunContext" warning for the warm-up thread (it has no session, by design)."""

    def filter(self, record) -> bool:
        return record.threadName != _WARM_THREAD


_WARM_THREAD = "helm-warm-up"


def _warm(steps) -> None:
    import logging

    for name in ("streamlit.runtime.scriptrunner_utils.script_run_context",):
        logging.getLogger(name).addFilter(_NotInWarmUp())
    for name, load in steps:
        try:
            load()
        except Exception as exc:  # a missing bundled file is the page's to report, with its own message
            logging.getLogger(__name__).warning("warm-up of %s failed: %s", name, exc)


def _served() -> bool:
    """True under `streamlit run` (not under AppTest, whose runtime is a mock and whose tests clear the caches)."""
    from streamlit.runtime import Runtime

    return Runtime.exists() and type(Runtime.instance()) is Runtime


def start_warm_up(*, force: bool = False) -> threading.Thread | None:
    """Start the process's warm-up thread unless it has been started already or this is not a served app
    (`force`: start it anyway, for tests). Home.py calls this every run; it returns at once. Returns the thread
    when this call started it."""
    global _warm_thread
    if not (force or _served()):
        return None
    with _WARM_LOCK:
        if _warm_thread is not None and (not force or _warm_thread.is_alive()):
            return None
        _warm_thread = threading.Thread(target=_warm, args=(warm_up_steps(),), name=_WARM_THREAD, daemon=True)
        _warm_thread.start()
        return _warm_thread

