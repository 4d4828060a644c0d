"""HELM's leaderboard tables (`groups/<group>.json`, written by helm-summarize) into result rows."""
from __future__ import annotations

import math
import re
from pathlib import PurePosixPath
from typing import Any

from ..data import DataError
from .archive import NOT_TABLES, RUN_FILES, Source
from .fields import _expect, _num, clean_name
from .schema import (ACCURACY_DISPLAYS, CONTAMINATION_NOTES, DISPLAY_GROUP, KNOWN_GROUPS, METRICS,
                     PERTURBATION_GROUPS, _Schema, _core_by_name, _model_row, _reference, core_scenarios,
                     schema_aliases, schema_column_groups)

_CELL_STATS = re.compile(r"min=(\S+?), mean=(\S+?), max=(\S+?), sum=(\S+?) \((\d+)\)")

def _table_files(tree: Source) -> list[str]:
    out = []
    for rel in tree.files:
        parts = rel.split("/")
        name = parts[-1]
        if not name.lower().endswith(".json") or name.lower() == ".json" or name in RUN_FILES or name in NOT_TABLES:
            continue
        if (len(parts) >= 2 and parts[-2] == "groups") or len(parts) == 1:
            out.append(rel)
    # HELM's core table first: it is what the leaderboard shows.
    return sorted(out, key=lambda r: (PurePosixPath(r).name != "core_scenarios.json", r))


# ----------------------------------------------------------------------------- leaderboard tables


def _cell(cell: Any, where: str) -> dict:
    return _expect(cell, dict, where, "a cell object with 'value'")


def _column_group(table_group: str | None, metric: str, perturbation: str, main_display: str | None,
                  schema_group: str | None = None) -> str | None:
    """The metric group of a leaderboard column: its perturbation, the table's group (HELM's core_scenarios
    tables are one per group), the group the suite's schema.json gives that metric for that run group, else the
    catalogue after schema_classic.yaml."""
    if perturbation:
        g = perturbation.lower()
        return g if g in PERTURBATION_GROUPS else None
    if table_group in KNOWN_GROUPS and table_group not in ("robustness", "fairness"):
        return table_group
    if schema_group is not None:
        return schema_group
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


def _results_from_tables(tree: Source, paths: list[str], schema: _Schema, notes: list[str],
                         rejected: list[dict] | None = None):
    """(results rows, models, scenario rows, design rows, published win rates) from the groups tables. Every
    numeric cell is checked (helm_core.validity): one HELM could not have written is left out and recorded in
    `rejected`."""
    from ..leaderboard import group_of, table_titles
    from .. import validity

    rejected = [] if rejected is None else rejected
    aliases = schema_aliases(schema)
    core = _core_by_name()
    ref_models = _reference().models.set_index("model", drop=False)
    schema_by_display = {str(v.get("display_name")): k for k, v in schema.models.items() if v.get("display_name")}
    rows: dict[tuple, dict] = {}
    published: dict[tuple, dict] = {}
    models: dict[str, dict] = {}
    scen_meta: dict[str, dict] = {}
    scen_groups: dict[str, set] = {}
    skipped: dict[str, tuple[str, str] | None] = {}  # header text -> (run group, metric), when known
    mapped: set[tuple[str, str]] = set()  # (run group, metric) columns some table maps to a group
    per_group, anywhere = schema_column_groups(schema)
    for rel in paths:
        doc = tree.json(rel)
        _expect(doc, list, rel, "a list of tables (HELM groups JSON)")
        if not doc:
            raise DataError(f"{rel}: the list of tables is empty")
        for ti, table in enumerate(doc):
            _expect(table, dict, f"{rel}: table {ti + 1}", "a table object with 'header' and 'rows'")
            if table.get("title") is not None:
                _expect(table["title"], str, f"{rel}: table {ti + 1} 'title'", "text")
        labels = table_titles(doc, group_of(rel))
        for ti, table in enumerate(doc):
            title = labels[ti]  # HELM's title, or for "" the run group its header names (leaderboard.table_titles)
            tw = f"{rel}: table {title[:60]!r}"
            header = _expect(table.get("header"), list, f"{tw} 'header'", "a list of header cells")
            trows = _expect(table.get("rows"), list, f"{tw} 'rows'", "a list of rows")
            tname = table.get("name")
            if isinstance(tname, str) and tname.endswith("_detailed"):
                continue
            tgroup = _table_group(table)
            cols = []
            checked = []  # (column index, header text, metric, run group) of every column after the model's
            for ci, h in enumerate(header):
                _expect(h, dict, f"{tw} header cell {ci + 1}", "an object with 'value'")
                hv = h.get("value")
                if ci == 0:
                    continue
                hv = _expect(hv, str, f"{tw} header cell {ci + 1} 'value'", "text")
                hmd = h.get("metadata") if isinstance(h.get("metadata"), dict) else {}
                checked.append((ci, hv, hmd["metric"] if isinstance(hmd.get("metric"), str) else hv,
                                clean_name(hmd["run_group"]) if isinstance(hmd.get("run_group"), str) else ""))
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
                    elif tgroup is None:
                        rg, metric = title, hv
                    else:
                        skipped.setdefault(hv, None)
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
                mg = _column_group(tgroup, metric, pert, main_disp,
                                   None if pert else per_group.get((rg, metric), anywhere.get(metric)))
                if mg is None:
                    skipped.setdefault(hv, (rg, metric))
                    continue
                mapped.add((rg, metric))
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
                bad = set()
                for ci, hv, metric, group in checked:
                    v = row[ci].get("value") if isinstance(row[ci], dict) else None
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        why = validity.value_problem(v, metric, aliases)
                        if why:
                            bad.add(ci)
                            rejected.append(validity.record(f"{rel}: table {title[:60]!r}", mname, group,
                                                            clean_name(hv), v, why))
                for kind, ci, info in cols:
                    cell = _cell(row[ci], f"{rw} cell {ci + 1}")
                    value = _num(cell.get("value"), f"{rw} column {header[ci].get('value')!r}")
                    if ci in bad:
                        value = float("nan")
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
                    if ci in bad:
                        note = validity.LEFT_OUT_NOTE
                    key = (mname, rg, mg, shown)
                    if key in rows:
                        continue
                    rows[key] = {"model": mname, "scenario": rg, "metric_group": mg, "metric": shown,
                                 "value": value, "lower_is_better": lib, "n_runs": n_runs, "run_min": lo,
                                 "run_max": hi, "note": note}
                    scen_groups.setdefault(rg, set()).add(mg)
                    if mg == "accuracy" and rg not in scen_meta:
                        scen_meta[rg] = {"metric": shown}
    # A column another table maps (a per-scenario table repeating a core_scenarios column) is not left out.
    left_out = sorted(hv for hv, key in skipped.items() if key is None or key not in mapped)
    if left_out:
        notes.append("Columns not mapped to a metric group were left out: " + ", ".join(left_out[:8]))
    if not rows:
        raise DataError(f"{tree.label}: the leaderboard tables hold no metric columns this app can read")
    # Models with no row in any table cannot happen (rows come from tables), but keep order stable.
    scen_rows, design_rows = [], []
    order = {n: i for i, n in enumerate(core_scenarios())}
    # Core scenarios in classic's order; the suite's others in the order HELM's own tables list them (its
    # core_scenarios table first).
    seen = {s: i for i, s in enumerate(scen_groups)}
    names = sorted(scen_groups, key=lambda s: (s not in core, order.get(s, 0), seen[s]))
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
