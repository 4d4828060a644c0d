"""Reading the editable content files (data/*.toml): TOML parsing, prose, and the field checks their loaders share.

Content lives in data/*.toml so it can be edited without touching code. Each kind of content has its loader
beside its dataclasses: claims in helm_core.claims, the limits stepper and related threads in helm_core.critique,
the targeted studies in helm_core.studies, the source trail in helm_core.references. Every loader raises DataError
naming the file and the entry when something is wrong. The speaker view's time plan, a single table, is read here.
"""
from __future__ import annotations

import re as _re
import tomllib
from pathlib import Path

from .data import BUNDLED, DataError

ID_RE = _re.compile(r"^[A-Za-z0-9_-]+$")  # an entry's id, or a topic token: letters, digits, '-' and '_'


def read_toml(path: Path) -> dict:
    """A content file parsed as TOML; DataError when it is missing or not valid TOML (or not UTF-8)."""
    if not path.exists():
        raise DataError(f"{path.name}: content file is missing from {path.parent}")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: not valid TOML ({exc})") from exc


def prose(text: str) -> str:
    """Markdown prose from a TOML multi-line string: lines wrapped in the file are joined into one paragraph
    (a renderer that keeps single newlines would show a stray break), blank lines still separate paragraphs,
    and list items ("- ...") keep their own lines."""
    paragraphs = _re.split(r"\n\s*\n", text.strip())
    out = []
    for para in paragraphs:
        lines = [ln.strip() for ln in para.splitlines() if ln.strip()]
        joined: list[str] = []
        for ln in lines:
            if joined and not ln.startswith(("- ", "* ", "1. ", "|")) and not joined[-1].startswith("|"):
                joined[-1] += " " + ln
            else:
                joined.append(ln)
        out.append("\n".join(joined))
    return "\n\n".join(out)


def require_fields(entry: dict, fields: tuple[str, ...], where: str) -> None:
    """Raise DataError when an entry lacks a required, non-empty field."""
    for f in fields:
        v = entry.get(f)
        if v is None or (isinstance(v, str) and not v.strip()):
            raise DataError(f"{where}: missing required field '{f}'")


def table_entries(raw: dict, table: str, fname: str) -> list[dict]:
    """The [[`table`]] entries of a parsed file; DataError unless there is at least one and each is a table."""
    entries = raw.get(table, [])
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise DataError(f"{fname}: expected one or more [[{table}]] tables")
    return entries


def str_list(entry: dict, field: str, where: str, *, required: bool = False) -> tuple[str, ...]:
    """An entry's list of non-empty strings (empty when absent, unless `required`), as a tuple."""
    v = entry.get(field, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        raise DataError(f"{where}: '{field}' must be a list of non-empty strings")
    if required and not v:
        raise DataError(f"{where}: '{field}' must list at least one entry")
    return tuple(v)


def str_field(entry: dict, field: str, where: str, default: str = "") -> str:
    """An entry's optional string field (`default` when absent); DataError when it is not a string."""
    v = entry.get(field, default)
    if not isinstance(v, str):
        raise DataError(f"{where}: '{field}' must be a string, found {type(v).__name__}")
    return v


def bool_field(entry: dict, field: str, where: str, default: bool) -> bool:
    """An entry's optional true/false field (`default` when absent); DataError when it is not a boolean."""
    v = entry.get(field, default)
    if not isinstance(v, bool):
        raise DataError(f"{where}: '{field}' must be true or false")
    return v


def check_id(value: str, where: str, seen: set[str]) -> None:
    """Check an entry's id (letters, digits, '-' and '_'; not in `seen`) and add it to `seen`."""
    if not ID_RE.match(value):
        raise DataError(f"{where}: id {value!r} may only use letters, digits, '-' and '_'")
    if value in seen:
        raise DataError(f"{where}: id {value!r} is used twice")
    seen.add(value)


def id_entries(raw: dict, table: str, fname: str, fields: tuple[str, ...]):
    """Each [[`table`]] entry of a parsed file with its place for messages ("file: table #i (id)"), once its `id`
    and `fields` are present and its id is well formed and not used before in the file."""
    seen: set[str] = set()
    for i, e in enumerate(table_entries(raw, table, fname), start=1):
        where = f"{fname}: {table} #{i} ({e.get('id', 'no id')})"
        require_fields(e, ("id", *fields), where)
        check_id(e["id"], where, seen)
        yield e, where


def sub_tables(entry: dict, field: str, where: str, what: str, fields: tuple[str, ...], *,
               required: bool = False, shown: tuple[str, ...] = ()) -> list[tuple[dict, str]]:
    """An entry's list of inline tables in `field` (each a `what`, with its place for messages), once each has
    `fields`; DataError when `field` is not a list of tables, or empty and `required`. `shown` names the fields a
    message asks for (default `fields`)."""
    names = " and ".join(f"'{f}'" for f in (shown or fields))
    raw = entry.get(field, [])
    if not isinstance(raw, list) or (required and not raw):
        need = f"must list at least one {what} table" if required else f"must be a list of {what} tables"
        raise DataError(f"{where}: '{field}' {need} with {names}")
    out = []
    for j, t in enumerate(raw, start=1):
        w = f"{where}, {what} #{j}"
        if not isinstance(t, dict):
            raise DataError(f"{w}: expected a table with {names}")
        require_fields(t, fields, w)
        out.append((t, w))
    return out


def content_path(path: str | Path | None, name: str) -> Path:
    """The file to read: `path` when given, else the bundled data/`name`."""
    return Path(path) if path is not None else BUNDLED / name


def load_time_plan(path: Path | None = None) -> dict[str, float]:
    """The speaker view's default plan (data/showtime.toml): minutes per section, keyed by the page's url path.
    Each budget is a number from 0 to 120 minutes."""
    path = path or BUNDLED / "showtime.toml"
    raw = read_toml(path).get("plan")
    if not isinstance(raw, dict):
        raise DataError(f"{path.name}: missing the [plan] table (minutes per section)")
    plan: dict[str, float] = {}
    for key, minutes in raw.items():
        if isinstance(minutes, bool) or not isinstance(minutes, (int, float)) or not 0 <= minutes <= 120:
            raise DataError(f"{path.name}: [plan] {key!r} must be a number of minutes from 0 to 120, not {minutes!r}")
        plan[str(key)] = float(minutes)
    return plan
