"""Safe access to HELM output on disk or in a zip archive: member-name checks, size and file-count limits,
and JSON parsing with per-file limits. Nothing here knows HELM's formats beyond which file names matter."""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat as stat_mod
import struct
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from ..data import DataError

DEFAULT_MAX_BYTES = 500_000_000
DEFAULT_MAX_FILES = 20_000
DEFAULT_MAX_UPLOAD_BYTES = 200_000_000  # 200 MB, within Streamlit's server.maxUploadSize (200 MiB)
# One JSON file is parsed whole, and Python objects take 5-30x the bytes: bound what one parse can cost.
# HELM's own files are far smaller (a 1,000-instance run: per_instance_stats.json ~8 MB, ~60k objects).
MAX_JSON_BYTES = 32_000_000
MAX_JSON_CONTAINERS = 1_000_000  # '{' and '[' bytes, an upper bound on objects and lists

RUN_MARKERS = ("run_spec.json", "stats.json", "per_instance_stats.json", "scenario_state.json",
               "display_predictions.json", "display_requests.json")
RUN_FILES = RUN_MARKERS + ("scenario.json", "instances.json")
REQUIRED_RUN_FILES = ("run_spec.json", "stats.json")
SUITE_FILES = ("schema.json", "summary.json")
# Suite-level JSON files that are not leaderboard tables.
NOT_TABLES = {"summary.json", "schema.json", "runs.json", "run_specs.json", "groups.json", "groups_metadata.json",
              "costs.json", "runs_to_run_suites.json", "execution_spec.json"}
# ----------------------------------------------------------------------------- files


@dataclass(frozen=True)
class _Tree:
    """The relevant files of an input, in memory: posix path relative to the input -> zlib bytes."""

    label: str
    files: dict[str, bytes]
    digest: str
    skipped_links: tuple[str, ...] = ()

    def has(self, rel: str) -> bool:
        return rel in self.files

    def read(self, rel: str) -> bytes:
        return zlib.decompress(self.files[rel])

    def json(self, rel: str) -> Any:
        return _parse_json(self.read(rel), rel)


def _check_json_size(where: str, size: int) -> None:
    if size > MAX_JSON_BYTES:
        raise DataError(f"{where}: {_mb(size)} of JSON is over the per-file limit of {_mb(MAX_JSON_BYTES)} "
                        "(HELM's own result files are far smaller)")


def _parse_json(raw: bytes, where: str) -> Any:
    if len(raw) == 0:
        raise DataError(f"{where}: file is empty (expected JSON)")
    _check_json_size(where, len(raw))
    containers = raw.count(b"{") + raw.count(b"[")
    if containers > MAX_JSON_CONTAINERS:
        raise DataError(f"{where}: up to {containers:,} JSON objects and lists, over the per-file limit of "
                        f"{MAX_JSON_CONTAINERS:,} (HELM's own result files hold far fewer)")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise DataError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise DataError(f"{where}: malformed JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    except RecursionError:
        raise DataError(f"{where}: JSON nested too deeply") from None


def _wanted(rel: str) -> bool:
    """Files the loader reads: run files, suite files, and leaderboard tables (groups/<group>.json or a
    JSON file at the top of the input)."""
    p = PurePosixPath(rel)
    if p.name in RUN_FILES or p.name in SUITE_FILES:
        return True
    if p.suffix.lower() != ".json":
        return False
    return (len(p.parts) >= 2 and p.parts[-2] == "groups") or len(p.parts) == 1


def _mb(n: int) -> str:
    return f"{n / 1_000_000:,.1f} MB"


def _check_member_name(name: str, label: str) -> str:
    """A zip member name, checked: relative, no '..', no drive letters. Returns the posix path."""
    norm = name.replace("\\", "/")
    if norm.startswith("/") or re.match(r"^[A-Za-z]:", norm):
        raise DataError(f"{label}: member {name[:120]!r} has an absolute path; archives must hold relative paths")
    parts = [p for p in norm.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise DataError(f"{label}: member {name[:120]!r} points outside the archive ('..' in its path)")
    if "\x00" in norm:
        raise DataError(f"{label}: member {name[:120]!r} has a NUL byte in its name")
    return "/".join(parts)


# What zipfile raises on a damaged or unusual archive: an unsupported compression method or zip feature
# surfaces as the standard library's NotImplementedError, a truncated header as struct.error or EOFError.
_ZIP_OPEN_ERRORS = (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, NotImplementedError, EOFError,
                    UnicodeDecodeError, struct.error)


def _collect_zip(data: bytes, label: str, max_bytes: int, max_files: int) -> _Tree:
    if len(data) == 0:
        raise DataError(f"{label}: file is empty (0 bytes); expected a .zip archive of HELM output")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_OPEN_ERRORS as exc:
        raise DataError(f"{label}: not a readable zip archive ({exc})") from None
    with zf:
        try:
            infos = zf.infolist()
        except Exception as exc:  # noqa: BLE001 - a corrupt central directory can raise many things
            raise DataError(f"{label}: not a readable zip archive ({exc})") from None
        files = [i for i in infos if not i.is_dir()]
        if len(files) > max_files:
            raise DataError(f"{label}: the archive holds {len(files):,} files, over the limit of {max_files:,}")
        total = 0
        for info in infos:
            _check_member_name(info.filename, label)
            mode = (info.external_attr >> 16) & 0xFFFF
            if stat_mod.S_ISLNK(mode):
                raise DataError(f"{label}: member {info.filename[:120]!r} is a symbolic link; links are not accepted")
            if info.flag_bits & 0x1:
                raise DataError(f"{label}: member {info.filename[:120]!r} is encrypted")
            total += max(int(info.file_size), 0)
        if total > max_bytes:
            raise DataError(
                f"{label}: the archive unpacks to {_mb(total)}, over the limit of {_mb(max_bytes)}"
            )
        if not files:
            raise DataError(f"{label}: the archive is empty (no files)")
        out: dict[str, bytes] = {}
        read_total = 0
        for info in files:
            rel = _check_member_name(info.filename, label)
            if not rel or not _wanted(rel):
                continue
            _check_json_size(rel, info.file_size)  # every file the loader reads is JSON: refuse before unpacking
            try:
                with zf.open(info) as fh:
                    chunks, n = [], 0
                    while True:
                        chunk = fh.read(1 << 20)
                        if not chunk:
                            break
                        n += len(chunk)
                        read_total += len(chunk)
                        if n > info.file_size or read_total > max_bytes:
                            raise DataError(
                                f"{label}: member {info.filename[:120]!r} unpacks to more than its declared size "
                                f"or over the limit of {_mb(max_bytes)}"
                            )
                        chunks.append(chunk)
            except DataError:
                raise
            except Exception as exc:  # noqa: BLE001 - a corrupt member can make zipfile raise many kinds of error
                raise DataError(f"{label}: member {info.filename[:120]!r} cannot be read ({exc})") from None
            out[rel] = zlib.compress(b"".join(chunks), 1)
    return _Tree(label=label, files=out, digest=hashlib.sha256(data).hexdigest())


def _collect_dir(root: Path, max_bytes: int, max_files: int) -> _Tree:
    label = root.name or str(root)
    n_files, total = 0, 0
    wanted: list[tuple[str, Path]] = []
    skipped: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(dirpath)
        for d in list(dirnames):
            if (base / d).is_symlink():
                dirnames.remove(d)
                rel = (base / d).relative_to(root).as_posix()
                if d == "latest":  # helm-summarize's own runs/latest -> <suite> link
                    skipped.append(rel)
                    continue
                raise DataError(f"{label}: {rel} is a symbolic link; links are not accepted")
        dirnames.sort()
        for f in sorted(filenames):
            p = base / f
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                raise DataError(f"{label}: {rel} is a symbolic link; links are not accepted")
            n_files += 1
            if n_files > max_files:
                raise DataError(f"{label}: the folder holds more than {max_files:,} files, over the limit")
            try:
                total += p.stat().st_size
            except OSError as exc:
                raise DataError(f"{label}: {rel} cannot be read ({exc.strerror})") from None
            if total > max_bytes:
                raise DataError(f"{label}: the folder holds more than {_mb(max_bytes)}, over the limit")
            if _wanted(rel):
                wanted.append((rel, p))
    if n_files == 0:
        raise DataError(f"{label}: the folder is empty; expected HELM output (run folders or groups/*.json)")
    h = hashlib.sha256()
    out: dict[str, bytes] = {}
    for rel, p in wanted:
        if not p.is_file():
            raise DataError(f"{label}: {rel} is not a regular file")
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise DataError(f"{label}: {rel} cannot be read ({exc.strerror})") from None
        h.update(rel.encode("utf-8") + b"\0" + hashlib.sha256(raw).digest())
        out[rel] = zlib.compress(raw, 1)
    return _Tree(label=label, files=out, digest=h.hexdigest(), skipped_links=tuple(skipped))


def _collect_path(path: str | Path, max_bytes: int, max_files: int) -> _Tree:
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise DataError(f"{p.name}: a broken symbolic link")
    if not p.exists():
        raise DataError(f"{p}: no such file or folder")
    if p.is_dir():
        return _collect_dir(p, max_bytes, max_files)
    size = p.stat().st_size
    if size > max_bytes:
        raise DataError(f"{p.name}: {_mb(size)} is over the limit of {_mb(max_bytes)}")
    raw = p.read_bytes()
    if p.suffix.lower() == ".zip" or zipfile.is_zipfile(p):
        return _collect_zip(raw, p.name, max_bytes, max_files)
    if p.suffix.lower() == ".json":
        if size == 0:
            raise DataError(f"{p.name}: file is empty (0 bytes); expected a HELM groups JSON file")
        return _Tree(label=p.name, files={p.name: zlib.compress(raw, 1)}, digest=hashlib.sha256(raw).hexdigest())
    raise DataError(f"{p.name}: expected a .zip archive, a groups .json file or a folder of HELM output")
