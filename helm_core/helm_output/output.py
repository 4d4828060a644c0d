"""A loaded HELM output (`HelmOutput`): reading a path, a zip or an upload into a Release plus the run index,
and the summaries the data and runs pages show."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping

import pandas as pd

from .. import validity
from ..data import (ACCESS_LEVELS, CORE_GROUPS, DESIGN_COLUMNS, DataError, PUBLISHED_COLUMNS, RESULT_COLUMNS, Release,
                    SCENARIO_COLUMNS, Taxonomy)
from .archive import (DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, DEFAULT_MAX_RUNS, DEFAULT_MAX_UPLOAD_BYTES, RUN_FILES,
                      REQUIRED_RUN_FILES, Source, _check_json_size, _mb, open_bytes, open_path, open_zip)
from .fields import clean_name
from .schema import (KNOWN_GROUPS, MAIN_METRIC_GUESSES, METRICS, _core_by_run_group, _model_display, _model_row, _models_frame,
                     _parse_schema, _reference, core_scenarios, schema_aliases)
from .runs import (_Run, _parse_run, _results_from_runs, _run_folders, _run_reader, _runs_frames, _scenario_for_group,
                   relevant_stats, run_confidences)
from .groups import _results_from_tables, _table_files
from .instances import _instances_from

# ----------------------------------------------------------------------------- output

INSTANCE_FILES = tuple(n for n in RUN_FILES if n not in REQUIRED_RUN_FILES)
# Below this many bytes of instance files, a dataset's instance files are read at load: exact counts in the runs
# table and per-instance confidences for the calibration page. Above it, they are read when a run is opened.
EAGER_INSTANCE_BYTES = 50_000_000


@dataclass(frozen=True)
class HelmOutput:
    """A loaded HELM output: the Release for every page, the run index (`runs`), every run's stats.json
    (`run_stats`), and where each run's files are. No file's bytes are kept: a run's instance files are read
    from the source (the folder, or the uploaded archive) when `instances` or `confidences` asks for them."""

    release: Release
    runs: pd.DataFrame
    run_stats: pd.DataFrame
    digest: str
    source: Source | None = field(default=None, repr=False)
    files: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict, repr=False)  # run -> (folder, names)
    table_files: tuple[str, ...] = ()  # the groups/*.json leaderboard tables, HELM's core table first
    _memo: dict = field(default_factory=dict, repr=False, compare=False)

    def leaderboard(self) -> list:
        """HELM's own tables of every groups file (`helm_core.leaderboard.Table`s, file by file in
        `table_files` order), read from the source on first use and kept."""
        if "leaderboard" not in self._memo:
            from ..leaderboard import parse_tables

            if self.source is None:
                return []
            self._memo["leaderboard"] = [t for rel in self.table_files for t in parse_tables(self.source.json(rel), rel)]
        return self._memo["leaderboard"]

    def _reader(self, run: str):
        if run not in self.files or self.source is None:
            raise DataError(f"{run[:120]}: no such run in this dataset")
        folder, present = self.files[run]
        return _run_reader(self.source, folder, present)

    def instances(self, run: str) -> pd.DataFrame:
        """The instances of one run (see `load_instances`), read from its files now."""
        return _instances_from(self._reader(run), run)

    def confidences(self, run: str) -> pd.DataFrame:
        """One run's per-instance (model, scenario, prob, correct, run) rows for a reliability diagram, read
        from its files now (the shape of `meta["instance_confidences"]`)."""
        inst = self.instances(run)
        row = self.runs[self.runs["run"] == run].iloc[0]
        scen = self.release.taxonomy.scenarios
        split = scen.loc[scen["scenario"] == row["scenario"], "main_split"]
        return run_confidences(inst, str(split.iloc[0]) if len(split) else "", row["model"], row["scenario"], run)

    @property
    def n_instances(self) -> int:
        return int(self.runs["n_instances"].sum()) if not self.runs.empty else 0

    @property
    def lazy(self) -> bool:
        """Whether the instance files were left unread at load (counts from stats.json, no confidences yet)."""
        return bool(self.release.meta.get("lazy_instances", False))


Progress = Callable[[int, int], None]


def read_helm_output(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES,
                     max_runs: int = DEFAULT_MAX_RUNS, eager_instance_bytes: int | None = None,
                     progress: Progress | None = None) -> HelmOutput:
    """Read HELM output from a groups JSON file, a folder, or a .zip path (see the package docstring).
    A folder has no cap on its total size: only run_spec.json, stats.json and the suite files are read, one
    by one; instance files are read at load only when they total at most `eager_instance_bytes` (default
    EAGER_INSTANCE_BYTES).
    `progress(done, total)` is called as run folders are read."""
    tree = open_path(path, max_bytes, max_files)
    return _build(tree, source=str(path), max_runs=max_runs, eager_instance_bytes=eager_instance_bytes,
                  progress=progress)


def read_helm_zip(data: bytes, name: str = "upload.zip", *, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
                  max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES,
                  max_runs: int = DEFAULT_MAX_RUNS, eager_instance_bytes: int | None = None,
                  progress: Progress | None = None) -> HelmOutput:
    """Read an uploaded .zip archive given as bytes (checked against the upload limit first). The archive
    stays as it came (its bytes are the source); members are unpacked when they are read."""
    label = Path(name).name or "upload.zip"
    if len(data) > max_upload_bytes:
        raise DataError(f"{label}: {_mb(len(data))} is over the upload limit of {_mb(max_upload_bytes)}")
    tree = open_zip(data, label, max_bytes, max_files)
    return _build(tree, source=label, max_runs=max_runs, eager_instance_bytes=eager_instance_bytes, progress=progress)


def check_upload_size(name: str, size: int, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES) -> None:
    """Refuse an upload by its name and size alone, before its bytes are read: over the upload limit, or a
    .json file over the per-file JSON limit."""
    label = Path(name).name or "upload"
    if size > max_upload_bytes:
        raise DataError(f"{label}: {_mb(size)} is over the upload limit of {_mb(max_upload_bytes)}")
    if label.lower().endswith(".json"):
        _check_json_size(label, size)


def read_helm_upload(data: bytes, name: str = "upload.zip", *, max_upload_bytes: int = DEFAULT_MAX_UPLOAD_BYTES,
                     max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES,
                     progress: Progress | None = None) -> HelmOutput:
    """An uploaded file: a .zip archive (by content), or a single groups .json file (by name)."""
    label = Path(name).name or "upload"
    check_upload_size(label, len(data), max_upload_bytes)
    if label.lower().endswith(".json") and not bytes(data[:4]).startswith(b"PK"):
        if len(data) == 0:
            raise DataError(f"{label}: file is empty (0 bytes); expected a HELM groups JSON file")
        return _build(open_bytes(label, data), source=label)
    if not label.lower().endswith(".zip") and not bytes(data[:4]).startswith(b"PK"):
        raise DataError(f"{label}: expected a .zip archive of HELM output or a groups .json file")
    return read_helm_zip(data, label, max_upload_bytes=max_upload_bytes, max_bytes=max_bytes, max_files=max_files,
                         progress=progress)


def load_helm_output(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES, max_files: int = DEFAULT_MAX_FILES,
                     progress: Progress | None = None) -> Release:
    """A Release from HELM output (groups JSON, run folders, or a zip of either)."""
    return read_helm_output(path, max_bytes=max_bytes, max_files=max_files, progress=progress).release


def _build(tree: Source, source: str, max_runs: int = DEFAULT_MAX_RUNS, eager_instance_bytes: int | None = None,
           progress: Progress | None = None) -> HelmOutput:
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
    if len(folders) > max_runs:
        raise DataError(f"{tree.label}: {len(folders):,} run folders, over the limit of {max_runs:,} per dataset "
                        "(load one suite, runs/<suite>/, at a time)")
    schema = _parse_schema(tree)
    runs = []
    total = len(folders)
    relevant, names = relevant_stats(schema), {}  # one string object per distinct stat name
    for i, f in enumerate(folders):
        runs.append(_parse_run(tree, f, relevant, names))
        if progress is not None and (i + 1 == total or (i + 1) % 25 == 0):
            progress(i + 1, total)
    duplicates: list[dict] = []
    runs = _unique_runs(runs, tables, notes, duplicates)

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

    # The runs and stats tables first: every stat is checked there (helm_core.validity), and a stat HELM could
    # not have written is left out of the results too.
    inst_bytes = sum(size for rel, size in tree.sizes.items() if rel.rpartition("/")[2] in INSTANCE_FILES)
    if eager_instance_bytes is None:  # read at call time, so an operator (or a test) can change it
        eager_instance_bytes = EAGER_INSTANCE_BYTES
    eager = inst_bytes <= eager_instance_bytes
    run_df, stat_df, files, confidences, rejected, trial_df = _runs_frames(tree, runs, run_groups, specs, schema,
                                                                          notes, eager)
    _drop_rejected_stats(runs, rejected, schema)

    if tables:
        parts = _results_from_tables(tree, tables, schema, notes, rejected)
        if runs:
            notes.append("Results come from the leaderboard tables (groups/*.json); the run folders feed the "
                         "instance browser.")
    else:
        parts = _results_from_runs(runs, run_groups, specs, schema, notes)
    for r in runs:
        r.stats = []  # the results are built

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
                       "runs" if not tables else "groups", rejected, schema_aliases(schema))

    meta = dict(release.meta)
    if not eager:
        meta["notes"] = list(meta.get("notes", [])) + [
            f"The instance files total {_mb(inst_bytes)} (over {_mb(eager_instance_bytes)}), so they are read only "
            "when a run is opened: instance counts come from stats.json (num_instances), and no per-instance "
            "confidences were computed at load."]
    meta["lazy_instances"] = not eager
    meta["metric_descriptions"] = _metric_descriptions(schema, set(release.results["metric"]))
    meta["counts"] = {**meta.get("counts", {}), "runs": int(len(run_df)),
                      "instances": int(run_df["n_instances"].sum()) if len(run_df) else 0}
    meta["instance_confidences"] = confidences
    meta["duplicates"] = duplicates
    meta["run_trials"] = _run_trials(run_df)
    meta["trial_values"] = trial_df
    release = Release(results=release.results, models=release.models, taxonomy=release.taxonomy, meta=meta,
                      published_win_rates=release.published_win_rates, paper_models=release.paper_models)
    return HelmOutput(release=release, runs=run_df, run_stats=stat_df, digest=tree.digest, source=tree, files=files,
                      table_files=tuple(tables))


def _unique_runs(runs: list[_Run], tables: list[str], notes: list[str], duplicates: list[dict]) -> list[_Run]:
    """One run per run name. Two folders holding the same run (a copied folder, or the same run in two suites of
    a benchmark_output/) would both feed a cell and both open from it; the one kept is in the suite of the groups
    tables when there are any, else the first in folder order; the others are left out and named in `notes` and
    `duplicates` ({kind, name, kept, left_out})."""
    by_name: dict[str, list[_Run]] = {}
    for r in runs:
        by_name.setdefault(r.name, []).append(r)
    if all(len(rs) == 1 for rs in by_name.values()):
        return runs
    table_suites = {t.rpartition("groups/")[0].rstrip("/") for t in tables if "groups/" in t}
    drop: set[int] = set()
    for name, rs in by_name.items():
        if len(rs) < 2:
            continue
        ordered = sorted(rs, key=lambda r: (r.folder.rpartition("/")[0] not in table_suites, r.folder))
        kept, rest = ordered[0], ordered[1:]
        drop.update(id(r) for r in rest)
        record = {"kind": "run", "name": clean_name(name, 300), "kept": clean_name(kept.folder, 300),
                  "left_out": [clean_name(r.folder, 300) for r in rest]}
        duplicates.append(record)
        notes.append(duplicate_sentence(record))
    return [r for r in runs if id(r) not in drop]


def duplicate_sentence(record: dict) -> str:
    """One `meta["duplicates"]` record in words: the run, its folders, the one used and the ones left out."""
    rest = list(record["left_out"])
    folders = [record["kept"], *rest]
    return (f"Run {record['name']!r} is in {len(folders)} run folders ({', '.join(folders)}): {record['kept']} is "
            f"used, the other{'s' if len(rest) > 1 else ''} left out, so no cell counts the run twice.")


DUPLICATE_COLUMNS = ["run", "folder used", "folders left out"]


def duplicates_table(records) -> pd.DataFrame:
    """`meta["duplicates"]` as a table: one row per run found in more than one folder (DUPLICATE_COLUMNS)."""
    return pd.DataFrame([(r["name"], r["kept"], ", ".join(r["left_out"])) for r in records or []],
                        columns=DUPLICATE_COLUMNS)


def _drop_rejected_stats(runs: list[_Run], rejected: list[dict], schema) -> None:
    """The results' stats of the runs whose stats.json had a stat HELM could not have written, without it."""
    folders = {rec["source"][: -len("/stats.json")] for rec in rejected if rec["source"].endswith("/stats.json")}
    if not folders:
        return
    aliases = schema_aliases(schema)
    for r in runs:
        if r.folder in folders:
            r.stats = [s for s in r.stats if validity.stat_problem(s.name, s._asdict(), aliases) is None]


def _run_trials(run_df: pd.DataFrame) -> pd.DataFrame:
    """Per (model, scenario): how many run folders, and the train trials (seeds) each ran, from run_spec.json's
    adapter (num_train_trials; the largest when the runs differ)."""
    per: dict[tuple[str, str], list] = {}
    for m, s, t in zip(run_df["model"], run_df["scenario"], run_df["num_train_trials"].astype(float)):
        acc = per.setdefault((m, s), [0, float("nan")])
        acc[0] += 1
        acc[1] = t if acc[1] != acc[1] or t > acc[1] else acc[1]
    return pd.DataFrame([(m, s, n, t) for (m, s), (n, t) in per.items()],
                        columns=["model", "scenario", "runs", "trials"])


def _metric_descriptions(schema, shown: set[str]) -> dict[str, str]:
    """Column name -> what the suite's schema.json says the metric measures, for the columns the results hold
    (e.g. "Max prob" -> "Model's average confidence in its prediction ..."), so pages describe the suite's own
    metrics rather than classic's."""
    from .schema import _metric_display

    out: dict[str, str] = {}
    for name, m in schema.metrics.items():
        desc = m.get("description") if isinstance(m, dict) else None
        disp = _metric_display(name, schema)
        if isinstance(desc, str) and desc.strip() and disp in shown:
            out.setdefault(disp, clean_name(desc, 300))
    return out


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
             published: list[dict], tree: Source, source: str, notes: list[str], kind: str,
             rejected: list[dict] | None = None, aliases: dict | None = None) -> Release:
    ref = _reference()
    rejected = [] if rejected is None else rejected
    res = pd.DataFrame(results, columns=RESULT_COLUMNS)
    for c in ("value", "n_runs", "run_min", "run_max"):
        res[c] = pd.to_numeric(res[c], errors="coerce").astype(float)
    res["lower_is_better"] = res["lower_is_better"].astype("boolean")
    res["note"] = res["note"].fillna("").astype(str)
    for c in ("model", "scenario", "metric_group", "metric"):
        res[c] = res[c].astype(str)
    mdf = _models_frame(models)
    res, mdf = validity.check_release_frames(res, mdf, tree.label, rejected, aliases)
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
    rej = validity.frame(rejected)
    if len(rej):
        notes = list(notes) + [validity.rejected_sentence(rej)]
    meta = {"kind": "uploaded", "release": name, "release_short": label, "source": clean_name(source, 200),
            "loaded_from": kind, "digest": tree.digest, "notes": list(dict.fromkeys(notes)), "rejected_values": rej,
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
    from .. import grid, taxonomy  # the grid the Grid page draws, on the release's own scenarios

    rel = output.release
    res = rel.results
    scen = rel.taxonomy.scenarios
    core = core_scenarios()
    gaps = core_gaps(rel)
    with_values = sorted(set(res.loc[res["value"].notna(), "metric_group"]))
    drawn = grid.measured(rel, "data")
    return {
        "release": rel.name,
        "loaded_from": rel.meta.get("loaded_from", ""),
        "models": int(len(rel.models)),
        "scenarios": int(len(scen)),
        "core_scenarios": [s for s in scen["scenario"] if s in core],
        "extra_scenarios": [s for s in scen["scenario"] if s not in core],
        "missing_core_scenarios": [s for s in core if s not in set(scen["scenario"])],
        "metric_groups": [g for g in KNOWN_GROUPS if g in with_values],
        # the seven classic groups with a value (what the home page counts), and the Grid page's own cells
        "metric_groups_measured": taxonomy.groups_with_values(rel),
        "grid_scenarios": list(grid.grid_scenarios(rel)),
        "grid_cells": int(drawn.size),
        "grid_cells_measured": int(drawn.to_numpy().sum()),
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
# (label, stat, perturbation) of the headline stats after the main metric
HEADLINE_STATS = (("ECE (10-bin)", "ece_10_bin", ""), ("Max prob", "max_prob", ""), ("# eval", "num_instances", ""),
                  ("# train", "num_train_instances", ""), ("truncated", "prompt_truncated", ""),
                  ("# prompt tokens", "num_prompt_tokens", ""), ("# output tokens", "num_output_tokens", ""),
                  ("Observed inference time (s)", "inference_runtime", ""),
                  ("Denoised inference time (s)", "inference_denoised_runtime", ""))


def run_headline(output: HelmOutput, run: str) -> pd.DataFrame:
    """Headline numbers of one run's stats.json: the main metric on the main split (with its robustness /
    fairness worst case only when the run has perturbed instances: without perturbations HELM's stats.json still
    carries those two as copies of the plain metric, which say nothing), ECE, max prob, instances, in-context examples,
    truncated, prompt and output tokens, observed and denoised runtime; only those present.
    Columns: label, stat, split, value, count; `attrs["copies_left_out"]` is True when such copies were in the
    run's stats.json and were left out; `attrs["wanted"]`: the labels of every headline statistic looked for (those
    present and those the run's stats.json lacks), in order."""
    runs = output.runs
    row = runs[runs["run"] == run]
    if row.empty:
        raise DataError(f"{run[:120]}: no such run in this dataset")
    scen_name = row["scenario"].iloc[0]
    perturbed = bool(str(row["perturbations"].iloc[0] or ""))
    scen = output.release.taxonomy.scenarios
    srow = scen[scen["scenario"] == scen_name]
    main = str(srow["main_metric"].iloc[0]) if not srow.empty else ""
    split = str(srow["main_split"].iloc[0]) if not srow.empty else ""
    rs = output.run_stats[output.run_stats["run"] == run]
    if not main:  # no schema.json entry (or a table names the scenario otherwise): HELM's usual main metrics
        present = set(rs.loc[rs["perturbation"] == "", "name"].astype(str))
        main = next((m for m in MAIN_METRIC_GUESSES if m in present), "")
    if not split or not (rs["split"] == split).any():
        # The split holding most of the headline stats (test before valid before the others, on a tie).
        names = {n for _, n, _ in HEADLINE_STATS} | {main}
        plain = rs[(rs["sub_split"] == "") & (rs["perturbation"] == "") & rs["name"].isin(names)]
        counts = plain.groupby(plain["split"].astype(str), observed=True).size()
        if len(counts):
            order = {"test": 0, "valid": 1}
            split = min(counts.index, key=lambda sp: (-int(counts[sp]), order.get(sp, 2), sp))
    wanted = []
    if main:
        shown = str(srow["main_metric_display"].iloc[0]) if "main_metric_display" in srow.columns and len(srow) else ""
        disp = METRICS[main][0] if main in METRICS else (shown or main)
        wanted.append((disp, main, ""))
        if perturbed:
            wanted += [(f"{disp} (Robustness)", main, "robustness"), (f"{disp} (Fairness)", main, "fairness")]
    wanted += list(HEADLINE_STATS)
    out = []
    for label, name, pert in wanted:
        sel = rs[(rs["name"] == name) & (rs["split"] == split) & (rs["sub_split"] == "") & (rs["perturbation"] == pert)]
        sel = sel[(sel["count"] > 0) & sel["mean"].notna()]
        if sel.empty:
            continue
        out.append({"label": label, "stat": name, "split": split, "value": float(sel["mean"].iloc[0]),
                    "count": float(sel["count"].iloc[0])})
    head = pd.DataFrame(out, columns=["label", "stat", "split", "value", "count"])
    head.attrs["copies_left_out"] = not perturbed and bool(rs["perturbation"].isin(["robustness", "fairness"]).any())
    head.attrs["wanted"] = [label for label, _, _ in wanted]
    return head
