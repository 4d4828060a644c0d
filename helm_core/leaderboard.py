"""HELM's leaderboard as HELM shows it: the tables of a `groups/<group>.json` file (written by helm-summarize),
kept as HELM wrote them (titles, column names and descriptions, cell values and the runs behind each cell).

`parse_tables(doc, file)` reads one groups file into `Table`s; `rebuilt_tables(release)` builds the same shape
from a release's tidy results (the bundled releases ship no groups files; those tables are labelled rebuilt);
`cell_runs(runs, names)` finds the runs a cell names in a loaded suite's runs table. Pure pandas, no streamlit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import pandas as pd

from .data import DataError, Release
from .helm_output.fields import _expect, _tname, clean_name

MISSING = "–"  # what HELM's own pages show for a cell without a value
PUBLISHED_WIN_RATE = "Mean win rate (published)"
PUBLISHED_HELP = ("HELM's own published mean win rate for this metric group, computed by HELM over every model "
                  "of the release (not only the models shown).")
PUBLISHED_SCORE = "Mean score (published)"
PUBLISHED_SCORE_HELP = ("HELM's own published mean score for this metric group: the mean of a model's cells in the "
                        "group's table, as HELM published it (HELM Capabilities ranks by it; it publishes no win "
                        "rates).")
# HELM's own aggregate columns: the ones helm-summarize writes first in a table ("Mean win rate"; "Mean score" where a
# schema aggregates by mean), and the published ones a rebuilt table carries.
AGGREGATES = ("Mean win rate", "Mean score", PUBLISHED_WIN_RATE, PUBLISHED_SCORE)
CELL_COLUMNS = ["row", "model", "column", "value", "text", "description", "run_spec_names", "contamination"]


@dataclass(frozen=True)
class Column:
    """One header cell of a HELM table (after the model column)."""

    label: str  # HELM's header text, made unique within the table
    description: str  # HELM's header description ("" when none)
    lower_is_better: bool | None
    run_group: str  # metadata.run_group ("" for e.g. "Mean win rate")
    metric: str  # metadata.metric
    perturbation: str  # metadata.perturbation ("" when none)


@dataclass(frozen=True)
class Table:
    """One table of a groups file: `cells` is long (one row per table row and column), `wide()` the table."""

    file: str  # the groups file it came from ("" for a rebuilt table)
    group: str  # the file's stem: "core_scenarios", "lsat_qa" …
    # The table's label, never empty and unique within its file: HELM's title ("Accuracy", "task: all" …), or for
    # a table HELM titled "" (a scenario without arguments) the run group its header cells name ("XSTest"),
    # else the file's group; "(2)" … after a repeated one. See `table_titles`.
    title: str
    name: str  # HELM's table name ("accuracy" …; "" when the file has none)
    first: str  # the model column's header ("Model/adapter")
    columns: tuple[Column, ...]
    cells: pd.DataFrame  # CELL_COLUMNS
    rebuilt: bool = False  # True: built from tidy results, not read from HELM's file
    helm_title: str = ""  # HELM's own title as written ("" when it wrote none)
    # values HELM could not have produced, left out of `cells` (helm_core.validity.REJECTED_COLUMNS records)
    rejected: tuple[dict, ...] = ()

    @property
    def models(self) -> list[str]:
        return list(dict.fromkeys(self.cells.sort_values("row")["model"])) if len(self.cells) else []

    def wide(self) -> pd.DataFrame:
        """The table as HELM shows it: the model column, then one column per header cell, in HELM's order and
        with HELM's labels. Numeric columns are floats (NaN where HELM has no value); a column holding text is
        text (MISSING where HELM has no value)."""
        c = self.cells
        rows = sorted(set(c["row"])) if len(c) else []
        labels = [col.label for col in self.columns]
        first = c.drop_duplicates("row").set_index("row")["model"] if len(c) else pd.Series(dtype=object)
        values = c.pivot(index="row", columns="column", values="value").reindex(index=rows, columns=labels)
        out = pd.DataFrame({self.first: first.reindex(rows).to_numpy()})
        texts = c[c["text"] != ""]
        text_cols = set(texts["column"])
        if text_cols:
            shown = texts.pivot(index="row", columns="column", values="text").reindex(index=rows)
        for label in labels:
            v = values[label].to_numpy(dtype=float)
            if label in text_cols:
                t = shown[label].to_numpy(dtype=object)
                out[label] = [x if isinstance(x, str) else (MISSING if math.isnan(n) else f"{n:g}")
                              for x, n in zip(t, v)]
            else:
                out[label] = v
        return out

    def cell(self, row: int, column: str) -> dict:
        """One cell (a CELL_COLUMNS record); KeyError when there is none."""
        sel = self.cells[(self.cells["row"] == row) & (self.cells["column"] == column)]
        if sel.empty:
            raise KeyError((row, column))
        return sel.iloc[0].to_dict()


def _nan(v: Any) -> bool:
    return isinstance(v, float) and math.isnan(v)


def _unique(label: str, seen: set[str]) -> str:
    out, n = label, 2
    while out in seen:
        out, n = f"{label} ({n})", n + 1
    seen.add(out)
    return out


def _cell_value(cell: dict, where: str) -> tuple[float, str]:
    """(number, text) of a cell: a number gives (value, ""), text gives (NaN, text), no `value` (HELM's
    "No matching runs") or null gives (NaN, "")."""
    v = cell.get("value")
    if v is None:
        return float("nan"), ""
    if isinstance(v, bool):
        raise DataError(f"{where}: expected a number, text or null, found {_tname(v)}")
    if isinstance(v, (int, float)):
        return float(v), ""
    if isinstance(v, str):
        return float("nan"), clean_name(v, 200)
    raise DataError(f"{where}: expected a number, text or null, found {_tname(v)}")


def group_of(file: str) -> str:
    """The group a groups file holds: its stem ("groups/core_scenarios.json" -> "core_scenarios")."""
    return clean_name(PurePosixPath(file).stem, 120)


def _header_run_group(header: list) -> str:
    """The run group a table's header cells name (HELM's metadata.run_group, its short display name), when they
    all name the same one; "" otherwise."""
    groups = {clean_name(h["metadata"]["run_group"], 120) for h in header[1:]
              if isinstance(h, dict) and isinstance(h.get("metadata"), dict)
              and isinstance(h["metadata"].get("run_group"), str) and h["metadata"]["run_group"].strip()}
    return groups.pop() if len(groups) == 1 else ""


def table_titles(doc: list, group: str) -> list[str]:
    """A label per table of a groups file, non-empty and unique within the file: HELM's title; for a table HELM
    titled "" (helm-summarize titles a scenario's table with its arguments, "" when it has none) the run group
    its header cells name, else the file's group; "(2)", "(3)" … after a repeated label."""
    seen: set[str] = set()
    out = []
    for table in doc:
        raw = table.get("title") if isinstance(table, dict) else None
        label = clean_name(raw, 200).strip() if isinstance(raw, str) else ""
        if not label:
            header = table.get("header") if isinstance(table, dict) else None
            label = (_header_run_group(header) if isinstance(header, list) else "") or group or "table"
        out.append(_unique(label, seen))
    return out


def parse_tables(doc: Any, file: str) -> list[Table]:
    """The tables of one groups file (a list of {title, header, rows, name?, links?}), in HELM's order, each
    labelled by `table_titles`. A cell value HELM could not have produced (helm_core.validity) is left out (no
    value) and recorded in the table's `rejected`. Raises DataError naming the file, table and cell when the shape
    is not HELM's."""
    from . import validity

    _expect(doc, list, file, "a list of tables (HELM groups JSON)")
    group = group_of(file)
    for ti, table in enumerate(doc):
        _expect(table, dict, f"{file}: table {ti + 1}", "a table object with 'title', 'header' and 'rows'")
        if table.get("title") is not None:
            _expect(table["title"], str, f"{file}: table {ti + 1} 'title'", "text")
    titles = table_titles(doc, group)
    out = []
    for ti, table in enumerate(doc):
        tw = f"{file}: table {ti + 1}"
        title = titles[ti]
        helm_title = clean_name(table["title"], 200) if isinstance(table.get("title"), str) else ""
        name = table.get("name")
        name = clean_name(name, 120) if isinstance(name, str) else ""
        header = _expect(table.get("header"), list, f"{tw} 'header'", "a list of header cells")
        rows = _expect(table.get("rows"), list, f"{tw} 'rows'", "a list of rows")
        if not header:
            raise DataError(f"{tw}: the header is empty (expected the model column first)")
        first_h = _expect(header[0], dict, f"{tw} header cell 1", "an object with 'value'")
        first = clean_name(first_h.get("value") or "Model/adapter", 120)
        seen = {first}
        columns = []
        for ci, h in enumerate(header[1:], start=2):
            hw = f"{tw} header cell {ci}"
            _expect(h, dict, hw, "an object with 'value'")
            label = _expect(h.get("value"), str, f"{hw} 'value'", "text")
            lib = h.get("lower_is_better")
            if lib is not None:
                _expect(lib, bool, f"{hw} 'lower_is_better'", "true, false or null")
            md = h.get("metadata") or {}
            _expect(md, dict, f"{hw} 'metadata'", "an object")
            desc = h.get("description")
            columns.append(Column(
                label=_unique(clean_name(label, 200), seen),
                description=str(desc).strip()[:2000] if isinstance(desc, str) else "",
                lower_is_better=lib,
                run_group=clean_name(md.get("run_group") or "", 120) if isinstance(md.get("run_group"), (str, type(None))) else "",
                metric=clean_name(md.get("metric") or "", 120) if isinstance(md.get("metric"), (str, type(None))) else "",
                perturbation=clean_name(md.get("perturbation") or "", 60) if isinstance(md.get("perturbation"), (str, type(None))) else "",
            ))
        recs, rejected = [], []
        for ri, row in enumerate(rows):
            rw = f"{tw} row {ri + 1}"
            _expect(row, list, rw, "a list of cells")
            if len(row) != len(header):
                raise DataError(f"{rw}: has {len(row)} cells but the header has {len(header)}")
            mcell = _expect(row[0], dict, f"{rw} cell 1", "an object with 'value'")
            model = clean_name(_expect(mcell.get("value"), str, f"{rw} cell 1 'value'", "the model name as text"))
            for col, cell in zip(columns, row[1:]):
                cw = f"{rw} column {col.label!r}"
                _expect(cell, dict, cw, "a cell object")
                value, text = _cell_value(cell, cw)
                why = validity.value_problem(value, col.metric or col.label)
                if why:
                    rejected.append(validity.record(f"{file}: table {title!r}", model, col.run_group, col.label,
                                                    value, why))
                    value = float("nan")
                names = cell.get("run_spec_names") or []
                names = tuple(clean_name(n, 300) for n in _expect(names, list, f"{cw} 'run_spec_names'", "a list")
                              if isinstance(n, str))
                desc = cell.get("description")
                level = cell.get("contamination_level")
                recs.append({"row": ri, "model": model, "column": col.label, "value": value, "text": text,
                             "description": str(desc)[:2000] if isinstance(desc, str) else "",
                             "run_spec_names": names, "contamination": level if isinstance(level, str) else ""})
        cells = pd.DataFrame(recs, columns=CELL_COLUMNS)
        cells["value"] = cells["value"].astype(float)
        out.append(Table(file=file, group=group, title=title, name=name, first=first, columns=tuple(columns),
                         cells=cells, helm_title=helm_title, rejected=tuple(rejected)))
    return out


def column_help(col: Column) -> str:
    """The help text of a column: HELM's description, then its direction."""
    parts = [col.description] if col.description else []
    if col.lower_is_better is not None:
        parts.append("Lower is better." if col.lower_is_better else "Higher is better.")
    return "\n\n".join(parts)


# ----------------------------------------------------------------------------- what a table says first


@dataclass(frozen=True)
class Headline:
    """What one table says first: the column it ranks by and its models in that order."""

    column: str | None  # the column ranked by (None: the table holds no number)
    aggregate: bool  # True: HELM's own aggregate (AGGREGATES); False: the table's first column with a number
    lower_is_better: bool | None  # the column's direction as HELM gives it (None: not given; ranked highest first)
    ranking: pd.DataFrame  # model, value, rank (1 = best, ties share it), best first, then HELM's row order
    n_models: int  # the table's rows
    n_columns: int  # the table's columns after the model column

    @property
    def top(self) -> list[str]:
        """The model(s) ranked first (several when tied)."""
        r = self.ranking
        return r.loc[r["rank"] == 1, "model"].tolist() if len(r) else []


def headline(table: Table) -> Headline:
    """The column a table is read by, and its ranking: HELM's own aggregate (the first column of AGGREGATES with a
    value, e.g. "Mean win rate"), else the table's first column with a number; its models with a value, best first
    by the column's direction (highest first when HELM gives none), ties sharing the better rank and kept in HELM's
    row order."""
    c = table.cells
    with_values = set(c.loc[c["value"].notna(), "column"]) if len(c) else set()
    numbered = [col for col in table.columns if col.label in with_values]
    own = [col for col in numbered if col.label in AGGREGATES]
    pick = own[0] if own else numbered[0] if numbered else None
    n_models, n_columns = len(table.models), len(table.columns)
    if pick is None:
        empty = pd.DataFrame({"model": pd.Series(dtype=object), "value": pd.Series(dtype=float),
                              "rank": pd.Series(dtype=int)})
        return Headline(None, False, None, empty, n_models, n_columns)
    sel = c[(c["column"] == pick.label) & c["value"].notna()].sort_values("row", kind="stable")
    out = pd.DataFrame({"model": sel["model"].to_numpy(), "value": sel["value"].to_numpy(dtype=float)})
    out["rank"] = out["value"].rank(ascending=bool(pick.lower_is_better), method="min").astype(int)
    out = out.sort_values("rank", kind="stable").reset_index(drop=True)
    return Headline(pick.label, bool(own), pick.lower_is_better, out, n_models, n_columns)


# ----------------------------------------------------------------------------- a release without groups files


def _published(release: Release, group: str, models: set[str]) -> tuple[pd.DataFrame, str]:
    """HELM's published aggregate of `group` for `models` (columns model, value) and its column label: the win
    rates (classic, Lite), else the mean scores (Capabilities); empty when the release publishes neither."""
    pub = release.published_win_rates
    if len(pub):
        pub = pub[(pub["metric_group"] == group) & pub["model"].isin(models)]
        if len(pub):
            return pub.rename(columns={"win_rate": "value"})[["model", "value"]], PUBLISHED_WIN_RATE
    sc = release.published_scores
    if len(sc):
        sc = sc[(sc["metric_group"] == group) & sc["model"].isin(models)].drop_duplicates("model")
        return sc.rename(columns={"score": "value"})[["model", "value"]], PUBLISHED_SCORE
    return pd.DataFrame(columns=["model", "value"]), PUBLISHED_WIN_RATE


def rebuilt_tables(release: Release, models: list[str] | tuple[str, ...] | None = None) -> list[Table]:
    """One table per metric group of a release's tidy results, in the shape of HELM's groups tables (one row
    per model, one column per "<scenario> - <metric>"), marked `rebuilt`. Where the release carries HELM's
    published aggregate for the group, it comes first: PUBLISHED_WIN_RATE (classic, Lite) or PUBLISHED_SCORE
    (Capabilities), HELM's own numbers, over every model of the release; no runs behind cells (the tidy data holds
    none)."""
    res = release.results
    if models is not None:
        res = res[res["model"].isin(set(models))]
    groups = release.taxonomy.metric_groups
    titles = dict(zip(groups["metric_group"], groups.get("display_name", groups["metric_group"])))
    scen_order = {s: i for i, s in enumerate(release.taxonomy.scenario_names)}
    model_order = list(dict.fromkeys(res["model"]))
    out = []
    for g in groups["metric_group"]:
        sub = res[res["metric_group"] == g]
        if sub.empty or not sub["value"].notna().any():
            continue
        pairs = sub[["scenario", "metric", "lower_is_better"]].drop_duplicates(["scenario", "metric"])
        pairs = pairs.assign(_o=pairs["scenario"].map(scen_order).fillna(len(scen_order))).sort_values(
            ["_o", "metric"], kind="stable")
        seen: set[str] = {"Model"}
        columns, labels = [], {}
        pub, pub_label = _published(release, g, set(sub["model"]))
        if len(pub):
            seen.add(pub_label)
            lib = sub["lower_is_better"].dropna()  # a mean score follows its columns (efficiency: seconds)
            columns.append(Column(label=pub_label, lower_is_better=False if pub_label == PUBLISHED_WIN_RATE
                                  else bool(lib.iloc[0]) if len(lib) else None,
                                  description=PUBLISHED_HELP if pub_label == PUBLISHED_WIN_RATE else PUBLISHED_SCORE_HELP,
                                  run_group="", metric="", perturbation=""))
        for s, m, lib in pairs[["scenario", "metric", "lower_is_better"]].itertuples(index=False):
            label = _unique(f"{s} - {m}", seen)
            labels[(s, m)] = label
            columns.append(Column(label=label, description="", lower_is_better=None if pd.isna(lib) else bool(lib),
                                  run_group=s, metric=m, perturbation=""))
        rows = {m: i for i, m in enumerate(model_order)}
        recs = [{"row": rows[r.model], "model": r.model, "column": labels[(r.scenario, r.metric)],
                 "value": float(r.value), "text": "", "description": "", "run_spec_names": (), "contamination": ""}
                for r in sub.itertuples(index=False)]
        recs += [{"row": rows[m], "model": m, "column": pub_label, "value": float(v), "text": "",
                  "description": "", "run_spec_names": (), "contamination": ""}
                 for m, v in zip(pub["model"], pub["value"]) if m in rows] if len(pub) else []
        cells = pd.DataFrame(recs, columns=CELL_COLUMNS).sort_values("row", kind="stable").reset_index(drop=True)
        out.append(Table(file="", group=release.name, title=str(titles.get(g, g)), name=str(g), first="Model",
                         columns=tuple(columns), cells=cells, rebuilt=True))
    return out


# ----------------------------------------------------------------------------- the runs behind a cell


def cell_runs(runs: pd.DataFrame, names: tuple[str, ...] | list[str]) -> pd.DataFrame:
    """The rows of a loaded suite's runs table (helm_output RUN_COLUMNS) whose run name is one of `names`
    (a cell's run_spec_names), in the order of `names`. Empty when none is loaded."""
    if runs is None or runs.empty or not names:
        return runs.iloc[0:0] if runs is not None else pd.DataFrame()
    order = {n: i for i, n in enumerate(names)}
    sel = runs[runs["run_name"].isin(order)]
    return sel.assign(_o=sel["run_name"].map(order)).sort_values("_o", kind="stable").drop(columns="_o")


def runs_link(runs: pd.DataFrame, names: tuple[str, ...] | list[str]) -> dict[str, str] | None:
    """Query parameters of the Prompts & Completions page for a cell's runs: `runs_model` and `runs_scenario`
    when the runs share them, and `run` (the first of them). None when none of the runs is loaded."""
    sel = cell_runs(runs, names)
    if sel.empty:
        return None
    q = {}
    if sel["model"].nunique() == 1:
        q["runs_model"] = str(sel["model"].iloc[0])
    if sel["scenario"].nunique() == 1:
        q["runs_scenario"] = str(sel["scenario"].iloc[0])
    q["run"] = str(sel["run"].iloc[0])
    return q
