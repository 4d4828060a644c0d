"""Bench only: `python -m bench.audience --gate N`, `--exam-spec` or `--cpu-split DIR` starts the app's server with
this folder on PYTHONPATH, so changes proposed for Home.py and the home page can be measured before those files
take them, and each run's CPU time split by part.
Home.py stays the main script (page paths resolve as in the app).

- HELM_RUN_SLOTS=N (--gate N): every page run goes through ui.run_gate.slot(), which is what the one-line change
  `with run_gate.slot(): pg.run()` in Home.py does.
- HELM_BENCH_EXAM_SPEC=1 (--exam-spec): the home page's exam dot matrix is built once per (exam, order,
  orientation) and each run gets `charts.figure(spec)` of it, which is what the page gets from the cached-spec
  pattern the other pages use (`exam_spec = cache.on_release(...)`, `charts.figure(exam_spec(models, compact))`).
- HELM_BENCH_EXAM_SPEC=json (--exam-spec json): the same, with the spec cached as plain JSON types and handed to
  st.plotly_chart by a figure whose to_dict() returns it (see _JsonSpecFigure).
- HELM_BENCH_CPU_LOG=FILE (--cpu-split): one JSON line per script run, its thread CPU time split by part (below)."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

if os.environ.get("HELM_RUN_SLOTS"):
    from streamlit.navigation.page import StreamlitPage

    from ui import run_gate

    _run = StreamlitPage.run

    def _gated_run(self):
        with run_gate.slot():
            return _run(self)

    StreamlitPage.run = _gated_run

if os.environ.get("HELM_BENCH_EXAM_SPEC"):
    import json as _json
    import threading

    import pandas as pd
    import plotly.graph_objects as go

    from ui import charts

    _build, _specs, _lock = charts.exam_dot_matrix, {}, threading.Lock()
    _frozen = os.environ["HELM_BENCH_EXAM_SPEC"] == "json"

    class _JsonSpecFigure(go.Figure):
        """--exam-spec json: a figure whose to_dict() is its cached spec, already plain JSON types (lists, not
        object arrays), so st.plotly_chart neither deep-copies it (to_dict) nor walks it in Python (plotly's
        to_json takes the encoder's C path). Read-only: a layout change after this would not reach the chart."""

        def __init__(self, spec):
            super().__init__(spec, _validate=False)
            self._json_spec = spec

        def to_dict(self):
            return self._json_spec

    def _exam_from_spec(exam, model_order, scenario_order, **kw):
        key = (int(pd.util.hash_pandas_object(exam, index=False).sum()), tuple(model_order), tuple(scenario_order),
               tuple(sorted(kw.items())))
        with _lock:
            spec = _specs.get(key)
        if spec is None:
            fig = _build(exam, model_order, scenario_order, **kw)
            spec = _json.loads(fig.to_json()) if _frozen else fig.to_dict()
            with _lock:
                _specs[key] = spec
        return _JsonSpecFigure(spec) if _frozen else charts.figure(spec)

    charts.exam_dot_matrix = _exam_from_spec

if os.environ.get("HELM_BENCH_CPU_LOG"):
    # --cpu-split: each script run's thread CPU time (immune to the machine's other load, unlike a sampling
    # profiler, which counts the time a GIL holder is descheduled), split by what ran inside it. One JSON line per
    # run. What is not in any run (the event loop: session setup, queue flushes, websocket sends) is the process's
    # CPU time less the runs'.
    import functools
    import json
    import threading
    import time

    from streamlit.elements.plotly_chart import PlotlyMixin
    from streamlit.navigation.page import StreamlitPage
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.runtime.scriptrunner_utils import script_run_context

    _local, _log_lock = threading.local(), threading.Lock()
    _log = open(os.environ["HELM_BENCH_CPU_LOG"], "a", buffering=1)  # noqa: SIM115 (the server's lifetime)

    def _timed(name, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            split = getattr(_local, "split", None)
            if split is None or name in _local.open:
                return fn(*args, **kwargs)
            _local.open.add(name)
            t0 = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                split[name] = split.get(name, 0.0) + time.thread_time() - t0
                _local.open.discard(name)
        return wrapper

    _run_script = script_runner.ScriptRunner._run_script

    def _split_run(self, rerun_data):
        _local.split, _local.open = {}, set()
        t0 = time.thread_time()
        try:
            return _run_script(self, rerun_data)
        finally:
            split = {k: round(v * 1e3, 3) for k, v in _local.split.items()}
            split["run"] = round((time.thread_time() - t0) * 1e3, 3)
            _local.split = None
            with _log_lock:
                _log.write(json.dumps(split) + "\n")

    script_runner.ScriptRunner._run_script = _split_run
    StreamlitPage.run = _timed("page", StreamlitPage.run)
    PlotlyMixin.plotly_chart = _timed("st.plotly_chart", PlotlyMixin.plotly_chart)
    import streamlit as _st

    _st.plotly_chart = _timed("st.plotly_chart", _st.plotly_chart)  # bound to the main container at import
    script_run_context.populate_hash_if_needed = _timed("message hash", script_run_context.populate_hash_if_needed)
    if os.environ.get("HELM_BENCH_CPU_APP"):
        import importlib

        from ui import charts as _charts

        _charts.exam_dot_matrix = _timed("exam figure build", _charts.exam_dot_matrix)
        # More parts to time, `module:attribute[.attribute]` comma-separated (each its own key in the split).
        for spec in filter(None, os.environ.get("HELM_BENCH_CPU_WRAP", "").split(",")):
            mod, _, attr = spec.partition(":")
            owner = importlib.import_module(mod)
            *path, last = attr.split(".")
            for part in path:
                owner = getattr(owner, part)
            setattr(owner, last, _timed(spec.rsplit(":", 1)[1], getattr(owner, last)))
