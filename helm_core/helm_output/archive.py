"""Safe, lazy access to HELM output on disk or in a zip archive: member-name checks, size and file-count
limits, and JSON parsing with per-file limits. Nothing here knows HELM's formats beyond which file names matter.

A `Source` lists the files the loader may want (path relative to the input -> size in bytes) when it is
opened, and reads one file only when asked (`read` / `json`): a folder is walked once (names and sizes, no
contents), an archive's central directory is checked once (names, links, encryption, declared sizes) and its
members are unpacked on demand. No file is kept in memory after it is parsed."""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import stat as stat_mod
import struct
import zipfile
from abc import ABC, abstractmethod
import threading
from pathlib import Path
from typing import Any

from ..data import DataError

DEFAULT_MAX_BYTES = 500_000_000  # an archive's total unpacked size (uploads and .zip paths; folders have no cap)
DEFAULT_MAX_FILES = 20_000  # files in an archive
# Run folders in one input: each costs about 0.1 MB in the loaded state (its stats.json rows and a row of the
# run index), so 20,000 runs stay within a few GB at worst; HELM's largest public suites hold a few thousand.
DEFAULT_MAX_RUNS = 20_000
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


class Source(ABC):
    """The relevant files of an input, read on demand: `sizes` maps each posix path relative to the input to
    its size in bytes (declared, for an archive). Subclasses implement `_read_raw`."""

    def __init__(self, label: str, sizes: dict[str, int], digest: str, skipped_links: tuple[str, ...] = ()):
        self.label = label
        self.sizes = sizes
        self.digest = digest
        self.skipped_links = skipped_links

    @property
    def files(self) -> list[str]:
        return list(self.sizes)

    def has(self, rel: str) -> bool:
        return rel in self.sizes

    def read(self, rel: str) -> bytes:
        """The bytes of one file, refused by its size before it is read when over the per-file JSON limit."""
        if rel not in self.sizes:
            raise DataError(f"{self.label}: {rel[:200]} is not in this dataset")
        _check_json_size(rel, self.sizes[rel])
        return self._read_raw(rel)

    def json(self, rel: str) -> Any:
        return _parse_json(self.read(rel), rel)

    @abstractmethod
    def _read_raw(self, rel: str) -> bytes:
        """The bytes of `rel` (a path in `sizes`), read from the input."""


class _MemorySource(Source):
    """One file given as bytes (a single groups .json upload or path)."""

    def __init__(self, label: str, raw: bytes):
        super().__init__(label, {label: len(raw)}, hashlib.sha256(raw).hexdigest())
        self._raw = raw

    def _read_raw(self, rel: str) -> bytes:
        return self._raw


def _check_json_size(where: str, size: int) -> None:
    if size > MAX_JSON_BYTES:
        raise DataError(f"{where}: {_mb(size)} of JSON is over the per-file limit of {_mb(MAX_JSON_BYTES)} "
                        "(HELM's own result files are far smaller)")


def _parse_json(raw: bytes, where: str) -> Any:
    if len(raw) == 0:
        raise DataError(f"{where}: file is empty (expected JSON)")
    _check_json_size(where, len(raw))
    # Each object or list takes at least one byte: a file of at most MAX_JSON_CONTAINERS bytes cannot exceed it.
    containers = raw.count(b"{") + raw.count(b"[") if len(raw) > MAX_JSON_CONTAINERS else 0
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
    parts = rel.split("/")
    name = parts[-1]
    if name in RUN_FILES or name in SUITE_FILES:
        return True
    if not name.lower().endswith(".json") or name.lower() == ".json":
        return False
    return (len(parts) >= 2 and parts[-2] == "groups") or len(parts) == 1


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


class _ZipSource(Source):
    """An archive in memory (the upload's own bytes, nothing unpacked): every member name, link flag,
    encryption flag, the file count and the declared total are checked when it is opened; a member is
    unpacked when it is read, and refused if it unpacks to more than its declared size."""

    def __init__(self, data: bytes, label: str, max_bytes: int, max_files: int):
        if len(data) == 0:
            raise DataError(f"{label}: file is empty (0 bytes); expected a .zip archive of HELM output")
        try:
            zf = zipfile.ZipFile(io.BytesIO(data))
        except _ZIP_OPEN_ERRORS as exc:
            raise DataError(f"{label}: not a readable zip archive ({exc})") from None
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
            raise DataError(f"{label}: the archive unpacks to {_mb(total)}, over the limit of {_mb(max_bytes)}")
        if not files:
            raise DataError(f"{label}: the archive is empty (no files)")
        members: dict[str, zipfile.ZipInfo] = {}
        for info in files:
            rel = _check_member_name(info.filename, label)
            if not rel or not _wanted(rel):
                continue
            _check_json_size(rel, info.file_size)  # every file the loader reads is JSON: refuse before unpacking
            if rel in members:  # which copy is the real one cannot be known: refused, by name
                raise DataError(f"{label}: member {rel[:200]!r} is stored twice in the archive (as "
                                f"{members[rel].filename[:120]!r} and {info.filename[:120]!r}); only one copy can be "
                                "read, so re-create the archive with one")
            members[rel] = info
        super().__init__(label, {r: int(i.file_size) for r, i in members.items()}, hashlib.sha256(data).hexdigest())
        self._zf = zf
        self._members = members
        self._lock = threading.Lock()  # one ZipFile, shared by the reruns of a session

    def _read_raw(self, rel: str) -> bytes:
        info = self._members[rel]
        try:
            with self._lock, self._zf.open(info) as fh:
                chunks, n = [], 0
                while True:
                    chunk = fh.read(1 << 20)
                    if not chunk:
                        break
                    n += len(chunk)
                    if n > info.file_size:
                        raise DataError(f"{self.label}: member {info.filename[:120]!r} unpacks to more than its "
                                        "declared size")
                    chunks.append(chunk)
        except DataError:
            raise
        except Exception as exc:  # noqa: BLE001 - a corrupt member can make zipfile raise many kinds of error
            raise DataError(f"{self.label}: member {info.filename[:120]!r} cannot be read ({exc})") from None
        return b"".join(chunks)


class _DirSource(Source):
    """A folder on the server: walked once for names and sizes (links refused, HELM's own `latest` link
    skipped, no cap on the total size); a file is read when it is asked for."""

    def __init__(self, root: Path):
        label = root.name or str(root)
        sizes: dict[str, int] = {}
        skipped: list[str] = []
        h = hashlib.sha256(str(root.resolve()).encode("utf-8", "replace"))
        n_files = 0
        stack = [(str(root), "")]
        while stack:
            base, prefix = stack.pop()
            try:
                entries = sorted(os.scandir(base), key=lambda e: e.name)
            except OSError as exc:
                raise DataError(f"{label}: {prefix or '.'} cannot be read ({exc.strerror})") from None
            subdirs = []
            for e in entries:
                rel = prefix + e.name
                if e.is_symlink():
                    if e.name == "latest" and os.path.isdir(e.path):  # helm-summarize's runs/latest -> <suite>
                        skipped.append(rel)
                        continue
                    raise DataError(f"{label}: {rel} is a symbolic link; links are not accepted")
                if e.is_dir(follow_symlinks=False):
                    subdirs.append((e.path, rel + "/"))
                    continue
                n_files += 1
                if not _wanted(rel):
                    continue
                try:
                    st = e.stat(follow_symlinks=False)
                except OSError as exc:
                    raise DataError(f"{label}: {rel} cannot be read ({exc.strerror})") from None
                if not stat_mod.S_ISREG(st.st_mode):
                    raise DataError(f"{label}: {rel} is not a regular file")
                sizes[rel] = int(st.st_size)
                h.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\0".encode("utf-8", "replace"))
            stack.extend(reversed(subdirs))
        if n_files == 0:
            raise DataError(f"{label}: the folder is empty; expected HELM output (run folders or groups/*.json)")
        super().__init__(label, sizes, h.hexdigest(), tuple(skipped))
        self.root = root
        self._root = str(root)

    def _read_raw(self, rel: str) -> bytes:
        p = os.path.join(self._root, rel)
        try:
            st = os.lstat(p)
            if not stat_mod.S_ISREG(st.st_mode):
                raise DataError(f"{self.label}: {rel} is not a regular file")
            _check_json_size(rel, st.st_size)  # the file may have grown since the folder was listed
            with open(p, "rb") as fh:
                raw = fh.read(min(st.st_size, MAX_JSON_BYTES) + 1)  # sized by stat: no 32 MB buffer per file
                if len(raw) > st.st_size:  # the file grew since it was listed
                    raw += fh.read(MAX_JSON_BYTES + 1 - len(raw))
        except OSError as exc:
            raise DataError(f"{self.label}: {rel} cannot be read ({exc.strerror})") from None
        _check_json_size(rel, len(raw))
        return raw


def open_path(path: str | Path, max_bytes: int, max_files: int) -> Source:
    """A Source for a folder, a .zip file or a single groups .json file on the server."""
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise DataError(f"{p.name}: a broken symbolic link")
    if not p.exists():
        raise DataError(f"{p}: no such file or folder")
    if p.is_dir():
        return _DirSource(p)
    size = p.stat().st_size
    if size > max_bytes:
        raise DataError(f"{p.name}: {_mb(size)} is over the limit of {_mb(max_bytes)}")
    if p.suffix.lower() == ".zip" or zipfile.is_zipfile(p):
        return _ZipSource(p.read_bytes(), p.name, max_bytes, max_files)
    if p.suffix.lower() == ".json":
        if size == 0:
            raise DataError(f"{p.name}: file is empty (0 bytes); expected a HELM groups JSON file")
        _check_json_size(p.name, size)
        return _MemorySource(p.name, p.read_bytes())
    raise DataError(f"{p.name}: expected a .zip archive, a groups .json file or a folder of HELM output")


def open_zip(data: bytes, label: str, max_bytes: int, max_files: int) -> Source:
    return _ZipSource(bytes(data), label, max_bytes, max_files)


def open_bytes(label: str, raw: bytes) -> Source:
    return _MemorySource(label, bytes(raw))
