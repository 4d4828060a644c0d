"""The datasets a session loads itself: an upload, a server path, the operator's configured path; choosing,
labelling and forgetting them.

A visitor's upload lives in this session only, in the session's registry in ui.cache (`cache.session_releases`,
`cache.session_outputs`, under a key made from the content hash), which the pages read through ui.cache
(`active_release`, `active_output`, `run_instances`). Archives are read in memory by helm_core.helm_output (no
temporary files are written). A server path given at start-up (`streamlit run Home.py -- --helm-output PATH` or
HELM_OUTPUT) is the operator's own data: it is loaded once per process and offered to every session.
"""
from __future__ import annotations

import contextlib
import threading

import streamlit as st

from helm_core import data

from . import cache

UPLOAD_LIMIT_MB = 200  # keep in step with server.maxUploadSize in .streamlit/config.toml
UPLOAD_LIMIT_BYTES = UPLOAD_LIMIT_MB * 1_000_000  # decimal MB, within the widget's 200 MiB
MAX_SESSION_DATASETS = 3
_CONFIGURED_SEEN = "_helm_configured_seen"
_FORGOTTEN = "_helm_forgotten"
BUNDLED_LABEL = "HELM classic v0.4.0 (bundled)"


def bundled_label() -> str:
    """The Dataset radio's label for the bundled release the sidebar's Release names."""
    name = cache.release_choice()
    return BUNDLED_LABEL if name == "classic" else f"{cache.RELEASES[name]} (bundled)"


def dataset_options() -> dict[str, str]:
    """Label -> key of the datasets this session can show, bundled first; labels are unique (a second
    upload with the same name gets " · 2"), so a widget can use them as its options. The bundled entry is
    the release the sidebar's Release names."""
    out = {bundled_label(): cache.BUNDLED_KEY}
    for k, rel in cache.session_releases().items():
        label, n = rel.name, 2
        while label in out:
            label, n = f"{rel.name} · {n}", n + 1
        out[label] = k
    return out


def dataset_label(key: str) -> str:
    if key in cache.RELEASE_KEYS.values():
        key = cache.BUNDLED_KEY
    for label, k in dataset_options().items():
        if k == key:
            return label
    return key


def _register_output(key: str, output) -> None:
    cache.add_session_output(key, output)
    rels = cache.session_releases()
    keep = {key, st.session_state.get("dataset_key", cache.BUNDLED_KEY)}
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
    if key in cache.session_outputs():
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
    bundled = cache.BUNDLED_KEY
    st.session_state["dataset_key"] = key if key == bundled or key in cache.session_releases() else bundled


def forget_dataset(key: str) -> None:
    st.session_state.setdefault(_FORGOTTEN, set()).add(key)
    cache.drop_session_dataset(key)
    if st.session_state.get("dataset_key") == key:
        st.session_state["dataset_key"] = cache.BUNDLED_KEY


def choose_dataset_from_widget() -> None:
    """on_change of the sidebar's dataset radio (its options are the labels of `dataset_options`)."""
    use_dataset(dataset_options().get(st.session_state.get("dataset_choice", bundled_label()), cache.BUNDLED_KEY))


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
    if key not in cache.session_outputs() and key not in st.session_state.get(_FORGOTTEN, set()):
        first = not st.session_state.get(_CONFIGURED_SEEN, False)
        _register_output(key, out)
        if first and "dataset_key" not in st.session_state:
            st.session_state["dataset_key"] = key
    st.session_state[_CONFIGURED_SEEN] = True
    return None

