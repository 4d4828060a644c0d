"""Cached access to the active release and to helm_core computations on it.

The bundled releases are loaded once per process (st.cache_resource; pages must treat them as read-only).
Derived results go through `on_release`, which caches a helm_core function per
(release key, arguments) with a bounded st.cache_data, so filtering happens outside the cache
and a user's arguments cannot grow it without limit. The session's own datasets live in a per-session registry
here (`session_releases`, `session_outputs`), which ui.datasets fills (uploads, server paths); the genuine HELM
runs in data/real_runs/ are cached here too. ui.warm_up loads the process-wide caches in the background.
"""
from __future__ import annotations

import functools
from typing import Callable, TypeVar

import streamlit as st

from helm_core import claims as claim_book, data

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
    v = st.session_state.get("release")
    if v is None:  # a link's first run, before the bound Release radio is drawn (the page titles, the page list)
        v = st.query_params.get("release")
    return v if v in RELEASES else "classic"


def bundled_releases() -> dict[str, data.Release]:
    """Every bundled release, classic first (each loaded once per process)."""
    return {name: bundled_release(name) for name in RELEASES}


@st.cache_resource(show_spinner=False)
def claims() -> dict[str, claim_book.Claim]:
    return claim_book.load_claims()


def session_releases() -> dict[str, data.Release]:
    """Releases this session loaded itself (uploads); never shared with other sessions."""
    return st.session_state.setdefault("_releases", {})


def get_release(key: str) -> data.Release:
    for name, k in RELEASE_KEYS.items():
        if key == k:
            return bundled_release(name)
    rel = session_releases().get(key)
    if rel is None:
        raise KeyError(key)
    return rel


def active_release_key() -> str:
    """The session's loaded dataset when one is chosen, else the bundled release the sidebar's Release names."""
    key = st.session_state.get("dataset_key", BUNDLED_KEY)
    if key in session_releases():
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


# ----------------------------------------------------------------------------- the session's own datasets
# A dataset this session loaded (ui.datasets: an upload, a server path, the configured path) lives in this session
# only: its Release in `session_releases()` and its HelmOutput (run index, stats, and the archive its instance files
# are read from on demand) in `session_outputs()`, both under a key made from the content hash.

_OUTPUTS = "_helm_outputs"
_INSTANCES = "_helm_instances"
_FILTERED = "_helm_filtered"
_INSTANCE_ENTRIES = 4


def session_outputs() -> dict:
    """HELM outputs this session loaded (key -> helm_output.HelmOutput); never shared with other sessions."""
    return st.session_state.setdefault(_OUTPUTS, {})


def session_dataset_keys() -> list[str]:
    """Keys of the datasets this session loaded (not the bundled one), oldest first."""
    return list(session_releases())


def add_session_output(key: str, output) -> None:
    """Keep a HelmOutput this session loaded (and its Release) under `key`."""
    session_outputs()[key] = output
    session_releases()[key] = output.release


def drop_session_dataset(key: str) -> None:
    """Drop a dataset of this session: its Release, its HelmOutput and the instances read from it."""
    session_releases().pop(key, None)
    session_outputs().pop(key, None)
    for name in (_INSTANCES, _FILTERED):
        memo = st.session_state.get(name, {})
        for k in [k for k in memo if k[0] == key]:
            memo.pop(k, None)


def active_output():
    """The active dataset's HelmOutput (runs and instance files), or None for the bundled release."""
    return session_outputs().get(active_release_key())


def run_instances(run: str, source: str | None = None):
    """The instances of one run of the active dataset (or of bundled source `source`, see `bundled_output`),
    parsed on first use and kept for a few runs."""
    if source is not None and source.startswith(REAL_PREFIX):
        return bundled_instances(source, run)
    key = active_release_key()
    out = session_outputs().get(key)
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
