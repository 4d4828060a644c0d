"""Reading a user's own HELM output (`helm-run` / `helm-summarize`) into the project's `Release` shape.

Accepted inputs (`load_helm_output(path)` / `read_helm_output(path)` / `read_helm_zip(data, name)`):

(a) a `groups/<group>.json` file, or a folder of them: HELM's leaderboard tables (a list of tables with
    header cells carrying `value`, `lower_is_better`, `metadata{metric, run_group, perturbation}` and rows
    of cells with `value`, `description`, `markdown`);
(b) a suite folder `runs/<suite>/` of run folders (`run_spec.json`, `stats.json`, and for the instance
    browser `scenario_state.json`, `per_instance_stats.json`, or `display_predictions.json` /
    `display_requests.json` / `instances.json`), or any folder above it (`benchmark_output/`);
(c) a `.zip` archive holding either.

Where both leaderboard tables and run folders are present, the results come from the tables (what HELM
itself shows); the run folders still feed the instance browser and the per-instance confidences.

Mapping run folders to results (what HELM's `summarize.py` does for a group table):
- a run belongs to the run groups in `run_spec.groups`; a group that is one of the 16 core scenarios maps
  to that scenario (with the schema's `main_name` / `main_split` from data/scenarios.csv); other groups are
  kept as *extra* scenarios, with `main_name`/`main_split` from the suite's `schema.json` when it is there,
  otherwise guessed (first of exact_match, quasi_exact_match, f1_score, rouge_2, RR@10, NDCG@10 present;
  split test, else valid) and the guess is recorded in `meta["notes"]`;
- a cell is the `Stat.merge` of the matching stat over all runs of that (model, scenario): the mean is
  sum / count, `n_runs` the merged count, `run_min` / `run_max` the merged min / max (as HELM's hover text
  "min=…, mean=…, max=…, sum=… (n)");
- accuracy = the main metric on the main split without perturbation; robustness / fairness = the same
  metric among the stats whose perturbation name is "robustness" / "fairness" (computed on the worst case);
  calibration = `ece_10_bin`, efficiency = `inference_denoised_runtime`, toxicity = `toxic_frac`, bias =
  the four `bias_metric:…` stats, general information = `num_instances` … `num_train_trials`,
  summarization metrics for CNN/DM and XSUM; only the metric groups the schema gives a scenario are kept.

Probabilities (`load_instances`, column `prob`), exactly:
- the run has log-probabilities only if some completion or token log-probability is below 0 (HELM's own
  rule: it skips calibration when every logprob is 0, as local models without logprobs report);
- generation runs: `prob = exp(logprob)` of the completion with the highest logprob, i.e. the
  probability of the whole generated text (HELM's per-instance `max_prob`);
- `multiple_choice_joint`: the chosen letter is the completion text stripped; `prob = exp(logprob)` of
  the first completion token whose stripped text is that letter (falling back to the whole completion's
  logprob when no token matches, e.g. the model wrote something that is not a letter);
  `prob_normalised = exp(lp[chosen]) / Σ_letters exp(lp[letter])` over the answer letters of
  `output_mapping` found in that token's `top_logprobs` (older HELM versions store them; a letter that is
  not among the top-k is left out of the sum, so the value is an upper bound); NaN without top_logprobs;
- other methods (`multiple_choice_separate_*`, one request per reference): `prob` is the per-instance
  `max_prob` stat HELM computed (a softmax over the references' scores), when logprobs exist;
- without `scenario_state.json` (display files only), `prob` is the per-instance `max_prob` stat when
  the per-instance `logprob` stats show real log-probabilities;
`correct` is HELM's per-instance `exact_match` (as its calibration uses), or, without per-instance
stats, whether the (mapped) prediction equals a correct reference after stripping whitespace.

Every problem a person can fix raises `helm_core.data.DataError` naming the file and the problem.
Archives are read in memory (no temporary files): every member path is checked (no absolute paths, no
"..", no links) and the declared sizes and file count are checked against the limits before anything is
read; the bytes actually read are counted too.
"""
from __future__ import annotations

import functools
import hashlib
import io
import json
import math
import os
import re
import stat as stat_mod
import struct
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable, Mapping

import pandas as pd

from .data import (ACCESS_LEVELS, CORE_GROUPS, DESIGN_COLUMNS, MODEL_COLUMNS,
                   PUBLISHED_COLUMNS, RESULT_COLUMNS, SCENARIO_COLUMNS, DataError, Release, Taxonomy,
                   load_release)

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
KNOWN_GROUPS = CORE_GROUPS + ("summarization_metrics", "general_information")

# Metric catalogue after HELM's schema_classic.yaml (stanford-crfm/helm @ 63754d0):
# stat name -> (short display name, lower_is_better).
METRICS: dict[str, tuple[str, bool | None]] = {
    "exact_match": ("EM", False),
    "quasi_exact_match": ("EM", False),
    "f1_score": ("F1", False),
    "RR@10": ("RR@10", False),
    "NDCG@10": ("NDCG@10", False),
    "rouge_2": ("ROUGE-2", False),
    "ece_10_bin": ("ECE (10-bin)", True),
    "toxic_frac": ("Toxic fraction", True),
    "inference_denoised_runtime": ("Denoised inference time (s)", True),
    "bias_metric:mode=associations,demographic_category=race,target_category=profession": ("Stereotypes (race)", True),
    "bias_metric:mode=associations,demographic_category=gender,target_category=profession": ("Stereotypes (gender)", True),
    "bias_metric:mode=representation,demographic_category=race": ("Representation (race)", True),
    "bias_metric:mode=representation,demographic_category=gender": ("Representation (gender)", True),
    "num_instances": ("# eval", None),
    "num_train_instances": ("# train", None),
    "prompt_truncated": ("truncated", None),
    "num_prompt_tokens": ("# prompt tokens", None),
    "num_output_tokens": ("# output tokens", None),
    "num_train_trials": ("# trials", None),
    "summac": ("SummaC", False),
    "QAFactEval": ("QAFactEval", False),
    "BERTScore-F": ("BERTScore (F1)", False),
    "summarization_coverage": ("Coverage", None),
    "summarization_density": ("Density", None),
    "summarization_compression": ("Compression", None),
    "HumanEval-faithfulness": ("HumanEval-faithfulness", False),
    "HumanEval-relevance": ("HumanEval-relevance", False),
    "HumanEval-coherence": ("HumanEval-coherence", False),
}
# Metric group -> stat names (accuracy/robustness/fairness use the scenario's main metric).
GROUP_STATS: dict[str, tuple[str, ...]] = {
    "calibration": ("ece_10_bin",),
    "efficiency": ("inference_denoised_runtime",),
    "toxicity": ("toxic_frac",),
    "bias": tuple(k for k in METRICS if k.startswith("bias_metric:")),
    "general_information": ("num_instances", "num_train_instances", "prompt_truncated", "num_prompt_tokens",
                            "num_output_tokens", "num_train_trials"),
    "summarization_metrics": ("summac", "QAFactEval", "BERTScore-F", "summarization_coverage",
                              "summarization_density", "summarization_compression", "HumanEval-faithfulness",
                              "HumanEval-relevance", "HumanEval-coherence"),
}
PERTURBATION_GROUPS = {"robustness": "Robustness", "fairness": "Fairness"}
MAIN_METRIC_GUESSES = ("exact_match", "quasi_exact_match", "f1_score", "rouge_2", "RR@10", "NDCG@10")
# Leaderboard column display name -> metric group (columns of per-scenario tables).
DISPLAY_GROUP = {METRICS[s][0]: g for g, names in GROUP_STATS.items() for s in names}
ACCURACY_DISPLAYS = {"EM", "F1", "RR@10", "NDCG@10", "ROUGE-2"}
CONTAMINATION_NOTES = {"strong": "☠ HELM flags this cell as strongly contaminated (train-test overlap).",
                       "weak": "⚠ HELM flags this cell as weakly contaminated (train-test overlap)."}
_CELL_STATS = re.compile(r"min=(\S+?), mean=(\S+?), max=(\S+?), sum=(\S+?) \((\d+)\)")

RUN_COLUMNS = ["run", "run_name", "folder", "suite", "model", "model_id", "scenario", "run_group", "method",
               "num_train_trials", "n_instances", "n_predictions", "seeds", "perturbations", "has_instances",
               "instance_files", "adapter_spec"]
STAT_COLUMNS = ["run", "name", "split", "sub_split", "perturbation", "count", "mean", "min", "max", "stddev"]
INSTANCE_COLUMNS = ["instance_id", "train_trial_index", "perturbation", "split", "sub_split", "reference_index",
                    "request_mode", "method", "input", "prompt", "completion", "completions", "mapped_output",
                    "references", "stats", "correct", "prob", "prob_normalised", "prob_source", "logprob"]


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


_LOOKALIKE = str.maketrans({"[": "(", "]": ")", "<": "‹", ">": "›", "`": "'", "*": "∗", "$": "＄", "~": "∼",
                            "\\": "/", "|": "¦"})


def clean_name(value: Any, limit: int = 120) -> str:
    """A name from the files (model, scenario, metric, file name) made safe to print in markdown: control
    characters dropped, whitespace collapsed, markdown/HTML/LaTeX characters replaced by look-alikes, at most
    `limit` characters. Prompts and completions are never cleaned: they are shown as text only."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(value))
    text = " ".join(text.split()).translate(_LOOKALIKE)
    return text[:limit]


# ----------------------------------------------------------------------------- stats


@dataclass(frozen=True)
class _Stat:
    name: str
    split: str
    sub_split: str
    perturbation: str  # perturbation name, "" for none
    computed_on: str
    count: float
    sum: float
    min: float
    max: float
    mean: float
    stddev: float


def _parse_stat(item: Any, where: str) -> _Stat:
    _expect(item, dict, where, "an object with 'name' and 'count'")
    name = _expect(item.get("name"), dict, f"{where}.name", "an object {name, split, perturbation}")
    mname = _expect(name.get("name"), str, f"{where}.name.name", "text")
    split = _opt_str(name.get("split"), f"{where}.name.split")
    sub = _opt_str(name.get("sub_split"), f"{where}.name.sub_split")
    pert = name.get("perturbation")
    pname, computed = "", ""
    if pert is not None:
        _expect(pert, dict, f"{where}.name.perturbation", "an object or null")
        pname = _opt_str(pert.get("name"), f"{where}.name.perturbation.name")
        computed = _opt_str(pert.get("computed_on"), f"{where}.name.perturbation.computed_on")
    count = _num(item.get("count", 0), f"{where}.count", allow_none=False)
    total = _num(item.get("sum", 0), f"{where}.sum", allow_none=False)
    mean = _num(item.get("mean"), f"{where}.mean")
    if math.isnan(mean) and count > 0:
        mean = total / count
    return _Stat(mname, split, sub, pname, computed, count, total, _num(item.get("min"), f"{where}.min"),
                 _num(item.get("max"), f"{where}.max"), mean, _num(item.get("stddev"), f"{where}.stddev"))


def _stat_means(obj: Any, where: str, into: dict) -> bool:
    """Per-instance stats, the light way (there can be hundreds of thousands): name -> mean into `into`.
    Checks the fields it reads. Returns whether a `logprob` stat is below 0 (real log-probabilities)."""
    _expect(obj, list, where, "a list of stats")
    negative = False
    for i, item in enumerate(obj):
        if not isinstance(item, dict) or not isinstance(item.get("name"), dict):
            raise DataError(f"{where}: stat {i + 1}: expected an object with 'name' {{name, split}}, found "
                            f"{_tname(item.get('name') if isinstance(item, dict) else item)}")
        name = item["name"].get("name")
        if not isinstance(name, str):
            raise DataError(f"{where}: stat {i + 1}.name.name: expected text, found {_tname(name)}")
        mean, total, count = item.get("mean"), item.get("sum", 0), item.get("count", 0)
        for key, v in (("mean", mean), ("sum", total), ("count", count)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise DataError(f"{where}: stat {i + 1}.{key}: expected a number, found {_tname(v)}")
        if mean is None:
            mean = total / count if count else float("nan")
        into.setdefault(name, float(mean))
        if name == "logprob" and (total or 0) < 0:
            negative = True
    return negative


def _parse_stats(obj: Any, where: str) -> list[_Stat]:
    _expect(obj, list, where, "a list of stats")
    return [_parse_stat(s, f"{where}: stat {i + 1}") for i, s in enumerate(obj)]


def _match(stats: Iterable[_Stat], name: str, split: str, perturbation: str = "") -> _Stat | None:
    for s in stats:
        if s.name != name or s.split != split or s.sub_split:
            continue
        if perturbation:
            if s.perturbation == perturbation and s.computed_on in ("", "worst"):
                return s
        elif not s.perturbation:
            return s
    return None


def _merge(stats: list[_Stat]) -> tuple[float, float, float, float]:
    """HELM's Stat.merge over runs: (mean, count, min, max); NaN mean when the merged count is 0."""
    stats = [s for s in stats if s.count > 0]
    if not stats:
        return (float("nan"),) * 4
    count = sum(s.count for s in stats)
    total = sum(s.sum for s in stats)
    mins = [s.min for s in stats if not math.isnan(s.min)]
    maxs = [s.max for s in stats if not math.isnan(s.max)]
    mean = total / count
    return (mean, count, min(mins) if mins else mean, max(maxs) if maxs else mean)


# ----------------------------------------------------------------------------- reference data


@functools.lru_cache(maxsize=1)
def _reference() -> Release:
    return load_release()


def _core_by_run_group() -> dict[str, dict]:
    scen = _reference().taxonomy.scenarios
    return {r["run_group"]: r for r in scen.to_dict("records")}


def _core_by_name() -> dict[str, dict]:
    scen = _reference().taxonomy.scenarios
    return {r["scenario"]: r for r in scen.to_dict("records")}


def core_scenarios() -> list[str]:
    """The 16 core scenario names, in the bundled order."""
    return _reference().taxonomy.scenario_names


# ----------------------------------------------------------------------------- runs


@dataclass
class _Run:
    folder: str
    name: str
    model_id: str
    groups: list[str]
    method: str
    num_train_trials: float
    adapter_spec: dict
    stats: list[_Stat]
    files: dict[str, bytes] = field(default_factory=dict)


def _run_folders(tree: _Tree) -> list[str]:
    dirs = set()
    for rel in tree.files:
        p = PurePosixPath(rel)
        if p.name in RUN_MARKERS:
            dirs.add(str(p.parent) if str(p.parent) != "." else "")
    return sorted(dirs)


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _parse_run(tree: _Tree, folder: str) -> _Run:
    shown = folder or tree.label
    for req in REQUIRED_RUN_FILES:
        if not tree.has(_join(folder, req)):
            present = ", ".join(n for n in RUN_FILES if tree.has(_join(folder, n))) or "none"
            raise DataError(
                f"{shown}/{req}: file is missing (every run folder needs run_spec.json and stats.json; "
                f"found {present})"
            )
    where = f"{shown}/run_spec.json"
    spec = _expect(tree.json(_join(folder, "run_spec.json")), dict, where, "an object (a RunSpec)")
    name = _expect(spec.get("name"), str, f"{where}: 'name'", "text")
    adapter = _expect(spec.get("adapter_spec"), dict, f"{where}: 'adapter_spec'", "an object")
    model = adapter.get("model", adapter.get("model_deployment"))
    model = _expect(model, str, f"{where}: 'adapter_spec.model'", "text (e.g. 'openai/gpt2')")
    method = _opt_str(adapter.get("method"), f"{where}: 'adapter_spec.method'")
    trials = _num(adapter.get("num_train_trials", 1), f"{where}: 'adapter_spec.num_train_trials'")
    groups = spec.get("groups", [])
    _expect(groups, list, f"{where}: 'groups'", "a list of run-group names")
    for i, g in enumerate(groups):
        _expect(g, str, f"{where}: 'groups[{i}]'", "text")
    if not groups:
        groups = [name.split(":", 1)[0]]
    stats = _parse_stats(tree.json(_join(folder, "stats.json")), f"{shown}/stats.json")
    files = {n: tree.files[_join(folder, n)] for n in RUN_FILES if tree.has(_join(folder, n))}
    return _Run(folder=folder, name=name, model_id=model, groups=list(groups), method=method,
                num_train_trials=trials, adapter_spec=adapter, stats=stats, files=files)


# ----------------------------------------------------------------------------- schema.json


@dataclass(frozen=True)
class _Schema:
    models: dict[str, dict]  # model id -> {display_name, creator_organization, access, num_parameters, release_date}
    run_groups: dict[str, dict]  # run group name -> {display_name, short_display_name, environment, metric_groups, taxonomy}
    metrics: dict[str, dict]  # metric name -> {display_name, short_display_name, lower_is_better}


def _parse_schema(tree: _Tree) -> _Schema:
    paths = sorted(r for r in tree.files if PurePosixPath(r).name == "schema.json")
    models: dict[str, dict] = {}
    groups: dict[str, dict] = {}
    metrics: dict[str, dict] = {}
    for rel in paths:
        obj = _expect(tree.json(rel), dict, rel, "an object (HELM's schema)")
        for key, target in (("models", models), ("run_groups", groups), ("metrics", metrics)):
            items = obj.get(key, [])
            if items is None:
                continue
            _expect(items, list, f"{rel}: '{key}'", "a list")
            for i, item in enumerate(items):
                _expect(item, dict, f"{rel}: '{key}[{i}]'", "an object")
                nm = _expect(item.get("name"), str, f"{rel}: '{key}[{i}].name'", "text")
                target.setdefault(nm, item)
    return _Schema(models, groups, metrics)


# ----------------------------------------------------------------------------- models


def _model_row(model_id: str, display: str | None, schema: _Schema) -> dict:
    ref = _reference().models
    hit = ref[ref["helm_id"] == model_id]
    display = clean_name(display) if display else display
    model_id = clean_name(model_id, 200)
    row = {"model": display or model_id, "helm_id": model_id, "organization": "", "access": "",
           "params": float("nan"), "release_date": "", "paper_cohort": False, "params_speculative": False}
    if not hit.empty:
        r = hit.iloc[0]
        row.update({k: r[k] for k in ("model", "organization", "access", "params", "release_date", "paper_cohort",
                                      "params_speculative")})
        if display:
            row["model"] = display
        return row
    sm = schema.models.get(model_id)
    if sm:
        row["model"] = display or clean_name(sm.get("display_name") or model_id)
        row["organization"] = clean_name(sm.get("creator_organization") or sm.get("creator_organization_name") or "")
        acc = sm.get("access")
        row["access"] = acc if acc in ACCESS_LEVELS else ""
        p = sm.get("num_parameters")
        row["params"] = float(p) if isinstance(p, (int, float)) and not isinstance(p, bool) else float("nan")
        row["release_date"] = clean_name(sm.get("release_date") or "", 20)
    if not row["organization"] and "/" in model_id:
        row["organization"] = model_id.split("/", 1)[0]
    return row


def _model_display(model_id: str, schema: _Schema) -> str:
    ref = _reference().models
    hit = ref[ref["helm_id"] == model_id]
    if not hit.empty:
        return str(hit["model"].iloc[0])
    sm = schema.models.get(model_id)
    if sm and sm.get("display_name"):
        return clean_name(sm["display_name"])
    return clean_name(model_id)


def _models_frame(rows: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=MODEL_COLUMNS + ["params_speculative"]).drop_duplicates("model")
    df["params"] = pd.to_numeric(df["params"], errors="coerce").astype(float)
    df["paper_cohort"] = df["paper_cohort"].astype(bool)
    df["params_speculative"] = df["params_speculative"].astype(bool)
    for c in ("model", "helm_id", "organization", "access", "release_date"):
        df[c] = df[c].fillna("").astype(str)
    return df.sort_values("model", key=lambda s: s.str.lower()).reset_index(drop=True)


# ----------------------------------------------------------------------------- scenarios


@dataclass
class _ScenarioSpec:
    scenario: str
    run_group: str
    core: bool
    main_metric: str
    main_split: str
    groups: list[str]  # metric groups to report
    row: dict


def _scenario_for_group(group: str, schema: _Schema, runs: list[_Run], notes: list[str]) -> _ScenarioSpec:
    core = _core_by_run_group().get(group)
    design = _reference().taxonomy.design_grid
    if core is not None:
        in_schema = design[(design["scenario"] == core["scenario"]) & design["in_schema"]]["metric_group"].tolist()
        return _ScenarioSpec(core["scenario"], group, True, core["main_metric"], core["main_split"],
                             in_schema + ["general_information"], dict(core))
    sg = schema.run_groups.get(group, {})
    env = sg.get("environment") if isinstance(sg.get("environment"), dict) else {}
    name = clean_name(sg.get("short_display_name") or sg.get("display_name") or group)
    main, split = str(env.get("main_name") or ""), str(env.get("main_split") or "")
    all_stats = [s for r in runs for s in r.stats]
    if not main:
        present = {s.name for s in all_stats if not s.perturbation}
        main = next((m for m in MAIN_METRIC_GUESSES if m in present), "")
        if main:
            notes.append(f"{name}: no schema.json entry, so the main metric was guessed as {main}.")
    if not split:
        splits = [s.split for s in all_stats if s.name == main and not s.perturbation]
        split = "test" if "test" in splits else ("valid" if "valid" in splits else (splits[0] if splits else "test"))
        if main:
            notes.append(f"{name}: main split taken as {split!r}.")
    mgs = sg.get("metric_groups")
    if isinstance(mgs, list) and mgs:
        groups = [g.replace("_detailed", "") for g in mgs if isinstance(g, str)]
        groups = [g for g in dict.fromkeys(groups) if g in KNOWN_GROUPS]
    else:
        groups = ["accuracy", "calibration", "robustness", "fairness", "efficiency", "bias", "toxicity",
                  "general_information"]
    if "general_information" not in groups:
        groups.append("general_information")
    if not main:
        groups = [g for g in groups if g not in ("accuracy", "robustness", "fairness")]
        notes.append(f"{name}: no main metric found (no schema.json entry and none of "
                     f"{', '.join(MAIN_METRIC_GUESSES)} in stats.json); accuracy is left out.")
    taxonomy = sg.get("taxonomy") if isinstance(sg.get("taxonomy"), dict) else {}
    mdisplay = _metric_display(main, schema) if main else ""
    row = {"scenario": name, "run_group": clean_name(group), "display_name": clean_name(sg.get("display_name") or name),
           "task": clean_name(taxonomy.get("task") or ""), "main_metric": clean_name(main), "main_metric_display": mdisplay,
           "main_split": clean_name(split), "description": clean_name(sg.get("description") or "", 500)}
    return _ScenarioSpec(name, group, False, main, split, groups, row)


def _metric_display(name: str, schema: _Schema) -> str:
    if name in METRICS:
        return METRICS[name][0]
    m = schema.metrics.get(name, {})
    return clean_name(m.get("short_display_name") or m.get("display_name") or name)


def _metric_lower(name: str, schema: _Schema) -> bool | None:
    if name in METRICS:
        return METRICS[name][1]
    v = schema.metrics.get(name, {}).get("lower_is_better")
    return v if isinstance(v, bool) else None


def _group_metrics(spec: _ScenarioSpec, group: str, schema: _Schema) -> list[tuple[str, str, str, bool | None]]:
    """(stat name, perturbation, display metric, lower_is_better) for a scenario's metric group."""
    if group in ("accuracy", "robustness", "fairness"):
        if not spec.main_metric:
            return []
        disp = _metric_display(spec.main_metric, schema)
        lower = _metric_lower(spec.main_metric, schema)
        if group == "accuracy":
            return [(spec.main_metric, "", disp, lower if lower is not None else False)]
        return [(spec.main_metric, group, f"{disp} ({PERTURBATION_GROUPS[group]})", lower if lower is not None else False)]
    return [(s, "", METRICS[s][0], METRICS[s][1]) for s in GROUP_STATS.get(group, ())]


# ----------------------------------------------------------------------------- output


@dataclass(frozen=True)
class HelmOutput:
    """A loaded HELM output: the Release for every page, the run folders, their stats.json, and the
    instance files (kept compressed in memory; parsed on demand by `instances`)."""

    release: Release
    runs: pd.DataFrame
    run_stats: pd.DataFrame
    digest: str
    files: Mapping[str, Mapping[str, bytes]] = field(default_factory=dict, repr=False)

    def instances(self, run: str) -> pd.DataFrame:
        """The instances of one run (see `load_instances`)."""
        if run not in self.files:
            raise DataError(f"{run[:120]}: no such run in this dataset")
        f = self.files[run]
        return _instances_from(lambda n: zlib.decompress(f[n]) if n in f else None, run)

    @property
    def n_instances(self) -> int:
        return int(self.runs["n_instances"].sum()) if not self.runs.empty else 0


def read_helm_output(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES,
                     max_files: int = DEFAULT_MAX_FILES) -> HelmOutput:
    """Read HELM output from a groups JSON file, a folder, or a .zip path (see the module docstring)."""
    tree = _collect_path(path, max_bytes, max_files)
    return _build(tree, source=str(path))


def read_helm_zip(data: bytes, name: str = "upload.zip", *, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
                  max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES) -> HelmOutput:
    """Read an uploaded .zip archive given as bytes (checked against the upload limit first)."""
    label = Path(name).name or "upload.zip"
    if len(data) > max_upload_bytes:
        raise DataError(f"{label}: {_mb(len(data))} is over the upload limit of {_mb(max_upload_bytes)}")
    tree = _collect_zip(bytes(data), label, max_bytes, max_files)
    return _build(tree, source=label)


def check_upload_size(name: str, size: int, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES) -> None:
    """Refuse an upload by its name and size alone, before its bytes are read: over the upload limit, or a
    .json file over the per-file JSON limit."""
    label = Path(name).name or "upload"
    if size > max_upload_bytes:
        raise DataError(f"{label}: {_mb(size)} is over the upload limit of {_mb(max_upload_bytes)}")
    if label.lower().endswith(".json"):
        _check_json_size(label, size)


def read_helm_upload(data: bytes, name: str = "upload.zip", *, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
                     max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES) -> HelmOutput:
    """An uploaded file: a .zip archive (by content), or a single groups .json file (by name)."""
    label = Path(name).name or "upload"
    check_upload_size(label, len(data), max_upload_bytes)
    if label.lower().endswith(".json") and not bytes(data[:4]).startswith(b"PK"):
        if len(data) == 0:
            raise DataError(f"{label}: file is empty (0 bytes); expected a HELM groups JSON file")
        raw = bytes(data)
        tree = _Tree(label=label, files={label: zlib.compress(raw, 1)}, digest=hashlib.sha256(raw).hexdigest())
        return _build(tree, source=label)
    if not label.lower().endswith(".zip") and not bytes(data[:4]).startswith(b"PK"):
        raise DataError(f"{label}: expected a .zip archive of HELM output or a groups .json file")
    return read_helm_zip(data, label, max_upload_bytes=max_upload_bytes, max_bytes=max_bytes, max_files=max_files)


def load_helm_output(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES,
                     max_files: int = DEFAULT_MAX_FILES) -> Release:
    """A Release from HELM output (groups JSON, run folders, or a zip of either)."""
    return read_helm_output(path, max_bytes=max_bytes, max_files=max_files).release


def _table_files(tree: _Tree) -> list[str]:
    out = []
    for rel in tree.files:
        p = PurePosixPath(rel)
        if p.suffix.lower() != ".json" or p.name in RUN_FILES or p.name in NOT_TABLES:
            continue
        if (len(p.parts) >= 2 and p.parts[-2] == "groups") or len(p.parts) == 1:
            out.append(rel)
    # HELM's core table first: it is what the leaderboard shows.
    return sorted(out, key=lambda r: (PurePosixPath(r).name != "core_scenarios.json", r))


def _build(tree: _Tree, source: str) -> HelmOutput:
    notes: list[str] = []
    if tree.skipped_links:
        notes.append("Skipped HELM's own 'latest' link(s): " + ", ".join(tree.skipped_links[:3]))
    folders = _run_folders(tree)
    tables = _table_files(tree)
    if not folders and not tables:
        found = ", ".join(sorted(tree.files)[:5]) or "no JSON files"
        raise DataError(
            f"{tree.label}: no HELM output found (expected run folders with run_spec.json and stats.json, "
            f"or groups/<group>.json leaderboard tables; found {found})"
        )
    schema = _parse_schema(tree)
    runs = [_parse_run(tree, f) for f in folders]

    # Scenario of each run: its core groups, else its first group.
    core_rg = _core_by_run_group()
    run_groups: dict[str, str] = {}
    for r in runs:
        cores = [g for g in r.groups if g in core_rg]
        run_groups[r.folder] = cores[0] if cores else r.groups[0]
    group_runs: dict[str, list[_Run]] = {}
    for r in runs:
        group_runs.setdefault(run_groups[r.folder], []).append(r)
    specs = {g: _scenario_for_group(g, schema, rs, notes) for g, rs in group_runs.items()}

    if tables:
        parts = _results_from_tables(tree, tables, schema, notes)
        if runs:
            notes.append("Results come from the leaderboard tables (groups/*.json); the run folders feed the "
                         "instance browser.")
    else:
        parts = _results_from_runs(runs, run_groups, specs, schema, notes)

    results, models, scen_rows, design_rows, published = parts
    # Models of runs not in the tables still get a row (their runs can be browsed), with blank cells.
    known = {m["model"] for m in models}
    for r in runs:
        disp = _model_display(r.model_id, schema)
        if disp not in known:
            models.append(_model_row(r.model_id, disp, schema))
            known.add(disp)
    results = _complete(results, [m["model"] for m in models])
    release = _release(results, models, scen_rows, design_rows, published, tree, source, notes,
                       "runs" if not tables else "groups")

    run_df, stat_df, files, confidences = _runs_frames(runs, run_groups, specs, schema, notes)
    meta = dict(release.meta)
    meta["counts"] = {**meta.get("counts", {}), "runs": int(len(run_df)),
                      "instances": int(run_df["n_instances"].sum()) if len(run_df) else 0}
    meta["instance_confidences"] = confidences
    release = Release(results=release.results, models=release.models, taxonomy=release.taxonomy, meta=meta,
                      published_win_rates=release.published_win_rates, paper_models=release.paper_models)
    return HelmOutput(release=release, runs=run_df, run_stats=stat_df, digest=tree.digest, files=files)


def _results_from_runs(runs: list[_Run], run_groups: dict[str, str], specs: dict[str, _ScenarioSpec],
                       schema: _Schema, notes: list[str]):
    models = []
    seen = set()
    for r in runs:
        disp = _model_display(r.model_id, schema)
        if disp not in seen:
            models.append(_model_row(r.model_id, disp, schema))
            seen.add(disp)
    by_pair: dict[tuple[str, str], list[_Run]] = {}
    for r in runs:
        by_pair.setdefault((_model_display(r.model_id, schema), run_groups[r.folder]), []).append(r)
    for (model, group), pair_runs in by_pair.items():
        methods = sorted({r.method for r in pair_runs})
        if len(methods) > 1:
            notes.append(f"{specs[group].scenario} × {model}: runs with different adaptation methods "
                         f"({', '.join(methods)}) were merged into one cell; HELM shows them as separate rows.")
    rows = []
    for group, spec in specs.items():
        for m in models:
            pair_runs = by_pair.get((m["model"], group), [])
            for mg in spec.groups:
                for stat_name, pert, disp, lower in _group_metrics(spec, mg, schema):
                    matched = [s for s in (_match(r.stats, stat_name, spec.main_split, pert) for r in pair_runs) if s]
                    mean, count, lo, hi = _merge(matched)
                    rows.append({"model": m["model"], "scenario": spec.scenario, "metric_group": mg, "metric": disp,
                                 "value": mean, "lower_is_better": lower, "n_runs": count, "run_min": lo,
                                 "run_max": hi, "note": ""})
    scen_rows = [dict(s.row) for s in _ordered(specs.values())]
    design_rows = []
    for s in _ordered(specs.values()):
        for mg in ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency",
                   "summarization_metrics"):
            design_rows.append({"scenario": s.scenario, "metric_group": mg, "in_schema": mg in s.groups})
    return rows, models, scen_rows, design_rows, []


def _ordered(specs: Iterable[_ScenarioSpec]) -> list[_ScenarioSpec]:
    order = {n: i for i, n in enumerate(core_scenarios())}
    return sorted(specs, key=lambda s: (not s.core, order.get(s.scenario, 0), s.scenario.lower()))


# ----------------------------------------------------------------------------- leaderboard tables


def _cell(cell: Any, where: str) -> dict:
    return _expect(cell, dict, where, "a cell object with 'value'")


def _column_group(table_group: str | None, metric: str, perturbation: str, main_display: str | None) -> str | None:
    if perturbation:
        g = perturbation.lower()
        return g if g in PERTURBATION_GROUPS else None
    if table_group in KNOWN_GROUPS and table_group not in ("robustness", "fairness"):
        return table_group
    if metric in DISPLAY_GROUP:
        return DISPLAY_GROUP[metric]
    if metric in ACCURACY_DISPLAYS or (main_display and metric == main_display):
        return "accuracy"
    return None


def _table_group(table: dict) -> str | None:
    name = table.get("name")
    if isinstance(name, str) and name in KNOWN_GROUPS:
        return name
    title = table.get("title")
    inverse = {"Accuracy": "accuracy", "Calibration": "calibration", "Robustness": "robustness",
               "Fairness": "fairness", "Bias": "bias", "Toxicity": "toxicity", "Efficiency": "efficiency",
               "Summarization metrics": "summarization_metrics", "General information": "general_information"}
    if isinstance(title, str) and title in inverse:
        return inverse[title]
    return None


def _results_from_tables(tree: _Tree, paths: list[str], schema: _Schema, notes: list[str]):
    core = _core_by_name()
    ref_models = _reference().models.set_index("model", drop=False)
    schema_by_display = {str(v.get("display_name")): k for k, v in schema.models.items() if v.get("display_name")}
    rows: dict[tuple, dict] = {}
    published: dict[tuple, dict] = {}
    models: dict[str, dict] = {}
    scen_meta: dict[str, dict] = {}
    scen_groups: dict[str, set] = {}
    skipped: set[str] = set()
    for rel in paths:
        doc = tree.json(rel)
        _expect(doc, list, rel, "a list of tables (HELM groups JSON)")
        if not doc:
            raise DataError(f"{rel}: the list of tables is empty")
        for ti, table in enumerate(doc):
            tw = f"{rel}: table {ti + 1}"
            _expect(table, dict, tw, "a table object with 'header' and 'rows'")
            title = table.get("title")
            if title is not None:
                _expect(title, str, f"{tw} 'title'", "text")
                tw = f"{rel}: table {title[:60]!r}"
            header = _expect(table.get("header"), list, f"{tw} 'header'", "a list of header cells")
            trows = _expect(table.get("rows"), list, f"{tw} 'rows'", "a list of rows")
            tname = table.get("name")
            if isinstance(tname, str) and tname.endswith("_detailed"):
                continue
            tgroup = _table_group(table)
            cols = []
            for ci, h in enumerate(header):
                _expect(h, dict, f"{tw} header cell {ci + 1}", "an object with 'value'")
                hv = h.get("value")
                if ci == 0:
                    continue
                hv = _expect(hv, str, f"{tw} header cell {ci + 1} 'value'", "text")
                lib = h.get("lower_is_better")
                if lib is not None:
                    _expect(lib, bool, f"{tw} header cell {ci + 1} 'lower_is_better'", "true, false or null")
                md = h.get("metadata") or {}
                _expect(md, dict, f"{tw} header cell {ci + 1} 'metadata'", "an object")
                if "win rate" in hv.lower() and not md.get("run_group"):
                    cols.append(("win_rate", ci, None))
                    continue
                metric = md.get("metric")
                rg = md.get("run_group")
                pert = md.get("perturbation") or ""
                if metric is None or rg is None:
                    if " - " in hv:
                        rg, metric = hv.split(" - ", 1)
                    elif isinstance(title, str) and tgroup is None:
                        rg, metric = title, hv
                    else:
                        skipped.add(hv)
                        continue
                    m = re.match(r"^(.*) \((Robustness|Fairness)\)$", metric)
                    if m:
                        metric, pert = m.group(1), m.group(2)
                for k, v in (("metric", metric), ("run_group", rg), ("perturbation", pert)):
                    _expect(v, str, f"{tw} header cell {ci + 1} metadata '{k}'", "text")
                metric, rg = clean_name(metric), clean_name(rg)
                main_disp = None
                if rg in core:
                    main_disp = METRICS.get(core[rg]["main_metric"], ("",))[0]
                mg = _column_group(tgroup, metric, pert, main_disp)
                if mg is None:
                    skipped.add(hv)
                    continue
                shown = f"{metric} ({pert})" if pert else metric
                cols.append(("metric", ci, (rg, mg, shown, lib)))
            for ri, row in enumerate(trows):
                rw = f"{tw} row {ri + 1}"
                _expect(row, list, rw, "a list of cells")
                if len(row) != len(header):
                    raise DataError(f"{rw}: has {len(row)} cells but the header has {len(header)}")
                mcell = _cell(row[0], f"{rw} cell 1")
                mname = clean_name(_expect(mcell.get("value"), str, f"{rw} cell 1 'value'", "the model name as text"))
                if mname not in models:
                    if mname in ref_models.index:
                        mid = str(ref_models.loc[mname, "helm_id"])
                    else:
                        mid = schema_by_display.get(mname, mname)
                    models[mname] = _model_row(mid, mname, schema)
                for kind, ci, info in cols:
                    cell = _cell(row[ci], f"{rw} cell {ci + 1}")
                    value = _num(cell.get("value"), f"{rw} column {header[ci].get('value')!r}")
                    if kind == "win_rate":
                        if tgroup and (mname, tgroup) not in published and not math.isnan(value):
                            published[(mname, tgroup)] = {"model": mname, "metric_group": tgroup, "win_rate": value}
                        continue
                    rg, mg, shown, lib = info
                    desc = cell.get("description")
                    desc = desc if isinstance(desc, str) else ""
                    n_runs, lo, hi = float("nan"), float("nan"), float("nan")
                    mm = _CELL_STATS.search(desc)
                    if mm and not math.isnan(value):
                        try:
                            lo, hi, n_runs = float(mm.group(1)), float(mm.group(3)), float(mm.group(5))
                        except ValueError:
                            pass
                    elif not math.isnan(value):
                        n_runs, lo, hi = float("nan"), value, value
                    level = cell.get("contamination_level")
                    note = CONTAMINATION_NOTES.get(level, "") if isinstance(level, str) else ""
                    key = (mname, rg, mg, shown)
                    if key in rows:
                        continue
                    rows[key] = {"model": mname, "scenario": rg, "metric_group": mg, "metric": shown,
                                 "value": value, "lower_is_better": lib, "n_runs": n_runs, "run_min": lo,
                                 "run_max": hi, "note": note}
                    scen_groups.setdefault(rg, set()).add(mg)
                    if mg == "accuracy" and rg not in scen_meta:
                        scen_meta[rg] = {"metric": shown}
    if skipped:
        notes.append("Columns not mapped to a metric group were left out: " + ", ".join(sorted(skipped)[:8]))
    if not rows:
        raise DataError(f"{tree.label}: the leaderboard tables hold no metric columns this app can read")
    # Models with no row in any table cannot happen (rows come from tables), but keep order stable.
    scen_rows, design_rows = [], []
    order = {n: i for i, n in enumerate(core_scenarios())}
    names = sorted(scen_groups, key=lambda s: (s not in core, order.get(s, 0), s.lower()))
    design = _reference().taxonomy.design_grid
    by_display = {clean_name(v.get("short_display_name") or v.get("display_name") or k): k
                  for k, v in schema.run_groups.items()}
    for s in names:
        if s in core:
            scen_rows.append(dict(core[s]))
            sub = design[design["scenario"] == s]
            design_rows.extend(sub.to_dict("records"))
        else:
            rg = by_display.get(s, "")
            sg = schema.run_groups.get(rg, {})
            env = sg.get("environment") if isinstance(sg.get("environment"), dict) else {}
            scen_rows.append({"scenario": s, "run_group": clean_name(rg), "display_name": clean_name(sg.get("display_name") or s),
                              "task": "", "main_metric": clean_name(env.get("main_name") or ""),
                              "main_metric_display": scen_meta.get(s, {}).get("metric", ""),
                              "main_split": clean_name(env.get("main_split") or ""),
                              "description": clean_name(sg.get("description") or "", 500)})
            for mg in ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency",
                       "summarization_metrics"):
                design_rows.append({"scenario": s, "metric_group": mg, "in_schema": mg in scen_groups[s]})
    return list(rows.values()), list(models.values()), scen_rows, design_rows, list(published.values())


def _complete(rows: list[dict], model_names: list[str]) -> list[dict]:
    """Every model gets every (scenario, metric group, metric) column: a missing pair is a blank row, as
    HELM's tables show "No matching runs" rather than dropping the cell."""
    have = {(r["model"], r["scenario"], r["metric_group"], r["metric"]) for r in rows}
    columns = {}
    for r in rows:
        columns.setdefault((r["scenario"], r["metric_group"], r["metric"]), r["lower_is_better"])
    out = list(rows)
    for m in model_names:
        for (s, mg, metric), lib in columns.items():
            if (m, s, mg, metric) not in have:
                out.append({"model": m, "scenario": s, "metric_group": mg, "metric": metric, "value": float("nan"),
                            "lower_is_better": lib, "n_runs": float("nan"), "run_min": float("nan"),
                            "run_max": float("nan"), "note": ""})
    return out


# ----------------------------------------------------------------------------- release


def _release(results: list[dict], models: list[dict], scen_rows: list[dict], design_rows: list[dict],
             published: list[dict], tree: _Tree, source: str, notes: list[str], kind: str) -> Release:
    ref = _reference()
    res = pd.DataFrame(results, columns=RESULT_COLUMNS)
    for c in ("value", "n_runs", "run_min", "run_max"):
        res[c] = pd.to_numeric(res[c], errors="coerce").astype(float)
    res["lower_is_better"] = res["lower_is_better"].astype("boolean")
    res["note"] = res["note"].fillna("").astype(str)
    for c in ("model", "scenario", "metric_group", "metric"):
        res[c] = res[c].astype(str)
    mdf = _models_frame(models)
    scen = pd.DataFrame(scen_rows)
    for c in SCENARIO_COLUMNS:
        if c not in scen.columns:
            scen[c] = ""
    scen["core"] = scen["scenario"].isin(core_scenarios())
    design = pd.DataFrame(design_rows, columns=DESIGN_COLUMNS)
    design["in_schema"] = design["in_schema"].astype(bool)
    pub = pd.DataFrame(published, columns=PUBLISHED_COLUMNS)
    pub["win_rate"] = pd.to_numeric(pub["win_rate"], errors="coerce").astype(float)
    groups = ref.taxonomy.metric_groups.copy()
    _validate(res, mdf, scen, groups)
    label = clean_name(tree.label, 80)
    name = f"Your HELM output ({label})"
    meta = {"kind": "uploaded", "release": name, "release_short": label, "source": clean_name(source, 200),
            "loaded_from": kind, "digest": tree.digest, "notes": list(dict.fromkeys(notes)),
            "counts": {"models": int(len(mdf)), "scenarios": int(len(scen)), "result_rows": int(len(res)),
                       "result_values": int(res["value"].notna().sum())}}
    return Release(results=res.reset_index(drop=True), models=mdf, taxonomy=Taxonomy(
        scenarios=scen.reset_index(drop=True), metric_groups=groups, design_grid=design.reset_index(drop=True)),
        meta=meta, published_win_rates=pub, paper_models=pd.DataFrame())


def _validate(res: pd.DataFrame, models: pd.DataFrame, scen: pd.DataFrame, groups: pd.DataFrame) -> None:
    """The invariants load_release checks on the bundled files, on the frames built from HELM output."""
    if res.empty:
        raise DataError("the HELM output holds no results that map to a scenario and a metric group")
    if scen["scenario"].duplicated().any():
        raise DataError(f"scenario {scen['scenario'][scen['scenario'].duplicated()].iloc[0]!r} appears twice")
    bad = ~res["scenario"].isin(set(scen["scenario"]))
    if bad.any():
        raise DataError(f"results: scenario {res['scenario'][bad].iloc[0]!r} has no taxonomy row")
    bad = ~res["model"].isin(set(models["model"]))
    if bad.any():
        raise DataError(f"results: model {res['model'][bad].iloc[0]!r} has no model row")
    bad = ~res["metric_group"].isin(set(groups["metric_group"]))
    if bad.any():
        raise DataError(f"results: unknown metric group {res['metric_group'][bad].iloc[0]!r}")
    bad = ~models["access"].isin(ACCESS_LEVELS + ("",))
    if bad.any():
        raise DataError(f"models: access {models['access'][bad].iloc[0]!r} is not one of {', '.join(ACCESS_LEVELS)}")
    if res.duplicated(["model", "scenario", "metric_group", "metric"]).any():
        raise DataError("results: a (model, scenario, metric) cell appears twice")


# ----------------------------------------------------------------------------- runs table


def _runs_frames(runs: list[_Run], run_groups: dict[str, str], specs: dict[str, _ScenarioSpec], schema: _Schema,
                 notes: list[str]):
    rows, stat_rows, files = [], [], {}
    conf_parts = []
    names = [r.name for r in runs]
    dup = {n for n in names if names.count(n) > 1}
    for r in runs:
        suite = clean_name(PurePosixPath(r.folder).parent.name if r.folder else "")
        key = clean_name(f"{suite}/{r.name}" if r.name in dup else r.name, 300)
        if key in files:
            key = clean_name(r.folder, 300) or key
        spec = specs[run_groups[r.folder]]
        ids = _instance_keys(r)
        model = _model_display(r.model_id, schema)
        has = "scenario_state.json" in r.files or "display_predictions.json" in r.files
        inst_files = ", ".join(n for n in RUN_FILES if n in r.files and n not in REQUIRED_RUN_FILES)
        rows.append({"run": key, "run_name": clean_name(r.name, 300), "folder": r.folder, "suite": suite, "model": model,
                     "model_id": r.model_id, "scenario": spec.scenario, "run_group": spec.run_group,
                     "method": r.method, "num_train_trials": r.num_train_trials,
                     "n_instances": ids["n_instances"], "n_predictions": ids["n_predictions"],
                     "seeds": ids["seeds"], "perturbations": ids["perturbations"], "has_instances": has,
                     "instance_files": inst_files, "adapter_spec": json.dumps(r.adapter_spec, indent=1, ensure_ascii=False,
                                                                            default=str)[:20000]})
        for s in r.stats:
            stat_rows.append({"run": key, "name": s.name, "split": s.split, "sub_split": s.sub_split,
                              "perturbation": s.perturbation, "count": s.count, "mean": s.mean, "min": s.min,
                              "max": s.max, "stddev": s.stddev})
        files[key] = dict(r.files)
        if has:
            inst = _instances_from(lambda n, f=r.files: zlib.decompress(f[n]) if n in f else None, r.folder or key)
            split = spec.main_split if (inst["split"] == spec.main_split).any() else None
            conf = instance_confidences(inst, split=split)
            if not conf.empty:
                conf.insert(0, "scenario", spec.scenario)
                conf.insert(0, "model", model)
                conf["run"] = key
                conf_parts.append(conf)
    run_df = pd.DataFrame(rows, columns=RUN_COLUMNS)
    run_df["has_instances"] = run_df["has_instances"].astype(bool)
    for c in ("n_instances", "n_predictions"):
        run_df[c] = run_df[c].astype("int64")
    stat_df = pd.DataFrame(stat_rows, columns=STAT_COLUMNS)
    conf_df = (pd.concat(conf_parts, ignore_index=True) if conf_parts else
               pd.DataFrame({"model": pd.Series(dtype=object), "scenario": pd.Series(dtype=object),
                             "prob": pd.Series(dtype=float), "correct": pd.Series(dtype="int64"),
                             "run": pd.Series(dtype=object)}))
    return run_df, stat_df, files, conf_df


def _instance_keys(r: _Run) -> dict:
    """Counts for the runs table from the smallest per-instance file present."""
    for fname in ("display_predictions.json", "per_instance_stats.json", "scenario_state.json"):
        if fname not in r.files:
            continue
        where = f"{r.folder}/{fname}"
        obj = _parse_json(zlib.decompress(r.files[fname]), where)
        if fname == "scenario_state.json":
            _expect(obj, dict, where, "an object with 'request_states'")
            items = _expect(obj.get("request_states"), list, f"{where}: 'request_states'", "a list")
            items = [(_expect(x, dict, f"{where}: request state {i + 1}", "an object").get("instance") or {}, x, i)
                     for i, x in enumerate(items)]
            keys = [(str(inst.get("id", "")) if isinstance(inst, dict) else "",
                     _trial(x.get("train_trial_index"), f"{where}: request state {i + 1}"),
                     _pert_name(inst.get("perturbation") if isinstance(inst, dict) else None)) for inst, x, i in items]
        else:
            _expect(obj, list, where, "a list")
            keys = []
            for i, x in enumerate(obj):
                _expect(x, dict, f"{where}: item {i + 1}", "an object with 'instance_id'")
                keys.append((str(x.get("instance_id", "")), _trial(x.get("train_trial_index"), f"{where}: item {i + 1}"),
                             _pert_name(x.get("perturbation"))))
        seeds = sorted({k[1] for k in keys if isinstance(k[1], int) and not isinstance(k[1], bool)})
        perts = sorted({k[2] for k in keys if k[2]})
        return {"n_instances": len({k[0] for k in keys}), "n_predictions": len(keys),
                "seeds": ",".join(map(str, seeds)), "perturbations": ",".join(perts)}
    return {"n_instances": 0, "n_predictions": 0, "seeds": "", "perturbations": ""}


def _trial(v: Any, where: str) -> int:
    """A train_trial_index (the seed replicate): a whole number, 0 when absent."""
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError(f"{where} 'train_trial_index': expected a whole number, found {_tname(v)}")
    return v


def _pert_name(p: Any) -> str:
    if isinstance(p, dict):
        n = p.get("name")
        return n if isinstance(n, str) else ""
    return ""


def _pert_key(p: Any) -> str:
    return json.dumps(p, sort_keys=True) if isinstance(p, dict) else ""


# ----------------------------------------------------------------------------- instances


def load_instances(run_folder: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES,
                   max_files: int = DEFAULT_MAX_FILES) -> pd.DataFrame:
    """The instances of one run folder: one row per request state (per instance, seed and perturbation; per
    reference too for multiple_choice_separate_* runs). Columns (INSTANCE_COLUMNS): instance_id,
    train_trial_index (the seed replicate), perturbation ("" = original), split, sub_split, reference_index,
    request_mode, method, input, prompt (the full prompt as sent), completion (the first completion's text),
    completions (every completion's text), mapped_output (the choice a letter maps to), references (a list of
    {"text", "correct", "label"}), stats (per-instance stats, name -> mean), correct (0/1 or NaN), prob,
    prob_normalised, prob_source, logprob. See the module docstring for how `prob` is computed.
    Nothing is invented: a field the files do not hold is empty (text) or NaN (numbers)."""
    root = Path(run_folder)
    if not root.is_dir():
        raise DataError(f"{root}: not a run folder")
    tree = _collect_dir(root, max_bytes, max_files)
    f = {PurePosixPath(k).name: v for k, v in tree.files.items() if "/" not in k}
    return _instances_from(lambda n: zlib.decompress(f[n]) if n in f else None, root.name)


def _instances_from(get: Callable[[str], bytes | None], label: str) -> pd.DataFrame:
    def load(name: str) -> Any:
        raw = get(name)
        return None if raw is None else _parse_json(raw, f"{label}/{name}")

    spec = load("run_spec.json")
    method = ""
    if isinstance(spec, dict) and isinstance(spec.get("adapter_spec"), dict):
        m = spec["adapter_spec"].get("method")
        method = m if isinstance(m, str) else ""
    pis = load("per_instance_stats.json")
    stats_by_key: dict[tuple, dict] = {}
    any_logprob_stat = False
    if pis is not None:
        where = f"{label}/per_instance_stats.json"
        _expect(pis, list, where, "a list of per-instance stats")
        for i, item in enumerate(pis):
            iw = f"{where}: item {i + 1}"
            _expect(item, dict, iw, "an object with 'instance_id' and 'stats'")
            iid = _expect(item.get("instance_id"), str, f"{iw} 'instance_id'", "text")
            trial = _trial(item.get("train_trial_index"), iw)
            d = stats_by_key.setdefault((iid, trial, _pert_key(item.get("perturbation"))), {})
            if _stat_means(item.get("stats"), f"{iw} 'stats'", d):
                any_logprob_stat = True
    state = load("scenario_state.json")
    if state is not None:
        rows = _rows_from_state(state, f"{label}/scenario_state.json", method, stats_by_key, any_logprob_stat)
    else:
        preds = load("display_predictions.json")
        if preds is None:
            raise DataError(f"{label}: no per-instance files (scenario_state.json, or display_predictions.json "
                            "with display_requests.json and instances.json)")
        rows = _rows_from_display(preds, load("display_requests.json"), load("instances.json"), label, method,
                                  stats_by_key, any_logprob_stat)
    df = pd.DataFrame(rows, columns=INSTANCE_COLUMNS)
    for c in ("correct", "prob", "prob_normalised", "logprob", "reference_index"):
        df[c] = pd.to_numeric(df[c], errors="coerce").astype(float)
    df["train_trial_index"] = df["train_trial_index"].astype("int64")
    return df


def _references(inst: dict, where: str, mapping: dict | None) -> list[dict]:
    refs = inst.get("references", [])
    if refs is None:
        return []
    _expect(refs, list, f"{where} 'references'", "a list")
    letters = {}
    if isinstance(mapping, dict):
        letters = {v: k for k, v in mapping.items() if isinstance(v, str)}
    out = []
    for j, ref in enumerate(refs):
        _expect(ref, dict, f"{where} reference {j + 1}", "an object with 'output' and 'tags'")
        output = ref.get("output") or {}
        _expect(output, dict, f"{where} reference {j + 1} 'output'", "an object with 'text'")
        text = _opt_str(output.get("text"), f"{where} reference {j + 1} 'output.text'")
        tags = ref.get("tags") or []
        _expect(tags, list, f"{where} reference {j + 1} 'tags'", "a list")
        out.append({"text": text, "correct": "correct" in tags, "label": letters.get(text, "")})
    return out


def _exact(pred: str, refs: list[dict]) -> float:
    golds = [r["text"].strip() for r in refs if r["correct"]]
    if not golds:
        return float("nan")
    return float(pred.strip() in golds)


def _rows_from_state(state: Any, where: str, method: str, stats_by_key: dict, any_logprob_stat: bool) -> list[dict]:
    _expect(state, dict, where, "an object with 'adapter_spec' and 'request_states'")
    adapter = state.get("adapter_spec")
    if isinstance(adapter, dict) and isinstance(adapter.get("method"), str):
        method = adapter["method"]
    items = _expect(state.get("request_states"), list, f"{where}: 'request_states'", "a list of request states")
    parsed = []
    has_logprobs = False
    for i, rs in enumerate(items):
        rw = f"{where}: request state {i + 1}"
        _expect(rs, dict, rw, "an object")
        inst = _expect(rs.get("instance"), dict, f"{rw} 'instance'", "an object with 'input' and 'references'")
        inp = inst.get("input") or {}
        _expect(inp, dict, f"{rw} 'instance.input'", "an object with 'text'")
        request = rs.get("request") or {}
        _expect(request, dict, f"{rw} 'request'", "an object with 'prompt'")
        result = rs.get("result") or {}
        _expect(result, dict, f"{rw} 'result'", "an object with 'completions'")
        comps = result.get("completions") or []
        _expect(comps, list, f"{rw} 'result.completions'", "a list")
        clean = []
        for j, c in enumerate(comps):
            cw = f"{rw} completion {j + 1}"
            _expect(c, dict, cw, "an object with 'text' and 'logprob'")
            text = _opt_str(c.get("text"), f"{cw} 'text'")
            lp = _num(c.get("logprob", 0.0), f"{cw} 'logprob'")
            toks = c.get("tokens") or []
            _expect(toks, list, f"{cw} 'tokens'", "a list")
            tlist = []
            for k, t in enumerate(toks):
                _expect(t, dict, f"{cw} token {k + 1}", "an object with 'text' and 'logprob'")
                tl = _num(t.get("logprob", 0.0), f"{cw} token {k + 1} 'logprob'")
                top = t.get("top_logprobs")
                if top is not None:
                    _expect(top, dict, f"{cw} token {k + 1} 'top_logprobs'", "an object (token -> logprob)")
                tlist.append((_opt_str(t.get("text"), f"{cw} token {k + 1} 'text'"), tl, top))
                if tl < 0:
                    has_logprobs = True
            if lp < 0:
                has_logprobs = True
            clean.append((text, lp, tlist))
        trial = _trial(rs.get("train_trial_index"), rw)
        mapping = rs.get("output_mapping")
        if mapping is not None:
            _expect(mapping, dict, f"{rw} 'output_mapping'", "an object (letter -> choice)")
        parsed.append((rw, rs, inst, inp, request, clean, trial, mapping))
    rows = []
    for rw, rs, inst, inp, request, clean, trial, mapping in parsed:
        iid = _opt_str(inst.get("id"), f"{rw} 'instance.id'")
        pert = inst.get("perturbation")
        refs = _references(inst, rw, mapping)
        stats = stats_by_key.get((iid, trial, _pert_key(pert)), {})
        completion = clean[0][0] if clean else ""
        top = max(clean, key=lambda c: c[1]) if clean else None
        mapped = ""
        if isinstance(mapping, dict) and top is not None:
            v = mapping.get(top[0].strip())
            mapped = v if isinstance(v, str) else ""
        prob, prob_norm, source = float("nan"), float("nan"), ""
        if has_logprobs and top is not None:
            if method == "multiple_choice_joint" and isinstance(mapping, dict):
                prob, prob_norm = _joint_prob(top, mapping)
                source = "logprob of the chosen letter"
            elif method.startswith("multiple_choice_separate") or method == "ranking_binary":
                mp = stats.get("max_prob")
                if mp is not None and not math.isnan(mp):
                    prob, source = mp, "max_prob stat"
            else:
                prob, source = math.exp(top[1]), "logprob of the completion"
        elif any_logprob_stat and stats.get("max_prob") is not None:
            prob, source = stats["max_prob"], "max_prob stat"
        correct = stats.get("exact_match")
        if correct is None or (isinstance(correct, float) and math.isnan(correct)):
            correct = _exact(mapped if mapped else completion, refs) if clean else float("nan")
        else:
            correct = float(int(correct))
        ref_index = rs.get("reference_index")
        rows.append({
            "instance_id": iid, "train_trial_index": trial, "perturbation": _pert_name(pert),
            "split": _opt_str(inst.get("split"), f"{rw} 'instance.split'"),
            "sub_split": _opt_str(inst.get("sub_split"), f"{rw} 'instance.sub_split'"),
            "reference_index": ref_index if isinstance(ref_index, int) and not isinstance(ref_index, bool) else None,
            "request_mode": rs.get("request_mode") if isinstance(rs.get("request_mode"), str) else "",
            "method": method,
            "input": _opt_str(inp.get("text"), f"{rw} 'instance.input.text'"),
            "prompt": _opt_str(request.get("prompt"), f"{rw} 'request.prompt'"),
            "completion": completion, "completions": [c[0] for c in clean], "mapped_output": mapped,
            "references": refs, "stats": stats, "correct": correct, "prob": prob, "prob_normalised": prob_norm,
            "prob_source": source, "logprob": top[1] if top is not None else float("nan"),
        })
    return rows


def _joint_prob(top: tuple, mapping: dict) -> tuple[float, float]:
    """(prob, prob_normalised) of the chosen letter of a multiple_choice_joint completion."""
    text, lp, tokens = top
    letter = text.strip()
    tok = next((t for t in tokens if t[0].strip() == letter), None) if letter else None
    if tok is None:
        return math.exp(lp), float("nan")
    prob = math.exp(tok[1])
    top_lp = tok[2]
    if not isinstance(top_lp, dict) or letter not in mapping:
        return prob, float("nan")
    best: dict[str, float] = {letter: tok[1]}
    for k, v in top_lp.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        key = k.strip()
        if key in mapping:
            best[key] = max(best.get(key, -math.inf), float(v))
    denom = sum(math.exp(v) for v in best.values())
    return prob, (math.exp(best[letter]) / denom if denom > 0 else float("nan"))


def _rows_from_display(preds: Any, requests: Any, instances: Any, label: str, method: str, stats_by_key: dict,
                       any_logprob_stat: bool) -> list[dict]:
    pw = f"{label}/display_predictions.json"
    _expect(preds, list, pw, "a list of predictions")
    prompts: dict[tuple, str] = {}
    if requests is not None:
        rw = f"{label}/display_requests.json"
        _expect(requests, list, rw, "a list of requests")
        for i, r in enumerate(requests):
            _expect(r, dict, f"{rw}: item {i + 1}", "an object with 'instance_id' and 'request'")
            req = r.get("request") or {}
            _expect(req, dict, f"{rw}: item {i + 1} 'request'", "an object with 'prompt'")
            key = (str(r.get("instance_id", "")), _trial(r.get("train_trial_index"), f"{rw}: item {i + 1}"),
                   _pert_key(r.get("perturbation")))
            prompts[key] = _opt_str(req.get("prompt"), f"{rw}: item {i + 1} 'request.prompt'")
    insts: dict[tuple, dict] = {}
    if instances is not None:
        iw = f"{label}/instances.json"
        _expect(instances, list, iw, "a list of instances")
        for i, inst in enumerate(instances):
            _expect(inst, dict, f"{iw}: item {i + 1}", "an object with 'id', 'input' and 'references'")
            insts[(str(inst.get("id", "")), _pert_key(inst.get("perturbation")))] = inst
    rows = []
    for i, p in enumerate(preds):
        w = f"{pw}: item {i + 1}"
        _expect(p, dict, w, "an object with 'instance_id' and 'predicted_text'")
        iid = _expect(p.get("instance_id"), str, f"{w} 'instance_id'", "text")
        trial = _trial(p.get("train_trial_index"), w)
        pk = _pert_key(p.get("perturbation"))
        text = _opt_str(p.get("predicted_text"), f"{w} 'predicted_text'")
        mapped = p.get("mapped_output")
        mapped = mapped if isinstance(mapped, str) else ""
        dstats = p.get("stats") or {}
        _expect(dstats, dict, f"{w} 'stats'", "an object (metric -> value)")
        stats = dict(stats_by_key.get((iid, trial, pk), {}))
        for k, v in dstats.items():
            stats.setdefault(str(k), _num(v, f"{w} stats '{k}'"))
        inst = insts.get((iid, pk), {})
        inp = inst.get("input") if isinstance(inst.get("input"), dict) else {}
        refs = _references(inst, f"{label}/instances.json id {iid!r}", None) if inst else []
        correct = stats.get("exact_match")
        if correct is None or math.isnan(correct):
            correct = _exact(mapped or text, refs)
        else:
            correct = float(int(correct))
        logprob_stat = stats.get("logprob")
        prob, source = float("nan"), ""
        if any_logprob_stat or (logprob_stat is not None and logprob_stat < 0):
            mp = stats.get("max_prob")
            if mp is not None and not math.isnan(mp):
                prob, source = mp, "max_prob stat"
        ref_index = p.get("reference_index")
        rows.append({
            "instance_id": iid, "train_trial_index": trial, "perturbation": _pert_name(p.get("perturbation")),
            "split": str(inst.get("split") or "") if inst else "", "sub_split": str(inst.get("sub_split") or "") if inst else "",
            "reference_index": ref_index if isinstance(ref_index, int) and not isinstance(ref_index, bool) else None,
            "request_mode": "", "method": method, "input": str(inp.get("text") or "") if inp else "",
            "prompt": prompts.get((iid, trial, pk), ""), "completion": text, "completions": [text],
            "mapped_output": mapped, "references": refs, "stats": stats, "correct": correct, "prob": prob,
            "prob_normalised": float("nan"), "prob_source": source,
            "logprob": logprob_stat if logprob_stat is not None else float("nan"),
        })
    return rows


def instance_confidences(instances: pd.DataFrame, *, perturbation: str | None = "", split: str | None = None,
                         normalised: bool = False) -> pd.DataFrame:
    """The (prob, correct) frame for a reliability diagram: one row per (instance, seed) with a probability,
    from the original (unperturbed) instances by default; `split` limits to one split (None = all);
    `normalised=True` uses `prob_normalised` (multiple_choice_joint with top_logprobs) instead of `prob`.
    `correct` is 0/1 (int). Rows without a probability (no log-probabilities) are left out."""
    col = "prob_normalised" if normalised else "prob"
    df = instances
    if perturbation is not None:
        df = df[df["perturbation"] == perturbation]
    if split is not None:
        df = df[df["split"] == split]
    df = df[df[col].notna() & df["correct"].notna()]
    # multiple_choice_separate runs hold one request state per reference: one row per instance and seed.
    df = df.drop_duplicates(["instance_id", "train_trial_index", "perturbation"])
    out = pd.DataFrame({"prob": df[col].astype(float).clip(0.0, 1.0).to_numpy(),
                        "correct": df["correct"].astype("int64").to_numpy()})
    return out


# ----------------------------------------------------------------------------- summaries for the app


def core_gaps(release: Release) -> pd.DataFrame:
    """The core grid (16 scenarios × the 7 core metric groups the schema assigns) against a release:
    status "measured" (some model has a value), "blank" (the column is there, no value) or
    "not loaded" (the release has no such scenario)."""
    ref = _reference().taxonomy.design_grid
    design = ref[ref["in_schema"] & ref["metric_group"].isin(CORE_GROUPS)]
    res = release.results
    measured = set(map(tuple, res.loc[res["value"].notna(), ["scenario", "metric_group"]].drop_duplicates().to_numpy()))
    present = set(map(tuple, res[["scenario", "metric_group"]].drop_duplicates().to_numpy()))
    scen = set(release.taxonomy.scenario_names)
    rows = []
    for s, g in design[["scenario", "metric_group"]].itertuples(index=False):
        if s not in scen:
            status = "not loaded"
        elif (s, g) in measured:
            status = "measured"
        elif (s, g) in present:
            status = "blank"
        else:
            status = "not loaded"
        rows.append({"scenario": s, "metric_group": g, "status": status})
    return pd.DataFrame(rows, columns=["scenario", "metric_group", "status"])


def summary(output: HelmOutput) -> dict:
    """What was loaded, for the data page: counts, scenarios (core / extra), metric groups with values,
    what is missing compared with the core grid, and the loader's notes."""
    rel = output.release
    res = rel.results
    scen = rel.taxonomy.scenarios
    core = core_scenarios()
    gaps = core_gaps(rel)
    with_values = sorted(set(res.loc[res["value"].notna(), "metric_group"]))
    return {
        "release": rel.name,
        "loaded_from": rel.meta.get("loaded_from", ""),
        "models": int(len(rel.models)),
        "scenarios": int(len(scen)),
        "core_scenarios": [s for s in scen["scenario"] if s in core],
        "extra_scenarios": [s for s in scen["scenario"] if s not in core],
        "missing_core_scenarios": [s for s in core if s not in set(scen["scenario"])],
        "metric_groups": [g for g in KNOWN_GROUPS if g in with_values],
        "missing_core_groups": [g for g in CORE_GROUPS if g not in with_values],
        "runs": int(len(output.runs)),
        "runs_with_instances": int(output.runs["has_instances"].sum()) if len(output.runs) else 0,
        "instances": output.n_instances,
        "values": int(res["value"].notna().sum()),
        "blanks": int(res["value"].isna().sum()),
        "core_cells": int(len(gaps)),
        "core_cells_measured": int((gaps["status"] == "measured").sum()),
        "core_cells_blank": int((gaps["status"] == "blank").sum()),
        "core_cells_not_loaded": int((gaps["status"] == "not loaded").sum()),
        "confidences": int(len(rel.meta.get("instance_confidences", []))),
        "notes": list(rel.meta.get("notes", [])),
    }


HEADLINE = (("accuracy", ""), ("robustness", "robustness"), ("fairness", "fairness"))


def run_headline(output: HelmOutput, run: str) -> pd.DataFrame:
    """Headline numbers of one run's stats.json: the main metric (and its robustness / fairness worst case)
    on the main split, ECE, instances, in-context examples, prompt tokens and runtime; only those present.
    Columns: label, stat, split, value, count."""
    runs = output.runs
    row = runs[runs["run"] == run]
    if row.empty:
        raise DataError(f"{run[:120]}: no such run in this dataset")
    scen_name = row["scenario"].iloc[0]
    scen = output.release.taxonomy.scenarios
    srow = scen[scen["scenario"] == scen_name]
    main = str(srow["main_metric"].iloc[0]) if not srow.empty else ""
    split = str(srow["main_split"].iloc[0]) if not srow.empty else ""
    rs = output.run_stats[output.run_stats["run"] == run]
    if split and not (rs["split"] == split).any():
        split = "test" if (rs["split"] == "test").any() else (rs["split"].iloc[0] if len(rs) else split)
    wanted = []
    if main:
        shown = str(srow["main_metric_display"].iloc[0]) if "main_metric_display" in srow.columns else ""
        disp = METRICS[main][0] if main in METRICS else (shown or main)
        wanted += [(disp, main, ""), (f"{disp} (Robustness)", main, "robustness"), (f"{disp} (Fairness)", main, "fairness")]
    wanted += [("ECE (10-bin)", "ece_10_bin", ""), ("# eval", "num_instances", ""), ("# train", "num_train_instances", ""),
               ("# prompt tokens", "num_prompt_tokens", ""), ("Inference time (s)", "inference_runtime", ""),
               ("Denoised inference time (s)", "inference_denoised_runtime", "")]
    out = []
    for label, name, pert in wanted:
        sel = rs[(rs["name"] == name) & (rs["split"] == split) & (rs["sub_split"] == "") & (rs["perturbation"] == pert)]
        sel = sel[sel["count"] > 0]
        if sel.empty:
            continue
        out.append({"label": label, "stat": name, "split": split, "value": float(sel["mean"].iloc[0]),
                    "count": float(sel["count"].iloc[0])})
    return pd.DataFrame(out, columns=["label", "stat", "split", "value", "count"])


def search_instances(instances: pd.DataFrame, text: str) -> pd.DataFrame:
    """Rows whose input, prompt, completion or references contain `text` (case-insensitive, literal)."""
    t = (text or "").strip().lower()
    if not t:
        return instances
    refs = instances["references"].map(lambda rs: "\n".join(r["text"] for r in rs) if isinstance(rs, list) else "")
    hay = (instances["input"].fillna("") + "\n" + instances["prompt"].fillna("") + "\n"
           + instances["completion"].fillna("") + "\n" + refs).str.lower()
    return instances[hay.str.contains(t, regex=False)]


def filter_instances(instances: pd.DataFrame, seed: int | None = None, perturbation: str | None = None,
                     text: str = "") -> pd.DataFrame:
    """Instances of one seed (None = all) and perturbation (None = all, "" = original), then `search_instances`."""
    df = instances
    if seed is not None:
        df = df[df["train_trial_index"] == seed]
    if perturbation is not None:
        df = df[df["perturbation"] == perturbation]
    return search_instances(df, text).reset_index(drop=True)


def instance_stats_table(stats: Mapping[str, float]) -> pd.DataFrame:
    """A per-instance stats dict as a (stat, value) table, in HELM's order."""
    return pd.DataFrame([{"stat": k, "value": v} for k, v in stats.items()], columns=["stat", "value"])


def describe_prob(row: Mapping[str, Any]) -> str:
    """One sentence saying what the probability shown for an instance is."""
    src = row.get("prob_source") or ""
    if not src:
        return "No probability: the model returned no log-probabilities for this run (every logprob is 0)."
    if src == "logprob of the chosen letter":
        return "exp(log-probability) of the answer letter the model wrote."
    if src == "logprob of the completion":
        return "exp(log-probability) of the whole completion (HELM's max_prob)."
    return "HELM's per-instance max_prob statistic."


__all__ = [
    "DEFAULT_MAX_BYTES", "DEFAULT_MAX_FILES", "DEFAULT_MAX_UPLOAD_BYTES", "HelmOutput", "INSTANCE_COLUMNS",
    "RUN_COLUMNS", "core_gaps", "core_scenarios", "describe_prob", "filter_instances", "instance_confidences",
    "clean_name", "instance_stats_table", "load_helm_output", "load_instances", "read_helm_output", "read_helm_zip",
    "run_headline", "search_instances", "summary",
]
