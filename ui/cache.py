"""Cached access to the active release and to helm_core computations on it.

The bundled release is loaded once per process (st.cache_resource; pages must treat it as read-only).
Derived results go through `on_release`, which caches a helm_core function per
(release key, arguments) with a bounded st.cache_data, so filtering happens outside the cache
and a user's arguments cannot grow it without limit.
"""
from __future__ import annotations

import functools
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


def active_models() -> tuple[str, ...]:
    """The models of the sidebar's cohort and access filter, on the active release."""
    from . import state

    return tuple(_cohort_models(state.cohort(), state.access_levels()))


@functools.wraps(data.cohort_models)
def _cohort_models(cohort: str, access: tuple[str, ...]) -> list[str]:
    return _cohort_cached(cohort, access=access)


_cohort_cached = on_release(data.cohort_models)
