"""Typed access to fields of parsed JSON, with a DataError naming the file and field, and `clean_name` for
names from the files (one line, printable, of bounded length; shown literally by helm_core.escape)."""
from __future__ import annotations

from typing import Any

from ..data import DataError

# ----------------------------------------------------------------------------- typed access


def _tname(v: Any) -> str:
    if v is None:
        return "null"
    return {bool: "true/false", int: "a number", float: "a number", str: "text", list: "a list",
            dict: "an object"}.get(type(v), type(v).__name__)


def _expect(v: Any, kind: type | tuple, where: str, what: str) -> Any:
    ok = isinstance(v, kind) and not (isinstance(v, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)))
    if not ok:
        raise DataError(f"{where}: expected {what}, found {_tname(v)}")
    return v


def _num(v: Any, where: str, *, allow_none: bool = True) -> float:
    if v is None and allow_none:
        return float("nan")
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise DataError(f"{where}: expected a number{' or null' if allow_none else ''}, found {_tname(v)}")
    return float(v)


def _opt_str(v: Any, where: str) -> str:
    if v is None:
        return ""
    return _expect(v, str, where, "text")


def clean_name(value: Any, limit: int = 120) -> str:
    """A name from the files (model, scenario, metric, file name) on one printable line: control characters
    replaced by spaces, whitespace collapsed, at most `limit` characters. Its characters are kept as written
    (`_ * [ ] < > & | $ ~` included): each destination escapes it (helm_core.escape), so it shows literally.
    Prompts and completions are never cleaned: they are shown as text only."""
    text = str(value)
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else " " for ch in text)
    text = " ".join(text.split())
    return text[:limit]
