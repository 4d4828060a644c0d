"""Cached access to the active release and to helm_core computations on it.

The bundled release is loaded once per process (st.cache_resource; pages must treat it as read-only).
Derived results go through `on_release`, which caches a helm_core function per
(release key, arguments) with a bounded st.cache_data, so filtering happens outside the cache
and a user's arguments cannot grow it without limit.
"""
from __future__ import annotations

import functools
import threading
from typing import Callable, TypeVar

import streamlit as st

from helm_core import content, data

T = TypeVar("T")
BUNDLED_KEY = "bundled"
_REGISTRY: dict[str, Callable] = {}


@st.cache_resource(show_spinner="Loading HELM classic v0.4.0…")
def bundled_release() -> data.Release:
    return data.load_release()


@st.cache_resource(show_spinner=False)
def claims() -> dict[str, content.Claim]:
    return content.load_claims()


def _session_releases() -> dict[str, data.Release]:
    """Releases this session loaded itself (uploads); never shared with other sessions."""
    return st.session_state.setdefault("_releases", {})


def register_release(key: str, release: data.Release) -> None:
    _session_releases()[key] = release


def get_release(key: str) -> data.Release:
    if key == BUNDLED_KEY:
        return bundled_release()
    rel = _session_releases().get(key)
    if rel is None:
        raise KeyError(key)
    return rel


def active_release_key() -> str:
    key = st.session_state.get("dataset_key", BUNDLED_KEY)
    if key != BUNDLED_KEY and key not in _session_releases():
        key = BUNDLED_KEY
    return key


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


def clear_all() -> None:
    """Clear every cache (tests use this in an autouse fixture)."""
    st.cache_data.clear()
    st.cache_resource.clear()


def active_cohort() -> str:
    """The sidebar's cohort, or "all" when the active release holds no model of the 2022 paper's cohort (a loaded
    suite, a later release): the paper's cohort is the default, and an empty default would show nothing."""
    from . import state

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


# ----------------------------------------------------------------------------- loaded HELM output
# A visitor's upload lives in this session only: the Release in `_session_releases()` and the run files in
# `_session_outputs()`, both under a key made from the content hash. Archives are read in memory by
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


def dataset_options() -> dict[str, str]:
    """Label -> key of the datasets this session can show, bundled first; labels are unique (a second
    upload with the same name gets " · 2"), so a widget can use them as its options."""
    out = {BUNDLED_LABEL: BUNDLED_KEY}
    for k, rel in _session_releases().items():
        label, n = rel.name, 2
        while label in out:
            label, n = f"{rel.name} · {n}", n + 1
        out[label] = k
    return out


def dataset_label(key: str) -> str:
    for label, k in dataset_options().items():
        if k == key:
            return label
    return BUNDLED_LABEL if key == BUNDLED_KEY else key


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
    with _PARSE_LOCK:  # one upload parsed at a time, server-wide: bounds the memory a burst of uploads takes
        out = helm_output.read_helm_upload(data, name, max_upload_bytes=UPLOAD_LIMIT_BYTES)
    _register_output(key, out)
    return key


def load_server_path(path: str) -> str:
    """Read HELM output from a path on the server into this session (only offered when running locally)."""
    from helm_core import helm_output

    out = helm_output.read_helm_output(path)
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
    use_dataset(dataset_options().get(st.session_state.get("dataset_choice", BUNDLED_LABEL), BUNDLED_KEY))


def active_output():
    """The active dataset's HelmOutput (runs and instance files), or None for the bundled release."""
    return _session_outputs().get(active_release_key())


def run_instances(run: str):
    """The instances of one run of the active dataset, parsed on first use and kept for a few runs."""
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


def filtered_instances(run: str, seed: int | None, perturbation: str | None, text: str):
    """helm_output.filter_instances on a run of the active dataset, memoised per session."""
    from helm_core import helm_output

    memo = st.session_state.setdefault(_FILTERED, {})
    k = (active_release_key(), run, seed, perturbation, text)
    if k not in memo:
        memo[k] = helm_output.filter_instances(run_instances(run), seed, perturbation, text)
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


@st.cache_resource(show_spinner="Loading your HELM output…", max_entries=2)
def _configured_output(path: str):
    """(key, HelmOutput) for the configured path, or the error message (cached too, so a bad path is
    reported once per process instead of re-read on every run)."""
    from helm_core import helm_output

    try:
        out = helm_output.read_helm_output(path)
    except data.DataError as exc:
        return str(exc)
    return (f"path-{out.digest[:24]}", out)


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
