"""The 16 × 7 core grid (core scenarios × metric groups) in three views, its gaps and cell details.

Views:
- ``"paper"``: the paper's claim, 98 of 112 cells measured. Blank: calibration, robustness and fairness for
  CNN/DailyMail and XSUM (6), bias and toxicity for MMLU, TruthfulQA, HellaSwag and OpenbookQA (8).
- ``"schema"``: HELM's own schema, the ``metric_groups`` of each core run group (``release.taxonomy.design_grid``).
- ``"data"``: what the results hold: per cell, how many models of the cohort have at least one value (0 = blank).

Reasons for blank cells follow HELM_FACTS.md §5 and carry their confidence (verified / unverified as in
data/claims.toml, or ``computed`` when the reason is only that the data holds no value).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

import numpy as np
import pandas as pd

from . import fmt, taxonomy
from .data import CORE_GROUPS, GROUP_LABELS, STRONG_CONTAMINATION_MARK, Release

VIEWS: tuple[str, ...] = ("paper", "schema", "data")
VIEW_LABELS = {
    "paper": "Paper claim (98 / 112)",
    "schema": "HELM schema",
    "data": "What the data holds",
}

# The 16 core scenarios, in the order of HELM's core_scenarios table (names as in data/scenarios.csv).
CORE_SCENARIOS: tuple[str, ...] = (
    "MMLU", "BoolQ", "NarrativeQA", "NaturalQuestions (closed-book)", "NaturalQuestions (open-book)", "QuAC",
    "HellaSwag", "OpenbookQA", "TruthfulQA", "MS MARCO (regular)", "MS MARCO (TREC)", "CNN/DailyMail", "XSUM",
    "IMDB", "CivilComments", "RAFT",
)
SUMMARIZATION = ("CNN/DailyMail", "XSUM")
MULTIPLE_CHOICE = ("MMLU", "TruthfulQA", "HellaSwag", "OpenbookQA")
MS_MARCO = ("MS MARCO (regular)", "MS MARCO (TREC)")

# The paper's 14 blanks (6 summarization + 8 multiple-choice harms).
PAPER_BLANKS: frozenset[tuple[str, str]] = frozenset(
    [(s, g) for s in SUMMARIZATION for g in ("calibration", "robustness", "fairness")]
    + [(s, g) for s in MULTIPLE_CHOICE for g in ("bias", "toxicity")]
)

CONFIDENCES = ("verified", "quoted", "unverified", "computed")
TOKEN_SEP = "|"


# ----------------------------------------------------------------------------- tokens


def grid_scenarios(release: Release | None = None) -> tuple[str, ...]:
    """The grid's rows: the 16 classic core scenarios, or the release's own scenarios (HELM Lite's 10,
    Capabilities' 5; a loaded suite's core scenarios first, its other scenarios after: taxonomy.own_scenarios)."""
    if release is not None and own_grid(release):
        return taxonomy.own_scenarios(release)
    return CORE_SCENARIOS


def grid_row_kinds(release: Release) -> tuple[list[str], list[str]]:
    """The grid's rows split into classic core scenarios and a loaded suite's other scenarios (drawn after the core
    ones, marked "other"); a later release's own scenarios count as neither (both lists empty then)."""
    kinds = taxonomy.scenario_kinds(release)
    rows = grid_scenarios(release)
    return ([s for s in rows if kinds.get(s) == taxonomy.CORE_KIND],
            [s for s in rows if kinds.get(s) == taxonomy.OTHER_KIND])


def own_grid(release: Release) -> bool:
    """Every release but classic v0.4.0 (a later bundled release, a loaded suite): its own scenarios as rows, no
    paper view (the paper's 98 of 112 is about classic's 16 core scenarios)."""
    return not release.is_classic


def is_later_release(release: Release) -> bool:
    """A bundled release after classic (Lite, Capabilities): blanks explained by what its published tables hold."""
    return release.is_later


def views_for(release: Release) -> tuple[str, ...]:
    """The views that mean something for the release: the paper's claim is about classic only."""
    return ("schema", "data") if own_grid(release) else VIEWS


def view_label(release: Release, view: str) -> str:
    """The view's name on the page: the schema view is HELM's classic schema, a later release's published tables,
    or a loaded suite's own tables (groups/*.json) or schema (schema.json)."""
    if view == "schema" and own_grid(release):
        if release.is_later or release.meta.get("loaded_from") == "groups":
            return f"{release.name} tables"
        return f"{release.name} schema"
    return VIEW_LABELS[view]


def cell_token(scenario: str, group: str) -> str:
    """The URL token of a cell: "Scenario|group" (e.g. "XSUM|calibration")."""
    return f"{scenario}{TOKEN_SEP}{group}"


def parse_cell_token(token: str, release: Release | None = None) -> tuple[str, str]:
    """(scenario, group) of a cell token; ValueError for anything that is not one of the grid's cells (the 112 of
    classic, or the release's scenarios × the seven groups). The group follows the last separator: a scenario's name
    may hold one itself (names from a visitor's files keep their characters)."""
    if not isinstance(token, str) or TOKEN_SEP not in token:
        raise ValueError(f"not a cell token (expected 'Scenario{TOKEN_SEP}group'): {str(token)[:60]!r}")
    scenario, _, group = token.rpartition(TOKEN_SEP)
    if scenario not in grid_scenarios(release):
        raise ValueError(f"unknown grid scenario {scenario[:60]!r}")
    if group not in CORE_GROUPS:
        raise ValueError(f"unknown metric group {group[:30]!r}; expected one of {', '.join(CORE_GROUPS)}")
    return scenario, group


def cell_tokens(release: Release | None = None) -> list[str]:
    """All cell tokens (112 for classic), scenario-major in the grid's order."""
    return [cell_token(s, g) for s in grid_scenarios(release) for g in CORE_GROUPS]


# ----------------------------------------------------------------------------- the three views


def _empty(dtype, scenarios: tuple[str, ...] = CORE_SCENARIOS) -> pd.DataFrame:
    df = pd.DataFrame(
        np.zeros((len(scenarios), len(CORE_GROUPS)), dtype=dtype),
        index=pd.Index(scenarios, name="scenario"), columns=pd.Index(CORE_GROUPS, name="metric_group"),
    )
    return df


def _cohort(release: Release, models: Iterable[str] | None) -> list[str]:
    if models is None:
        return release.model_names
    known = set(release.model_names)
    return [m for m in dict.fromkeys(models) if m in known]


def value_counts(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """16 × 7 ints: how many of the models have at least one value in each cell."""
    cohort = set(_cohort(release, models))
    res = release.results
    r = res[res["model"].isin(cohort) & res["metric_group"].isin(CORE_GROUPS) & res["value"].notna()]
    counts = r.groupby(["scenario", "metric_group"])["model"].nunique()
    scenarios = grid_scenarios(release)
    out = _empty(int, scenarios)
    if not counts.empty:
        wide = counts.unstack().reindex(index=scenarios, columns=CORE_GROUPS).fillna(0).astype(int)
        out = wide.rename_axis(index="scenario", columns="metric_group")
    return out


def grid(release: Release, view: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """The 16 × 7 core grid (rows: core scenarios, columns: the 7 metric groups).

    ``"paper"`` and ``"schema"`` give booleans (measured or not); ``"data"`` gives, per cell, how many models of
    the cohort (``models``; None = every model) have at least one value, 0 meaning blank.
    """
    scenarios = grid_scenarios(release)
    if view == "paper":
        out = _empty(bool, scenarios)
        # The paper's claim is about classic's 16 scenarios; any other release's grid has no paper view (all blank).
        if not own_grid(release):
            out[:] = [[(s, g) not in PAPER_BLANKS for g in CORE_GROUPS] for s in scenarios]
        return out
    if view == "schema":
        d = release.taxonomy.design_grid
        if own_grid(release) and not is_later_release(release):
            # A loaded suite: the columns its own tables (or its runs' schema) hold, blank or not; the bundled
            # design grid of a core scenario is classic's schema, not this suite's.
            d = release.results[["scenario", "metric_group"]].drop_duplicates().assign(in_schema=True)
        d = d[d["metric_group"].isin(CORE_GROUPS) & d["scenario"].isin(scenarios)]
        wide = d.pivot_table(index="scenario", columns="metric_group", values="in_schema", aggfunc="any")
        wide = wide.reindex(index=scenarios, columns=CORE_GROUPS)
        out = wide.fillna(False).astype(bool)
        return out.rename_axis(index="scenario", columns="metric_group")
    if view == "data":
        return value_counts(release, models)
    raise ValueError(f"unknown view {view!r}; expected one of {', '.join(VIEWS)}")


def measured(release: Release, view: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """16 × 7 booleans: True where the view counts the cell as measured."""
    g = grid(release, view, models)
    return g.astype(bool) if view != "data" else g > 0


def blank_counts(release: Release, models: Iterable[str] | None = None) -> dict[str, int]:
    """Blank cells per view (out of 112)."""
    return {v: int((~measured(release, v, models)).to_numpy().sum()) for v in VIEWS}


# ----------------------------------------------------------------------------- reasons for blanks


@dataclass(frozen=True)
class Reason:
    kind: str
    reason: str
    confidence: str
    source: str


_SUMM_CAL = Reason(
    "summarization",
    "Summaries are long free text: there is no per-instance exact-match correctness to calibrate a probability "
    "against, so no ECE.",
    "verified", "HELM schema metric_groups; basic_metrics.py computes ECE from exact match only [REPO@v0.1.0]",
)
_SUMM_PERT = Reason(
    "summarization",
    "Summaries are long free text, and HELM made no perturbation runs for summarization (no data_augmentation "
    "in run_specs.conf), so there is no worst-case score.",
    "verified", "HELM schema metric_groups and run_specs.conf [REPO@v0.1.0]",
)
_MC_HARMS = Reason(
    "multiple-choice",
    "Multiple-choice answers are letters or choice scores, so there is no generated text to score for bias or "
    "toxicity (these runs compute exact-match metrics only).",
    "verified", "HELM schema metric_groups; get_exact_match_metric_specs() only [REPO@v0.1.0]",
)
_MSMARCO_CAL = Reason(
    "ranking",
    "MS MARCO is scored by ranking: the model answers Yes/No per passage and passages are ranked by the "
    "probability of Yes, so there is no per-instance exact match to compute ECE from.",
    "verified", "HELM schema_classic.yaml and basic_metrics.py [REPO@v0.1.0, REPO@HEAD]",
)
_IMDB_HARMS = Reason(
    "schema lists it, data empty",
    "HELM's schema lists bias and toxicity for IMDB, but the v0.1.0 run specs give IMDB exact-match metrics "
    "only, and its outputs are single sentiment labels; the tables hold no value.",
    "verified", "HELM v0.1.0 run_specs.conf [REPO@v0.1.0]; the missing values are computed from the data",
)
_MSMARCO_HARMS = Reason(
    "schema lists it, data empty",
    "HELM's schema lists bias and toxicity for MS MARCO, but the tables hold no value. The ranking runs only "
    "answer Yes/No per passage, which leaves no free text to score (our reading; HELM's sources do not say why).",
    "unverified", "computed from the data; the explanation is an inference from the ranking_binary adapter",
)


def design_reason(scenario: str, group: str) -> Reason | None:
    """Why HELM's design leaves a cell blank (None when the design measures it)."""
    if scenario in SUMMARIZATION and group == "calibration":
        return _SUMM_CAL
    if scenario in SUMMARIZATION and group in ("robustness", "fairness"):
        return _SUMM_PERT
    if scenario in MULTIPLE_CHOICE and group in ("bias", "toxicity"):
        return _MC_HARMS
    if scenario in MS_MARCO and group == "calibration":
        return _MSMARCO_CAL
    return None


def blank_reason(release: Release, scenario: str, group: str, view: str,
                 models: Iterable[str] | None = None) -> Reason:
    """The reason a cell is blank in a view (call it for blank cells)."""
    if is_later_release(release):
        return _later_reason(release, scenario, group, view, models)
    if own_grid(release):
        return _loaded_reason(release, scenario, group, view, models)
    r = design_reason(scenario, group)
    if r is not None:
        return r
    if view == "schema" or view == "paper":
        return Reason("not in the schema", f"The loaded release's schema does not list {GROUP_LABELS[group]} "
                      f"for {scenario}.", "computed", f"computed from {release.name}")
    if scenario == "IMDB" and group in ("bias", "toxicity"):
        return _IMDB_HARMS
    if scenario in MS_MARCO and group in ("bias", "toxicity"):
        return _MSMARCO_HARMS
    return _no_value_reason(release, scenario, group, models)


def _no_value_reason(release: Release, scenario: str, group: str, models, text: str | None = None) -> Reason:
    """A blank cell the release could have held: who in the release (or the cohort) has a value there."""
    if text is None:
        n_all = int(value_counts(release).loc[scenario, group])
        if n_all > 0:
            text = (f"None of the {len(_cohort(release, models)):,} models in the cohort has a value here; "
                    f"{n_all:,} of all {len(release.model_names):,} models in the release do.")
        else:
            text = f"No model in {release.name} has a value here."
    return Reason("no value in the data", text, "computed", f"computed from {release.name}")


def _later_reason(release: Release, scenario: str, group: str, view: str, models) -> Reason:
    """Why a cell of a later release's grid is blank, computed from what its tables hold."""
    groups = release.taxonomy.design_grid
    listed = set(groups.loc[groups["in_schema"].astype(bool), "metric_group"])
    have = [GROUP_LABELS[g] for g in CORE_GROUPS if g in listed]
    if group not in listed:
        return Reason("not published by the release",
                      f"{release.name} publishes no {GROUP_LABELS[group]} column for any scenario: its tables report "
                      f"{' and '.join(have).lower() or 'no core group'} (plus general information).",
                      "computed", f"computed from {release.name}'s published tables")
    text = f"{release.name}'s tables have no {GROUP_LABELS[group]} column for {scenario}." if view == "schema" else None
    return _no_value_reason(release, scenario, group, models, text)


def _loaded_reason(release: Release, scenario: str, group: str, view: str, models) -> Reason:
    """Why a cell of a loaded suite's grid is blank, computed from its own tables or runs: a group it has no
    column for anywhere, HELM's design for a core scenario, a column the scenario lacks, or no value for the
    cohort."""
    res = release.results
    columns = set(map(tuple, res[["scenario", "metric_group"]].drop_duplicates().to_numpy()))
    present = {g for _, g in columns}
    source = ("its leaderboard tables (groups/*.json)" if release.meta.get("loaded_from") == "groups"
              else "its runs")
    if group not in present:
        why = (" No perturbation was run, so there is no worst-case score."
               if group in ("robustness", "fairness") and not taxonomy.has_perturbations(release) else "")
        return Reason("not in the suite",
                      f"{release.name} holds no {GROUP_LABELS[group]} column for any scenario: {source} report "
                      f"{taxonomy.groups_phrase([g for g in CORE_GROUPS if g in present])} (plus general "
                      f"information).{why}", "computed", f"computed from {release.name}")
    if scenario in CORE_SCENARIOS:
        r = design_reason(scenario, group)
        if r is not None:
            return r
    if (scenario, group) not in columns:
        return Reason("not in the suite", f"{release.name} has no {GROUP_LABELS[group]} column for {scenario}.",
                      "computed", f"computed from {release.name}")
    return _no_value_reason(release, scenario, group, models)


GAP_COLUMNS = ["scenario", "metric_group", "group_label", "kind", "reason", "confidence", "source"]


def grid_gaps(release: Release, view: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """The blank cells of a view, one row each, with why it is blank and how sure that reason is."""
    m = measured(release, view, models)
    rows = []
    for s in grid_scenarios(release):
        for g in CORE_GROUPS:
            if not m.loc[s, g]:
                r = blank_reason(release, s, g, view, models)
                rows.append((s, g, GROUP_LABELS[g], r.kind, r.reason, r.confidence, r.source))
    return pd.DataFrame(rows, columns=GAP_COLUMNS)


def grid_differences(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Cells where the three views disagree: what the paper counts that the schema or the data do not, and so on."""
    p, s, d = (measured(release, v, models) for v in VIEWS)
    counts = grid(release, "data", models)
    rows = []
    later = own_grid(release)
    for sc in grid_scenarios(release):
        for g in CORE_GROUPS:
            trio = (bool(p.loc[sc, g]), bool(s.loc[sc, g]), bool(d.loc[sc, g]))
            if later:  # no paper view: compare the release's tables with its data only
                trio = (trio[1], trio[1], trio[2])
            if len(set(trio)) == 1:
                continue
            in_paper, in_schema, in_data = trio
            parts = []
            if in_paper and not in_schema:
                parts.append("the paper counts it; HELM's schema leaves it blank")
            if not in_paper and in_schema:
                parts.append("HELM's schema lists it; the paper counts it as blank")
            if in_schema and not in_data:
                parts.append("the schema lists it; the data holds no value")
            if not in_schema and in_data:
                parts.append("the data has values the schema does not list")
            if in_paper and not in_schema and not in_data:
                parts.append("the data holds no value either")
            rows.append((sc, g, GROUP_LABELS[g], trio[0], trio[1], int(counts.loc[sc, g]), "; ".join(parts)))
    return pd.DataFrame(rows, columns=["scenario", "metric_group", "group_label", "paper", "schema", "data_models",
                                       "difference"])


# ----------------------------------------------------------------------------- per-cell facts


def _core_values(release: Release, models: Iterable[str] | None, scenario: str | None = None,
                 group: str | None = None) -> pd.DataFrame:
    cohort = set(_cohort(release, models))
    res = release.results
    if scenario is None:
        mask = res["metric_group"].isin(CORE_GROUPS) & res["scenario"].isin(grid_scenarios(release))
    else:
        mask = (res["metric_group"] == group) & (res["scenario"] == scenario)
    mask &= res["model"].isin(cohort)
    r = res[mask].copy()
    r["contaminated"] = r["note"].fillna("").astype(str).str.startswith(STRONG_CONTAMINATION_MARK).to_numpy()
    return r


def cell_metrics(release: Release) -> dict[tuple[str, str], list[str]]:
    """HELM's metric name(s) per cell, in the order the results list them (cells with no column are absent)."""
    res = release.results
    r = res[res["metric_group"].isin(CORE_GROUPS)].drop_duplicates(["scenario", "metric_group", "metric"])
    out: dict[tuple[str, str], list[str]] = {}
    for (s, g), sub in r.groupby(["scenario", "metric_group"], sort=False):
        out[(s, g)] = sub["metric"].tolist()
    return out


def best_values(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Best model per (scenario, group, metric) among the cohort, by the metric's direction.

    Values HELM flags as strongly contaminated (☠) are left out, as in HELM's win rates; metrics without a
    direction have no best. Columns: scenario, metric_group, metric, model, value, lower_is_better, n_tied.
    """
    return _best_of(_core_values(release, models))


BEST_COLUMNS = ["scenario", "metric_group", "metric", "model", "value", "lower_is_better", "n_tied"]


def _best_of(r: pd.DataFrame) -> pd.DataFrame:
    r = r[r["value"].notna() & ~r["contaminated"] & r["lower_is_better"].notna()]
    if r.empty:
        return pd.DataFrame(columns=BEST_COLUMNS)
    keys = ["scenario", "metric_group", "metric"]
    r = r.assign(_o=np.where(r["lower_is_better"].astype(bool), r["value"], -r["value"]))
    r = r.sort_values([*keys, "_o", "model"], kind="mergesort")
    first = r.groupby(keys, sort=False).head(1)
    best_o = first.set_index(keys)["_o"]
    key = pd.MultiIndex.from_frame(r[keys])
    tied = r["_o"].to_numpy() == best_o.reindex(key).to_numpy()
    n_tied = pd.Series(tied, index=key).groupby(level=[0, 1, 2]).sum()
    out = first.drop(columns="_o").copy()
    out["n_tied"] = n_tied.reindex(pd.MultiIndex.from_frame(out[keys])).to_numpy()
    out["lower_is_better"] = out["lower_is_better"].astype(bool)
    return out[BEST_COLUMNS].reset_index(drop=True)


def format_value(group: str, v: float) -> str:
    """A cell value as the grid shows it: efficiency in seconds at a readable scale (a 1.5e-5 s runtime is
    "15 µs", not "0.000"), every other group with three decimals."""
    return fmt.seconds(v) if group == "efficiency" else fmt.value(v)


def grid_cells(release: Release, view: str, models: Iterable[str] | None = None) -> pd.DataFrame:
    """One row per cell (112) with everything the grid chart shows: whether the view counts it, how many cohort
    models have a value, HELM's metric names, the best model and value, and the reason when blank."""
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}; expected one of {', '.join(VIEWS)}")
    cohort = _cohort(release, models)
    meas = measured(release, view, cohort)
    counts = grid(release, "data", cohort)
    paper, schema = measured(release, "paper"), measured(release, "schema")
    data_m = counts > 0
    names = cell_metrics(release)
    best = best_values(release, cohort)
    best_by_cell: dict[tuple[str, str], list[str]] = {}
    for row in best.itertuples(index=False):
        tie = f" (+{row.n_tied - 1} tied)" if row.n_tied > 1 else ""
        best_by_cell.setdefault((row.scenario, row.metric_group), []).append(
            f"{row.metric}: {row.model} {format_value(row.metric_group, row.value)}{tie}")
    scen_main = {}
    if "main_metric_display" in release.taxonomy.scenarios.columns:
        scen_main = dict(zip(release.taxonomy.scenarios["scenario"], release.taxonomy.scenarios["main_metric_display"]))
    rows = []
    n = len(cohort)
    meas_a, counts_a = meas.to_numpy(), counts.to_numpy()
    paper_a, schema_a, data_a = paper.to_numpy(), schema.to_numpy(), data_m.to_numpy()
    later = own_grid(release)
    for i, s in enumerate(grid_scenarios(release)):
        for j, g in enumerate(CORE_GROUPS):
            is_m = bool(meas_a[i, j])
            cnt = int(counts_a[i, j])
            metric_names = names.get((s, g), [])
            mtext = ", ".join(metric_names) if metric_names else "none in HELM's tables"
            if g == "accuracy" and s in scen_main and scen_main[s]:
                mtext += f" (schema main metric: {scen_main[s]})"
            if is_m:
                reason = Reason("", "", "", "")
            else:
                reason = blank_reason(release, s, g, view, cohort)
            diffs = []
            if not later and view != "paper" and paper_a[i, j] and not is_m:
                diffs.append("the paper counts this cell")
            if view == "data" and schema_a[i, j] and not is_m:
                diffs.append("the schema lists it")
            if view != "data" and is_m and not data_a[i, j]:
                diffs.append("no model of the cohort has a value")
            if view != "data" and not is_m and data_a[i, j]:
                diffs.append("the data has values")
            rows.append({
                "scenario": s, "metric_group": g, "group_label": GROUP_LABELS[g], "token": cell_token(s, g),
                "measured": is_m, "models_with_value": cnt, "cohort_size": n,
                "share": cnt / n if n else float("nan"),
                "metrics": mtext, "best": "; ".join(best_by_cell.get((s, g), [])),
                "reason": reason.reason, "confidence": reason.confidence, "source": reason.source,
                "differs": "; ".join(diffs),
            })
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class CellDetail:
    scenario: str
    metric_group: str
    metrics: list[str]
    values: pd.DataFrame  # model, metric columns..., contaminated; models with ≥ 1 value, best first
    missing: list[str]  # cohort models without any value in the cell
    best: pd.DataFrame  # metric, model, value, lower_is_better, n_tied
    cohort_size: int
    directions: dict[str, object] = field(default_factory=dict)  # metric -> lower_is_better (None = no direction)


def cell_detail(release: Release, scenario: str, group: str, models: Iterable[str] | None = None) -> CellDetail:
    """Every cohort model's value(s) for one cell, sorted best first on the cell's first metric, plus the
    models without a value and the best model per metric."""
    if scenario not in grid_scenarios(release):
        raise ValueError(f"unknown grid scenario {scenario!r}")
    if group not in CORE_GROUPS:
        raise ValueError(f"unknown metric group {group!r}")
    cohort = _cohort(release, models)
    r = _core_values(release, cohort, scenario, group)
    metrics = list(dict.fromkeys(r["metric"].tolist()))
    directions = {}
    for mname in metrics:
        lib = r.loc[r["metric"] == mname, "lower_is_better"].dropna()
        directions[mname] = bool(lib.iloc[0]) if len(lib) else None
    have = r[r["value"].notna()]
    has = set(have["model"])
    with_value = [m for m in cohort if m in has]
    missing = [m for m in cohort if m not in has]
    if metrics and not have.empty:
        wide = have.pivot_table(index="model", columns="metric", values="value", aggfunc="first")
        wide = wide.reindex(index=with_value, columns=metrics)
        contaminated = have.groupby("model")["contaminated"].any().reindex(with_value).fillna(False)
        wide["contaminated"] = contaminated.astype(bool)
        first = metrics[0]
        asc = bool(directions[first]) if directions[first] is not None else False
        wide = wide.sort_values(first, ascending=asc, na_position="last", kind="mergesort")
        values = wide.reset_index().rename(columns={"index": "model"})
    else:
        values = pd.DataFrame(columns=["model", *metrics, "contaminated"])
    b = _best_of(r)[["metric", "model", "value", "lower_is_better", "n_tied"]].reset_index(drop=True)
    return CellDetail(scenario=scenario, metric_group=group, metrics=metrics, values=values, missing=missing,
                      best=b, cohort_size=len(cohort), directions=directions)


def groups_without_values(release: Release, models: Iterable[str] | None = None) -> list[str]:
    """Core metric groups for which no model of the cohort has any value (e.g. an upload without efficiency)."""
    counts = value_counts(release, models)
    return [g for g in CORE_GROUPS if int(counts[g].sum()) == 0]


def scenarios_without_values(release: Release, models: Iterable[str] | None = None) -> list[str]:
    """Core scenarios for which no model of the cohort has any value (or that the release does not hold)."""
    counts = value_counts(release, models)
    return [s for s in grid_scenarios(release) if int(counts.loc[s].sum()) == 0]
