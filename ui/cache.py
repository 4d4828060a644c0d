"""Cached access to the active release and to helm_core computations on it.

The bundled release is loaded once per process (st.cache_resource; pages must treat it as read-only).
Derived results go through `on_release`, which caches a helm_core function per
(release key, arguments) with a bounded st.cache_data, so filtering happens outside the cache
and a user's arguments cannot grow it without limit.
"""
from __future__ import annotations

import contextlib
import functools
import threading
from typing import Callable, TypeVar

import streamlit as st

from helm_core import claims as claim_book, content, data

T = TypeVar("T")
BUNDLED_KEY = "bundled"  # the bundled release the sidebar's "Release" choice names (classic unless chosen)
_REGISTRY: dict[str, Callable] = {}

# The releases shipped in data/, as the sidebar's "Release" choice and the URL's `release=` offer them.
RELEASES: dict[str, str] = {
    "classic": "HELM classic v0.4.0",
    "lite": "HELM Lite v1.13.0",
    "capabilities": "HELM Capabilities v1.15.0",
}
RELEASE_KEYS = {name: BUNDLED_KEY if name == "classic" else f"{BUNDLED_KEY}-{name}" for name in RELEASES}


@st.cache_resource(show_spinner="Loading the HELM release…")
def bundled_release(name: str = "classic") -> data.Release:
    return data.load_bundled(name)


@st.cache_resource(show_spinner=False)
def model_matches():
    """The models shared by bundled releases, matched by HELM id (data/releases/model_matches.csv)."""
    return data.load_model_matches()


@st.cache_data(show_spinner="Comparing the bundled releases…")
def moving_targets() -> dict:
    """The Moving Targets page's comparisons of the bundled releases (helm_core.releases), computed once per
    process: summary, group presence, turnover and shared models per pair, classic vs Lite values on their shared
    scenarios, best score per release there, and each release's efficiency metric names."""
    from helm_core import releases as R

    rels = bundled_releases()
    pairs = [("classic", "lite"), ("lite", "capabilities"), ("classic", "capabilities")]
    shared = R.shared_scenarios(rels["classic"], rels["lite"])
    return {
        "names": {k: r.name for k, r in rels.items()},
        "summary": R.release_summary(rels),
        "presence": R.group_presence(rels),
        "turnover": {p: R.model_turnover(rels[p[0]], rels[p[1]]) for p in pairs},
        "shared_models": {p: R.shared_models(rels[p[0]], rels[p[1]]) for p in pairs},
        "shared_scenarios": {p: R.shared_scenarios(rels[p[0]], rels[p[1]]) for p in pairs},
        "values": R.shared_values(rels["classic"], rels["lite"]),
        "best": R.best_scores({k: rels[k] for k in ("classic", "lite")}, shared),
        "efficiency_metrics": {k: R.group_metric_names(r, "efficiency") for k, r in rels.items()},
    }


def release_choice() -> str:
    """The bundled release the sidebar (and the URL's `release=`) chose; "classic" by default."""
    v = st.session_state.get("release", "classic")
    return v if v in RELEASES else "classic"


def bundled_releases() -> dict[str, data.Release]:
    """Every bundled release, classic first (each loaded once per process)."""
    return {name: bundled_release(name) for name in RELEASES}


@st.cache_resource(show_spinner=False)
def claims() -> dict[str, claim_book.Claim]:
    return claim_book.load_claims()


def _session_releases() -> dict[str, data.Release]:
    """Releases this session loaded itself (uploads); never shared with other sessions."""
    return st.session_state.setdefault("_releases", {})


def register_release(key: str, release: data.Release) -> None:
    _session_releases()[key] = release


def get_release(key: str) -> data.Release:
    for name, k in RELEASE_KEYS.items():
        if key == k:
            return bundled_release(name)
    rel = _session_releases().get(key)
    if rel is None:
        raise KeyError(key)
    return rel


def active_release_key() -> str:
    """The session's loaded dataset when one is chosen, else the bundled release the sidebar's Release names."""
    key = st.session_state.get("dataset_key", BUNDLED_KEY)
    if key in _session_releases():
        return key
    return RELEASE_KEYS[release_choice()]


def uses_bundled() -> bool:
    """True when the pages show a bundled release (not a dataset this session loaded)."""
    return active_release_key() in RELEASE_KEYS.values()


def cohort_applies(rel: data.Release | None = None) -> bool:
    """The 2022 paper cohort is a classic notion: the sidebar's cohort filters classic (and loaded data, whose
    models may be marked), never a later bundled release."""
    rel = rel if rel is not None else active_release()
    return not rel.is_later


def active_release() -> data.Release:
    return get_release(active_release_key())


@st.cache_data(max_entries=512, show_spinner=False)
def _call(name: str, key: str, args: tuple, kwargs: tuple):
    # `key` identifies the release; uploads are keyed by content hash, so equal keys mean equal data.
    return _REGISTRY[name](get_release(key), *args, **dict(kwargs))


def on_release(fn: Callable[..., T]) -> Callable[..., T]:
    """Wrap `fn(release, *args, **kwargs)` as a cached `wrapper(*args, **kwargs)` on the active release.
    Arguments must be hashable values (tuples, strings, numbers)."""
    name = f"{fn.__module__}.{fn.__qualname__}"
    _REGISTRY[name] = fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return _call(name, active_release_key(), tuple(args), tuple(sorted(kwargs.items())))

    return wrapper


def measured_groups() -> list[str]:
    """The seven classic metric groups the active release has a value for (helm_core.releases.measured_groups)."""
    return _measured_groups()


def _measured(release: data.Release) -> list[str]:
    from helm_core import releases

    return releases.measured_groups(release)


def clear_all() -> None:
    """Clear every cache (tests use this in an autouse fixture)."""
    st.cache_data.clear()
    st.cache_resource.clear()


def active_cohort() -> str:
    """The sidebar's cohort, or "all" when the active release holds no model of the 2022 paper's cohort (a loaded
    suite, a later release): the paper's cohort is the default, and an empty default would show nothing."""
    from . import state

    if not cohort_applies():
        return "all"  # the 2022 paper cohort is a classic notion
    chosen = state.cohort()
    if chosen == "paper" and not bool(active_release().models["paper_cohort"].fillna(False).astype(bool).any()):
        return "all"
    return chosen


def active_models() -> tuple[str, ...]:
    """The models of the sidebar's cohort (see active_cohort) and access filter, on the active release."""
    from . import state

    return tuple(_cohort_models(active_cohort(), state.access_levels()))


@functools.wraps(data.cohort_models)
def _cohort_models(cohort: str, access: tuple[str, ...]) -> list[str]:
    return _cohort_cached(cohort, access=access)


_cohort_cached = on_release(data.cohort_models)
_measured_groups = on_release(_measured)


# ----------------------------------------------------------------------------- loaded HELM output
# A visitor's upload lives in this session only: the Release in `_session_releases()` and the HelmOutput (run
# index, stats, and the archive its instance files are read from on demand) in `_session_outputs()`, both under
# a key made from the content hash. Archives are read in memory by
# helm_core.helm_output (no temporary files are written). A server path given at start-up
# (`streamlit run Home.py -- --helm-output PATH` or HELM_OUTPUT) is the operator's own data: it is loaded
# once per process and offered to every session.

UPLOAD_LIMIT_MB = 200  # keep in step with server.maxUploadSize in .streamlit/config.toml
UPLOAD_LIMIT_BYTES = UPLOAD_LIMIT_MB * 1_000_000  # decimal MB, within the widget's 200 MiB
MAX_SESSION_DATASETS = 3
_OUTPUTS = "_helm_outputs"
_INSTANCES = "_helm_instances"
_FILTERED = "_helm_filtered"
_CONFIGURED_SEEN = "_helm_configured_seen"
_FORGOTTEN = "_helm_forgotten"
_INSTANCE_ENTRIES = 4


def _session_outputs() -> dict:
    """HELM outputs this session loaded (key -> helm_output.HelmOutput); never shared with other sessions."""
    return st.session_state.setdefault(_OUTPUTS, {})


def session_dataset_keys() -> list[str]:
    """Keys of the datasets this session loaded (not the bundled one), oldest first."""
    return list(_session_releases())


BUNDLED_LABEL = "HELM classic v0.4.0 (bundled)"


def bundled_label() -> str:
    """The Dataset radio's label for the bundled release the sidebar's Release names."""
    name = release_choice()
    return BUNDLED_LABEL if name == "classic" else f"{RELEASES[name]} (bundled)"


def dataset_options() -> dict[str, str]:
    """Label -> key of the datasets this session can show, bundled first; labels are unique (a second
    upload with the same name gets " · 2"), so a widget can use them as its options. The bundled entry is
    the release the sidebar's Release names."""
    out = {bundled_label(): BUNDLED_KEY}
    for k, rel in _session_releases().items():
        label, n = rel.name, 2
        while label in out:
            label, n = f"{rel.name} · {n}", n + 1
        out[label] = k
    return out


def dataset_label(key: str) -> str:
    if key in RELEASE_KEYS.values():
        key = BUNDLED_KEY
    for label, k in dataset_options().items():
        if k == key:
            return label
    return key


def _register_output(key: str, output) -> None:
    outs = _session_outputs()
    rels = _session_releases()
    outs[key] = output
    rels[key] = output.release
    keep = {key, st.session_state.get("dataset_key", BUNDLED_KEY)}
    while len(rels) > MAX_SESSION_DATASETS:
        oldest = next((k for k in rels if k not in keep), None)
        if oldest is None:
            break
        forget_dataset(oldest)


def content_key(prefix: str, data: bytes) -> str:
    import hashlib

    return f"{prefix}-{hashlib.sha256(data).hexdigest()[:24]}"


_PARSE_LOCK = threading.Lock()


def load_upload(name: str, data: bytes) -> str:
    """Read an uploaded HELM zip (or a single groups .json) into this session; returns its key. Raises
    data.DataError (the session keeps its datasets unchanged)."""
    from helm_core import helm_output

    key = content_key("upload", data)
    st.session_state.get(_FORGOTTEN, set()).discard(key)
    if key in _session_outputs():
        return key
    with _PARSE_LOCK, load_progress("Reading the upload:") as progress:  # one upload parsed at a time, server-wide
        out = helm_output.read_helm_upload(data, name, max_upload_bytes=UPLOAD_LIMIT_BYTES, progress=progress)
    _register_output(key, out)
    return key


def load_server_path(path: str) -> str:
    """Read HELM output from a path on the server into this session (only offered when running locally)."""
    from helm_core import helm_output

    with load_progress("Reading the folder:") as progress:
        out = helm_output.read_helm_output(path, progress=progress)
    key = f"path-{out.digest[:24]}"
    st.session_state.get(_FORGOTTEN, set()).discard(key)
    _register_output(key, out)
    return key


def use_dataset(key: str) -> None:
    """Make `key` the active dataset of this session (every page follows st.session_state['dataset_key'])."""
    st.session_state["dataset_key"] = key if key == BUNDLED_KEY or key in _session_releases() else BUNDLED_KEY


def forget_dataset(key: str) -> None:
    st.session_state.setdefault(_FORGOTTEN, set()).add(key)
    _session_releases().pop(key, None)
    _session_outputs().pop(key, None)
    for name in (_INSTANCES, _FILTERED):
        memo = st.session_state.get(name, {})
        for k in [k for k in memo if k[0] == key]:
            memo.pop(k, None)
    if st.session_state.get("dataset_key") == key:
        st.session_state["dataset_key"] = BUNDLED_KEY


def choose_dataset_from_widget() -> None:
    """on_change of the sidebar's dataset radio (its options are the labels of `dataset_options`)."""
    use_dataset(dataset_options().get(st.session_state.get("dataset_choice", bundled_label()), BUNDLED_KEY))


def active_output():
    """The active dataset's HelmOutput (runs and instance files), or None for the bundled release."""
    return _session_outputs().get(active_release_key())


def leaderboard_tables() -> tuple[list, bool]:
    """(tables, from HELM's files) of the active dataset: HELM's own groups/*.json tables when the loaded output
    has them (read once per dataset), else the release's tidy results rebuilt per metric group for the sidebar's
    models (helm_core.leaderboard)."""
    out = active_output()
    if out is not None and out.table_files:
        return out.leaderboard(), True
    return _rebuilt_tables(models=active_models()), False


def _rebuilt(release: data.Release, models: tuple[str, ...]) -> list:
    from helm_core import leaderboard

    return leaderboard.rebuilt_tables(release, models)


_rebuilt_tables = on_release(_rebuilt)


def run_instances(run: str, source: str | None = None):
    """The instances of one run of the active dataset (or of bundled source `source`, see `bundled_output`),
    parsed on first use and kept for a few runs."""
    if source is not None and source.startswith(REAL_PREFIX):
        return bundled_instances(source, run)
    key = active_release_key()
    out = _session_outputs().get(key)
    if out is None:
        raise KeyError(run)
    memo = st.session_state.setdefault(_INSTANCES, {})
    k = (key, run)
    if k not in memo:
        memo[k] = out.instances(run)
        while len(memo) > _INSTANCE_ENTRIES:
            memo.pop(next(iter(memo)))
    return memo[k]


def filtered_instances(run: str, seed: int | None, perturbation: str | None, text: str, source: str | None = None):
    """helm_output.filter_instances on a run of the active dataset (or of bundled source `source`), memoised
    per session."""
    from helm_core import helm_output

    memo = st.session_state.setdefault(_FILTERED, {})
    k = (source or active_release_key(), run, seed, perturbation, text)
    if k not in memo:
        memo[k] = helm_output.filter_instances(run_instances(run, source), seed, perturbation, text)
        while len(memo) > 16:
            memo.pop(next(iter(memo)))
    return memo[k]


def configured_output_path() -> str | None:
    """The server path given at start-up: `-- --helm-output PATH` on the command line, else HELM_OUTPUT."""
    import os
    import sys

    args = sys.argv[1:]
    for i, a in enumerate(args):
        if a == "--helm-output" and i + 1 < len(args):
            return args[i + 1]
        if a.startswith("--helm-output="):
            return a.split("=", 1)[1] or None
    return os.environ.get("HELM_OUTPUT") or None


def server_paths_allowed() -> bool:
    """Typing a server path on the data page is offered only when the operator runs the app locally and
    says so: a configured --helm-output / HELM_OUTPUT, or HELM_EXPLORER_LOCAL=1."""
    import os

    return configured_output_path() is not None or os.environ.get("HELM_EXPLORER_LOCAL") == "1"


@contextlib.contextmanager
def load_progress(label: str):
    """A progress bar while a HELM output is read: yields the `progress(done, total)` callback that
    helm_core.helm_output calls as run folders are read; the bar is removed when reading ends."""
    bar = st.progress(0.0, text=label)

    def progress(done: int, total: int) -> None:
        bar.progress(min(done / total, 1.0) if total else 1.0,
                     text=f"{label} {done:,} of {total:,} run folders read")

    try:
        yield progress
    finally:
        bar.empty()


@st.cache_resource(show_spinner=False)
def _configured_store() -> dict:
    """Process-wide results of loading the configured path (a fresh dict when st.cache_resource is cleared).
    Not an st.cache_resource of the load itself: a cached function would record and replay the progress bar."""
    return {}


_CONFIGURED_LOCK = threading.Lock()
_CONFIGURED_ENTRIES = 2


def _configured_output(path: str):
    """(key, HelmOutput) for the configured path, or the error message (kept too, so a bad path is
    reported once per process instead of re-read on every run). Read once per process, with a progress
    bar in the session that reads it; other sessions arriving meanwhile wait for it."""
    from helm_core import helm_output

    store = _configured_store()
    with _CONFIGURED_LOCK:
        if path in store:
            return store[path]
        try:
            with load_progress("Loading your HELM output:") as progress:
                out = helm_output.read_helm_output(path, progress=progress)
        except data.DataError as exc:
            res = str(exc)
        else:
            res = (f"path-{out.digest[:24]}", out)
        store[path] = res
        while len(store) > _CONFIGURED_ENTRIES:
            store.pop(next(iter(store)))
        return res


def ensure_configured_output() -> str | None:
    """Offer the configured server path to this session (loaded once per process); on a session's first
    run it becomes the active dataset. Returns an error message when it cannot be loaded."""
    path = configured_output_path()
    if not path:
        return None
    res = _configured_output(path)
    if isinstance(res, str):
        return res
    key, out = res
    if key not in _session_outputs() and key not in st.session_state.get(_FORGOTTEN, set()):
        first = not st.session_state.get(_CONFIGURED_SEEN, False)
        _register_output(key, out)
        if first and "dataset_key" not in st.session_state:
            st.session_state["dataset_key"] = key
    st.session_state[_CONFIGURED_SEEN] = True
    return None


# ----------------------------------------------------------------------------- bundled genuine HELM runs
# data/real_runs/ holds genuine HELM run folders in HELM's own layout, read by the same importer as an upload.
# Loaded once per process; pages treat the outputs and instance frames as read-only.

REAL_PREFIX = "real:"


@st.cache_resource(show_spinner=False)
def bundled_sources() -> dict:
    """Source key ("real:safety", "real:babi") -> helm_core.real_runs.Source (data/real_runs/sources.json)."""
    from helm_core import real_runs

    return {REAL_PREFIX + s.key: s for s in real_runs.load_sources()}


@st.cache_resource(show_spinner="Loading the bundled HELM runs…", max_entries=4)
def bundled_output(source: str):
    """The helm_output.HelmOutput of one bundled source (read-only), loaded on first use."""
    from helm_core import helm_output, real_runs

    return helm_output.read_helm_output(real_runs.REAL_RUNS / bundled_sources()[source].path)


@st.cache_resource(max_entries=40, show_spinner=False)
def bundled_instances(source: str, run: str):
    """The instances of one bundled run folder (read-only), read from that folder alone (the whole source
    need not be loaded)."""
    from helm_core import helm_output, real_runs

    folder = real_runs.REAL_RUNS / bundled_sources()[source].path / run
    if run in ("", ".", "..") or "/" in run or not folder.is_dir():
        raise KeyError(run)
    return helm_output.load_instances(folder)


def bundled_frames(source: str, scenario: str) -> dict:
    """Model -> instances of every bundled run of `scenario` in `source`, in the runs table's order."""
    runs = bundled_output(source).runs
    sel = runs[runs["scenario"] == scenario]
    return {m: bundled_instances(source, r) for m, r in zip(sel["model"], sel["run"])}


@st.cache_data(max_entries=16, show_spinner=False)
def bundled_agreement(source: str, scenario: str, stat: str | None = None):
    """helm_core.real_runs.agreement over the shared instances of a bundled scenario."""
    from helm_core import real_runs

    frames = bundled_frames(source, scenario)
    return real_runs.agreement(frames, real_runs.shared_instances(frames), stat)


@st.cache_data(max_entries=64, show_spinner=False)
def bundled_side_by_side(source: str, scenario: str, instance_id: str, stats: tuple[str, ...] = ()):
    """helm_core.real_runs.side_by_side of one instance across the bundled runs of a scenario."""
    from helm_core import real_runs

    return real_runs.side_by_side(bundled_frames(source, scenario), instance_id, stats)


@st.cache_data(max_entries=16, show_spinner=False)
def bundled_trials(source: str, run: str):
    """(helm_core.real_runs.trial_changes, share_changed) of a bundled run."""
    from helm_core import real_runs

    inst = bundled_instances(source, run)
    return real_runs.trial_changes(inst), real_runs.share_changed(inst)


@st.cache_data(max_entries=32, show_spinner=False)
def bundled_reliability(source: str, run: str, strategy: str = "equal_mass") -> dict:
    """helm_core.real_runs.reliability of a bundled run with log-probabilities."""
    from helm_core import real_runs

    return real_runs.reliability(bundled_instances(source, run), strategy=strategy)


@st.cache_data(max_entries=4, show_spinner=False)
def bundled_confident_runs(source: str):
    """The runs of a bundled source whose instances carry real probabilities (a table of the runs frame)."""
    from helm_core import real_runs

    runs = bundled_output(source).runs
    has = {r: bool(bundled_instances(source, r)["prob"].notna().any()) for r in runs["run"]}
    return real_runs.runs_with_confidences(runs, has)


@st.cache_data(max_entries=16, show_spinner=False)
def _method_comparison(key: str, _output):
    from helm_core import calibration

    return calibration.method_comparison(_output.runs, _output.run_stats, _output.release.taxonomy.scenarios)


def method_comparison():
    """helm_core.calibration.method_comparison of the active dataset: its own runs of one model on one scenario under
    several multiple-choice methods (empty for a bundled release, which carries no run folders)."""
    from helm_core import calibration

    output = active_output()
    if output is None:
        return calibration.method_comparison(None, None, None)
    return _method_comparison(active_release_key(), output)


# ----------------------------------------------------------------------------- warm-up once per process
# The first visit of a page in a fresh server process read the bundled files its views need (the genuine safety
# runs alone ~1.7 s, their per-question agreement ~3 s): a presenter's first PageDown onto such a page waited for
# it. The first run of any session starts one background thread per process that loads them into the same
# process-wide caches the pages use (a session that asks for one meanwhile waits on the cache's own lock for
# that value, never computes it twice).

_WARM_LOCK = threading.Lock()
_warm_thread: threading.Thread | None = None


def warm_up_steps() -> list[tuple[str, Callable[[], object]]]:
    """What the warm-up loads, in order: (name, loader). Everything here is process-wide and the same for every
    visitor (bundled files only; nothing of a session, so no upload and no session state)."""
    steps: list[tuple[str, Callable[[], object]]] = [(f"release {name}", functools.partial(bundled_release, name))
                                                     for name in RELEASES]
    steps += [("claims", claims), ("model matches", model_matches), ("bundled sources", bundled_sources)]
    safety, babi = REAL_PREFIX + "safety", REAL_PREFIX + "babi"
    steps += [(f"bundled output {s}", functools.partial(bundled_output, s)) for s in (safety, babi)]
    # The Prompts & Completions page's first view (either exam) and the calibration page's real-confidence runs.
    steps += [("agreement BBQ", functools.partial(bundled_agreement, safety, "BBQ", None)),
              ("agreement XSTest", functools.partial(bundled_agreement, safety, "XSTest", "xst_score")),
              ("confident runs", functools.partial(bundled_confident_runs, safety)),
              ("moving targets", moving_targets)]
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
