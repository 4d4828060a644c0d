"""Run folders (`run_spec.json` + `stats.json`): parsing, the scenario each run belongs to, the results
merged over runs as HELM's summarize.py does, and the runs / stats tables for the app."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
import pandas as pd

from .. import validity
from ..data import DataError
from .archive import REQUIRED_RUN_FILES, RUN_FILES, RUN_MARKERS, Source, _parse_json
from .fields import _expect, _num, _opt_str, clean_name
from .stats import STAT_TEXT, _Stat, _match, _merge, _stat_columns, _stats_from_columns
from .schema import (KNOWN_GROUPS, MAIN_METRIC_GUESSES, METRICS, PERTURBATION_GROUPS, _Schema,
                     _core_by_run_group, _metric_display, _metric_lower, _model_display, _model_row, _reference,
                     core_scenarios, group_stats, schema_aliases)
from .instances import _instances_from, _pert_name, _trial, instance_confidences

RUN_COLUMNS = ["run", "run_name", "folder", "suite", "model", "model_id", "scenario", "run_group", "method",
               "num_train_trials", "n_instances", "n_predictions", "seeds", "perturbations", "has_instances",
               "instance_files", "adapter_spec"]
STAT_COLUMNS = ["run", "name", "split", "sub_split", "perturbation", "count", "mean", "min", "max", "stddev"]
# The main metric per train trial of a run that carries its trials inside (per_instance_stats.json).
TRIAL_COLUMNS = ["model", "scenario", "run", "trial", "value"]
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
    stats: list[_Stat]  # the stats the results can use (see _relevant_stat)
    stat_cols: dict = field(default_factory=dict, repr=False)  # every stat, as columns (the stats table)
    present: tuple[str, ...] = field(default_factory=tuple)  # run files present (names), read on demand
    # run_spec.data_augmenter_spec.perturbation_specs: False when the list is empty (no perturbation was run, so
    # stats.json's robustness / fairness "worst" stats are copies of the plain metric), None when not recorded
    perturbed: bool | None = None


def _run_folders(tree: Source) -> list[str]:
    dirs = set()
    for rel in tree.files:
        folder, _, name = rel.rpartition("/")
        if name in RUN_MARKERS:
            dirs.add(folder)
    return sorted(dirs)


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def relevant_stats(schema: _Schema) -> set[str]:
    """Stat names the results or the runs table can use: the metric catalogue, the main-metric guesses,
    num_instances, and every scenario's main metric (bundled core scenarios and the suite's schema.json)."""
    names = set(METRICS) | set(MAIN_METRIC_GUESSES) | {"num_instances"}
    for g in KNOWN_GROUPS:  # the suite's own metric groups (HELM 0.5: max_prob, inference_runtime, ...)
        names |= set(group_stats(schema, g))
    names |= set(_reference().taxonomy.scenarios["main_metric"].astype(str))
    for g in schema.run_groups.values():
        env = g.get("environment") if isinstance(g.get("environment"), dict) else {}
        if isinstance(env.get("main_name"), str):
            names.add(env["main_name"])
    return names


def _parse_run(tree: Source, folder: str, relevant: set[str] | None = None, names: dict | None = None) -> _Run:
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
    cols = _stat_columns(tree.json(_join(folder, "stats.json")), f"{shown}/stats.json", {} if names is None else names)
    stats = _stats_from_columns(cols, (lambda n: True) if relevant is None else relevant.__contains__)
    present = tuple(n for n in RUN_FILES if tree.has(_join(folder, n)))
    aug = spec.get("data_augmenter_spec")
    pspecs = aug.get("perturbation_specs") if isinstance(aug, dict) else None
    perturbed = bool(pspecs) if isinstance(pspecs, list) else None
    return _Run(folder=folder, name=name, model_id=model, groups=list(groups), method=method, perturbed=perturbed,
                num_train_trials=trials, adapter_spec=adapter, stats=stats, stat_cols=cols,
                present=present)


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


def _group_metrics(spec: _ScenarioSpec, group: str, schema: _Schema) -> list[tuple[str, str, str, bool | None]]:
    """(stat name, perturbation, display metric, lower_is_better) for a scenario's metric group."""
    if group in ("accuracy", "robustness", "fairness"):
        if not spec.main_metric:
            return []
        disp = _metric_display(spec.main_metric, schema)
        lower = _metric_lower(spec.main_metric, schema)  # None: the schema gives none, so nothing ranks on it
        if group == "accuracy":
            return [(spec.main_metric, "", disp, lower)]
        return [(spec.main_metric, group, f"{disp} ({PERTURBATION_GROUPS[group]})", lower)]
    return [(s, "", _metric_display(s, schema), _metric_lower(s, schema)) for s in group_stats(schema, group)]


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
    index: dict[int, dict] = {}  # run -> (name, split) -> its stats in file order, so _match scans a few

    def candidates(r: _Run, name: str, split: str) -> list:
        if id(r) not in index:
            d: dict = {}
            for st in r.stats:
                d.setdefault((st.name, st.split), []).append(st)
            index[id(r)] = d
        return index[id(r)].get((name, split), [])

    for group, spec in specs.items():
        group_runs = [r for r in runs if run_groups[r.folder] == group]
        if group_runs and all(r.perturbed is False for r in group_runs):
            # HELM writes worst-case robustness / fairness stats even without perturbations: copies of the plain
            # metric, not a robustness or fairness measurement.
            dropped = [g for g in ("robustness", "fairness") if g in spec.groups]
            spec.groups = [g for g in spec.groups if g not in dropped]
            if dropped:
                notes.append(f"{spec.scenario}: no perturbation was run (run_spec.json's perturbation_specs is "
                             f"empty), so its {' and '.join(dropped)} worst-case stats, copies of the main metric, "
                             "are not shown as such.")
        for m in models:
            pair_runs = by_pair.get((m["model"], group), [])
            for mg in spec.groups:
                for stat_name, pert, disp, lower in _group_metrics(spec, mg, schema):
                    matched = [s for s in (_match(candidates(r, stat_name, spec.main_split), stat_name, spec.main_split,
                                                  pert) for r in pair_runs) if s]
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


# ----------------------------------------------------------------------------- runs table


# One line per run (the C encoder; an indented dump takes the pure-Python one, ~10x slower over thousands of runs).
_ADAPTER_JSON = json.JSONEncoder(ensure_ascii=False, default=str, separators=(", ", ": ")).encode


def _categorical(values: list, categories: list | None = None) -> pd.Categorical:
    """A categorical column from a long list of few distinct (shared) strings, coded with a dict: much faster
    than pd.Categorical(list), which converts every value first."""
    cats = categories if categories is not None else list(dict.fromkeys(values))
    index = {c: i for i, c in enumerate(cats)}
    codes = np.fromiter(map(index.__getitem__, values), dtype=np.int32, count=len(values))
    return pd.Categorical.from_codes(codes, categories=pd.Index(cats, dtype=object))


def _run_reader(tree: Source, folder: str, present: Iterable[str]):
    """get(name) -> the bytes of one of the run's files, or None when the run has no such file."""
    names = set(present)
    return lambda n: tree.read(_join(folder, n)) if n in names else None


def _runs_frames(tree: Source, runs: list[_Run], run_groups: dict[str, str], specs: dict[str, _ScenarioSpec],
                 schema: _Schema, notes: list[str], eager: bool):
    """(runs table, stats table, run key -> (folder, files present), per-instance confidences, values left out
    of the instance files read, per-trial main-metric values). With `eager` the instance files are read now (exact
    counts, confidences for the calibration page, the trials of a run inside its per_instance_stats.json);
    otherwise the counts come from stats.json and no instance file is read. Run names are unique here (see
    output._unique_runs)."""
    rows, files = [], {}
    stat_cols: dict[str, list] = {c: [] for c in STAT_COLUMNS}
    conf_parts, rejected, trial_rows, sums = [], [], [], []
    for r in runs:
        suite = clean_name(r.folder.rpartition("/")[0].rpartition("/")[2] if r.folder else "")
        key = clean_name(r.name, 300)
        if key in files:  # two names that print the same once cleaned
            key = clean_name(r.folder, 300) or key
        spec = specs[run_groups[r.folder]]
        get = _run_reader(tree, r.folder, r.present)
        ids = _instance_keys(r, get) if eager else _counts_from_stats(r)
        model = _model_display(r.model_id, schema)
        has = "scenario_state.json" in r.present or "display_predictions.json" in r.present
        inst_files = ", ".join(n for n in RUN_FILES if n in r.present and n not in REQUIRED_RUN_FILES)
        rows.append({"run": key, "run_name": clean_name(r.name, 300), "folder": r.folder, "suite": suite, "model": model,
                     "model_id": r.model_id, "scenario": spec.scenario, "run_group": spec.run_group,
                     "method": r.method, "num_train_trials": r.num_train_trials,
                     "n_instances": ids["n_instances"], "n_predictions": ids["n_predictions"],
                     "seeds": ids["seeds"], "perturbations": ids["perturbations"], "has_instances": has,
                     "instance_files": inst_files, "adapter_spec": _ADAPTER_JSON(r.adapter_spec)[:20000]})
        stat_cols["run"].extend([key] * len(r.stat_cols["name"]))
        for c in STAT_COLUMNS[1:]:
            if c in STAT_TEXT:
                stat_cols[c].extend(r.stat_cols[c])
            else:  # doubles stay doubles: no Python float per value
                stat_cols[c].append(np.frombuffer(r.stat_cols[c], dtype=np.float64) if len(r.stat_cols[c]) else
                                    np.empty(0))
        sums.append(np.frombuffer(r.stat_cols["sum"], dtype=np.float64) if len(r.stat_cols["sum"]) else np.empty(0))
        r.stat_cols = {}  # this run's stats are in the table now
        files[key] = (r.folder, r.present)
        if has and eager:
            trials: dict = {}
            inst = _instances_from(get, r.folder or key, trials)
            for rec in inst.attrs.get("rejected_values", ()):
                rejected.append(dict(rec, model=model, scenario=spec.scenario))
            conf = run_confidences(inst, spec.main_split, model, spec.scenario, key)
            if not conf.empty:
                conf_parts.append(conf)
            by_trial = {t: mean for (t, name), (mean, _) in trials.items() if name == spec.main_metric}
            if len(by_trial) > 1:
                trial_rows.extend({"model": model, "scenario": spec.scenario, "run": key, "trial": t, "value": v}
                                  for t, v in sorted(by_trial.items()))
    run_df = pd.DataFrame(rows, columns=RUN_COLUMNS)
    run_df["has_instances"] = run_df["has_instances"].astype(bool)
    for c in ("n_instances", "n_predictions"):
        run_df[c] = run_df[c].astype("int64")
    for c in STAT_COLUMNS:
        if c not in STAT_TEXT and c != "run":
            stat_cols[c] = np.concatenate(stat_cols[c]) if stat_cols[c] else np.empty(0)
    for c in ("run",) + STAT_TEXT:
        if c in stat_cols:  # few distinct texts, repeated over hundreds of thousands of rows
            stat_cols[c] = _categorical(stat_cols[c])
    stat_cols, bad_stats = _screen_stats(stat_cols, np.concatenate(sums) if sums else np.empty(0), run_df,
                                         schema_aliases(schema))
    rejected.extend(bad_stats)
    stat_df = pd.DataFrame(stat_cols, columns=STAT_COLUMNS)
    conf_df = pd.concat(conf_parts, ignore_index=True) if conf_parts else _empty_confidences()
    trial_df = pd.DataFrame(trial_rows, columns=TRIAL_COLUMNS)
    return run_df, stat_df, files, conf_df, rejected, trial_df


def _screen_stats(cols: dict, sums: np.ndarray, run_df: pd.DataFrame, aliases: dict) -> tuple[dict, list[dict]]:
    """The stats table's columns without the stats HELM could not have written (helm_core.validity.bad_stats,
    one vectorised pass over every run's stats.json), and a record of each left out (the run's folder, model and
    scenario, the stat with its split and perturbation, the value, the reason)."""
    numbers = {k: (sums if k == "sum" else cols[k]) for k in validity.STAT_NUMBERS}
    bad = validity.bad_stats(cols["name"], numbers, aliases)
    if not bad.any():
        return cols, []
    info = run_df.set_index("run")
    out = []
    for i in np.flatnonzero(bad):
        run, name = str(cols["run"][i]), str(cols["name"][i])
        field, value, why = validity.stat_problem(name, {k: float(v[i]) for k, v in numbers.items()}, aliases)
        where = ", ".join(p for p in (str(cols["split"][i]), str(cols["perturbation"][i])) if p)
        out.append(validity.record(f"{info.loc[run, 'folder']}/stats.json", info.loc[run, "model"],
                                   info.loc[run, "scenario"], f"{name} ({where})" if where else name, value,
                                   f"{field}: {why}" if field != "mean" else why))
    keep = ~bad
    return {c: v[keep] for c, v in cols.items()}, out


def _empty_confidences() -> pd.DataFrame:
    return pd.DataFrame({"model": pd.Series(dtype=object), "scenario": pd.Series(dtype=object),
                         "prob": pd.Series(dtype=float), "correct": pd.Series(dtype="int64"),
                         "run": pd.Series(dtype=object)})


def run_confidences(inst: pd.DataFrame, main_split: str, model: str, scenario: str, run: str) -> pd.DataFrame:
    """A run's (model, scenario, prob, correct, run) rows for the calibration page: its original instances on
    the scenario's main split when the run has that split, else on every split."""
    split = main_split if (inst["split"] == main_split).any() else None
    conf = instance_confidences(inst, split=split)
    if conf.empty:
        return _empty_confidences()
    conf.insert(0, "scenario", scenario)
    conf.insert(0, "model", model)
    conf["run"] = run
    return conf


_MAX_TOTAL = validity.MAX_COUNT * validity.MAX_COUNT  # num_instances summed over trials


def _counts_from_stats(r: _Run) -> dict:
    """Counts for the runs table without reading an instance file: HELM's `num_instances` stat (its mean is
    the instances per trial, its sum over trials the predictions) on each split, without perturbation; the
    seeds are 0 … num_train_trials-1 (HELM numbers its trials so); perturbation names from stats.json."""
    n_inst, n_pred = 0.0, 0.0
    c = r.stat_cols
    for i in [i for i, name in enumerate(c["name"]) if name == "num_instances"]:
        if not c["perturbation"][i] and not c["sub_split"][i] and c["count"][i] > 0:
            mean, total = c["mean"][i], c["sum"][i]
            if not (0.0 <= total <= _MAX_TOTAL and (mean != mean or 0.0 <= mean <= validity.MAX_COUNT)):
                continue  # a count HELM could not have written: recorded by the stats table's check (_screen_stats)
            n_inst += mean if mean == mean else 0.0
            n_pred += total
    trials = int(r.num_train_trials) if not math.isnan(r.num_train_trials) and r.num_train_trials >= 1 else 1
    # "robustness" / "fairness" name HELM's worst-case aggregates, not perturbations an instance carries.
    perts = sorted({p for p in r.stat_cols["perturbation"] if p and p not in PERTURBATION_GROUPS})
    return {"n_instances": int(round(n_inst)), "n_predictions": int(round(n_pred)),
            "seeds": ",".join(map(str, range(min(trials, 1000)))), "perturbations": ",".join(perts)}


def _instance_keys(r: _Run, get) -> dict:
    """Counts for the runs table from the smallest per-instance file present."""
    for fname in ("display_predictions.json", "per_instance_stats.json", "scenario_state.json"):
        if fname not in r.present:
            continue
        where = f"{r.folder}/{fname}"
        obj = _parse_json(get(fname), where)
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
    # No instance file to read (a suite shared without them): HELM's own counts, from stats.json.
    return _counts_from_stats(r)
