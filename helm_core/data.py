"""Loading and validating a HELM release in the project's tidy format.

`load_release(path=None)` reads data/ (or another folder in the same format) and returns
a frozen `Release`. Every problem a person can fix raises `DataError` naming the file,
the row and what was expected.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

import numpy as np
import pandas as pd

BUNDLED = Path(__file__).resolve().parents[1] / "data"
RELEASES_DIR = BUNDLED / "releases"
# The releases shipped in data/: "classic" (data/ itself) and the later leaderboards in data/releases/<name>/.
BUNDLED_RELEASES: tuple[str, ...] = ("classic", "lite", "capabilities")

CORE_GROUPS: tuple[str, ...] = ("accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency")
GROUP_LABELS = {
    "accuracy": "Accuracy",
    "calibration": "Calibration",
    "robustness": "Robustness",
    "fairness": "Fairness",
    "bias": "Bias",
    "toxicity": "Toxicity",
    "efficiency": "Efficiency",
    "summarization_metrics": "Summarization metrics",
    "general_information": "General information",
}
ACCESS_LEVELS: tuple[str, ...] = ("open", "limited", "closed")
STRONG_CONTAMINATION_MARK = "☠"

RESULT_COLUMNS = ["model", "scenario", "metric_group", "metric", "value", "lower_is_better", "n_runs", "run_min", "run_max", "note"]
MODEL_COLUMNS = ["model", "helm_id", "organization", "access", "params", "release_date", "paper_cohort"]
SCENARIO_COLUMNS = ["scenario", "run_group", "task", "main_metric", "main_split"]
GROUP_COLUMNS = ["metric_group", "display_name", "direction", "definition"]
DESIGN_COLUMNS = ["scenario", "metric_group", "in_schema"]
PUBLISHED_COLUMNS = ["model", "metric_group", "win_rate"]
SCORE_COLUMNS = ["model", "metric_group", "score"]  # HELM's published "Mean score" (Capabilities)


class DataError(ValueError):
    """A data file is missing, malformed or inconsistent; the message says which and how."""


@dataclass(frozen=True)
class Taxonomy:
    scenarios: pd.DataFrame  # scenario, run_group, task, main_metric, main_split, ...
    metric_groups: pd.DataFrame  # metric_group, display_name, direction, definition
    design_grid: pd.DataFrame  # scenario, metric_group, in_schema (bool)

    @property
    def scenario_names(self) -> list[str]:
        return self.scenarios["scenario"].tolist()


@dataclass(frozen=True)
class Release:
    results: pd.DataFrame
    models: pd.DataFrame
    taxonomy: Taxonomy
    meta: dict
    published_win_rates: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=PUBLISHED_COLUMNS))
    paper_models: pd.DataFrame = field(default_factory=pd.DataFrame)
    # HELM's own per-group "Mean score" where the release publishes one instead of win rates (Capabilities).
    published_scores: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=SCORE_COLUMNS))

    @property
    def name(self) -> str:
        return str(self.meta.get("release", "unnamed release"))

    @property
    def model_names(self) -> list[str]:
        return self.models["model"].tolist()

    @property
    def is_bundled(self) -> bool:
        return self.meta.get("kind", "bundled") == "bundled"

    @property
    def release_id(self) -> str:
        """The bundled release's name ("classic", "lite", "capabilities"); "" for a loaded folder or upload."""
        return str(self.meta.get("release_id", ""))

    @property
    def is_later(self) -> bool:
        """True for a bundled release after classic (HELM Lite, Capabilities): its own scenarios, accuracy and
        efficiency only, no paper cohort."""
        return bool(self.release_id) and not self.is_classic

    @property
    def is_classic(self) -> bool:
        """True only for the bundled HELM classic v0.4.0 (paper cohort, published bias/toxicity win rates...)."""
        return self.release_id == "classic"


# ----------------------------------------------------------------------------- reading


def _read_csv(path: Path, required: list[str]) -> pd.DataFrame:
    if not path.exists():
        raise DataError(f"{path.name}: file is missing from {path.parent} (expected columns: {', '.join(required)})")
    if path.stat().st_size == 0:
        raise DataError(f"{path.name}: file is empty (expected a header with columns: {', '.join(required)})")
    try:
        df = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
        raise DataError(f"{path.name}: not a readable CSV file ({exc})") from exc
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise DataError(
            f"{path.name}: missing column(s) {', '.join(missing)}; found {', '.join(df.columns) or 'none'}"
        )
    return df


def _to_float(df: pd.DataFrame, col: str, fname: str) -> pd.Series:
    raw = df[col].astype(str).str.strip()
    num = pd.to_numeric(raw.where(raw != "", None), errors="coerce")
    bad = num.isna() & raw.ne("") & ~raw.str.lower().isin(["nan", "na", "none"])
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(
            f"{fname}: row {i + 2}, column '{col}': expected a number or empty, found {raw.iloc[i]!r}"
        )
    return num.astype(float)


def _to_bool(df: pd.DataFrame, col: str, fname: str, allow_missing: bool = False) -> pd.Series:
    raw = df[col].astype(str).str.strip().str.lower()
    mapping = {"true": True, "false": False, "yes": True, "no": False, "1": True, "0": False}
    ok = raw.isin(list(mapping)) | (allow_missing & raw.eq(""))
    if not ok.all():
        i = int(np.flatnonzero(~ok.to_numpy())[0])
        allowed = "true/false" + (" or empty" if allow_missing else "")
        raise DataError(f"{fname}: row {i + 2}, column '{col}': expected {allowed}, found {df[col].iloc[i]!r}")
    out = raw.map(mapping)
    if allow_missing:
        return out.astype("boolean")
    return out.astype(bool)


def load_release(path: str | Path | None = None) -> Release:
    """Read a release folder in the project's format (None = the bundled data/)."""
    root = Path(path) if path is not None else BUNDLED
    if not root.is_dir():
        raise DataError(f"{root}: not a folder with release files")

    meta_path = root / "meta.json"
    meta: dict = {}
    if meta_path.exists():
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise DataError(f"meta.json: not valid JSON ({exc})") from exc
        if not isinstance(meta, dict):
            raise DataError("meta.json: expected a JSON object")

    scen = _read_csv(root / "scenarios.csv", SCENARIO_COLUMNS)
    if scen.empty:
        raise DataError("scenarios.csv: no scenarios listed")
    dup = scen["scenario"][scen["scenario"].duplicated()]
    if not dup.empty:
        raise DataError(f"scenarios.csv: scenario {dup.iloc[0]!r} is listed twice")
    groups = _read_csv(root / "metric_groups.csv", GROUP_COLUMNS)
    design = _read_csv(root / "design_grid.csv", DESIGN_COLUMNS)
    design["in_schema"] = _to_bool(design, "in_schema", "design_grid.csv")

    models = _read_csv(root / "models.csv", MODEL_COLUMNS)
    models["params"] = _to_float(models, "params", "models.csv")
    models["paper_cohort"] = _to_bool(models, "paper_cohort", "models.csv")
    if "params_speculative" in models.columns:
        models["params_speculative"] = _to_bool(models, "params_speculative", "models.csv")
    else:
        models["params_speculative"] = False
    bad_access = ~models["access"].isin(ACCESS_LEVELS + ("",))
    if bad_access.any():
        i = int(np.flatnonzero(bad_access.to_numpy())[0])
        raise DataError(
            f"models.csv: row {i + 2}, column 'access': expected one of {', '.join(ACCESS_LEVELS)}, "
            f"found {models['access'].iloc[i]!r}"
        )
    dupm = models["model"][models["model"].duplicated()]
    if not dupm.empty:
        raise DataError(f"models.csv: model {dupm.iloc[0]!r} is listed twice")

    res = _read_csv(root / "results.csv", RESULT_COLUMNS)
    if res.empty:
        raise DataError("results.csv: no result rows")
    for col in ("value", "n_runs", "run_min", "run_max"):
        res[col] = _to_float(res, col, "results.csv")
    res["lower_is_better"] = _to_bool(res, "lower_is_better", "results.csv", allow_missing=True)
    known_scen = set(scen["scenario"])
    unknown = ~res["scenario"].isin(known_scen)
    if unknown.any():
        i = int(np.flatnonzero(unknown.to_numpy())[0])
        raise DataError(
            f"results.csv: row {i + 2}: unknown scenario {res['scenario'].iloc[i]!r}; "
            f"expected one of the scenarios in scenarios.csv ({', '.join(sorted(known_scen)[:4])}, ...)"
        )
    known_models = set(models["model"])
    unknown_m = ~res["model"].isin(known_models)
    if unknown_m.any():
        i = int(np.flatnonzero(unknown_m.to_numpy())[0])
        raise DataError(f"results.csv: row {i + 2}: model {res['model'].iloc[i]!r} is not listed in models.csv")
    known_groups = set(groups["metric_group"])
    unknown_g = ~res["metric_group"].isin(known_groups)
    if unknown_g.any():
        i = int(np.flatnonzero(unknown_g.to_numpy())[0])
        raise DataError(
            f"results.csv: row {i + 2}: unknown metric group {res['metric_group'].iloc[i]!r}; "
            f"expected one of {', '.join(sorted(known_groups))}"
        )

    published = pd.DataFrame(columns=PUBLISHED_COLUMNS)
    if (root / "published_win_rates.csv").exists():
        published = _read_csv(root / "published_win_rates.csv", PUBLISHED_COLUMNS)
        published["win_rate"] = _to_float(published, "win_rate", "published_win_rates.csv")
    scores = pd.DataFrame(columns=SCORE_COLUMNS)
    if (root / "published_scores.csv").exists():
        scores = _read_csv(root / "published_scores.csv", SCORE_COLUMNS)
        scores["score"] = _to_float(scores, "score", "published_scores.csv")
    paper = pd.DataFrame()
    if (root / "paper_models.csv").exists():
        paper = _read_csv(root / "paper_models.csv", ["paper_name", "helm_id", "model", "ran_core"])
        paper["ran_core"] = _to_bool(paper, "ran_core", "paper_models.csv")
        if "params" in paper.columns:
            paper["params"] = _to_float(paper, "params", "paper_models.csv")

    # The same check as for a user's HELM output (helm_core.validity): a value HELM could not have produced is
    # left out and listed (none in the bundled releases: a test keeps it so).
    from . import validity

    rejected: list[dict] = []
    res, models = validity.check_release_frames(res, models, f"{root.name}/results.csv, models.csv", rejected)
    meta["rejected_values"] = validity.frame(rejected)
    if rejected:
        meta["notes"] = list(meta.get("notes", [])) + [validity.rejected_sentence(meta["rejected_values"])]
    is_classic_root = root.resolve() == BUNDLED.resolve()
    meta.setdefault("kind", "bundled" if is_classic_root else "folder")
    if is_classic_root:
        meta.setdefault("release_id", "classic")
    return Release(
        results=res.reset_index(drop=True),
        models=models.reset_index(drop=True),
        taxonomy=Taxonomy(scenarios=scen.reset_index(drop=True), metric_groups=groups, design_grid=design),
        meta=meta,
        published_win_rates=published,
        paper_models=paper,
        published_scores=scores,
    )


def load_bundled(name: str = "classic") -> Release:
    """One of the releases shipped in data/: "classic" (HELM classic v0.4.0), "lite" (HELM Lite v1.13.0) or
    "capabilities" (HELM Capabilities v1.15.0)."""
    if name not in BUNDLED_RELEASES:
        raise DataError(f"unknown bundled release {str(name)[:40]!r}; expected one of {', '.join(BUNDLED_RELEASES)}")
    if name == "classic":
        return load_release(BUNDLED)
    rel = load_release(RELEASES_DIR / name)
    if rel.release_id != name:
        raise DataError(f"releases/{name}/meta.json: release_id is {rel.release_id!r}, expected {name!r}")
    return rel


MATCH_COLUMNS = ["helm_id", "release", "model"]


def load_model_matches(path: str | Path | None = None) -> pd.DataFrame:
    """The models that appear in several bundled releases, matched by HELM id: helm_id, release, model
    (that release's display name), one row per (id, release)."""
    m = _read_csv(Path(path) if path is not None else RELEASES_DIR / "model_matches.csv", MATCH_COLUMNS)
    bad = ~m["release"].isin(BUNDLED_RELEASES)
    if bad.any():
        i = int(np.flatnonzero(bad.to_numpy())[0])
        raise DataError(f"model_matches.csv: row {i + 2}: unknown release {m['release'].iloc[i]!r}")
    return m[MATCH_COLUMNS]


# ----------------------------------------------------------------------------- views


def select_models(release: Release, models: Iterable[str]) -> Release:
    """A release restricted to the given models (unknown names are ignored)."""
    keep = set(models)
    return replace(
        release,
        results=release.results[release.results["model"].isin(keep)].reset_index(drop=True),
        models=release.models[release.models["model"].isin(keep)].reset_index(drop=True),
        published_win_rates=release.published_win_rates[release.published_win_rates["model"].isin(keep)]
        if not release.published_win_rates.empty
        else release.published_win_rates,
        published_scores=release.published_scores[release.published_scores["model"].isin(keep)]
        if not release.published_scores.empty
        else release.published_scores,
    )


@functools.cache
def paper_model_ids() -> frozenset[str]:
    """The HELM ids of the 2022 paper's 30 models (data/paper_models.csv: HELM v0.1.0's model list, matched to
    current ids), including the two Codex models that ran no core scenario."""
    path = BUNDLED / "paper_models.csv"
    if not path.exists():
        return frozenset()
    ids = _read_csv(path, ["paper_name", "helm_id"])["helm_id"].str.strip()
    return frozenset(i for i in ids if i)


def in_2022_paper(release: Release) -> pd.Series:
    """Per model of the release (release order): True where the model is one of the 2022 paper's models: in
    classic's paper cohort, or, in any release, by its HELM id (GPT-3.5 (text-davinci-002) in Lite is the paper's
    text-davinci-002). Never by display name."""
    m = release.models
    ids = m["helm_id"].fillna("").astype(str).str.strip().isin(paper_model_ids())
    cohort = m["paper_cohort"].fillna(False).astype(bool) if "paper_cohort" in m.columns else False
    return pd.Series((ids | cohort).to_numpy(dtype=bool), index=pd.Index(m["model"], name="model"), name="in_2022_paper")


def cohort_models(release: Release, cohort: str = "all", access: Iterable[str] | None = None) -> list[str]:
    """Model names in a cohort ("paper" = the 2022 paper's core cohort, "all" = every model),
    optionally limited to access levels. A model whose access level is unknown (empty, e.g. a user's own
    model in loaded HELM output) is kept only when every access level is selected (no access filter)."""
    m = release.models
    if cohort == "paper":
        m = m[m["paper_cohort"]]
    elif cohort != "all":
        raise ValueError(f"unknown cohort {cohort!r}; expected 'paper' or 'all'")
    if access is not None:
        levels = list(access)
        keep = m["access"].isin(levels)
        if set(ACCESS_LEVELS) <= set(levels):
            keep |= m["access"].fillna("").eq("")
        m = m[keep]
    return m["model"].tolist()


def main_metric_table(release: Release, group: str = "accuracy") -> pd.DataFrame:
    """Models × scenarios table of a single-metric group (accuracy, calibration, robustness, fairness,
    efficiency, toxicity). NaN where HELM has no value. Rows follow release.models, columns the taxonomy.
    Where a scenario has several metrics in the group (a loaded suite's groups tables can), its main metric is
    used (the taxonomy's `main_metric`), else the metric listed first for it."""
    r = release.results[release.results["metric_group"] == group]
    counts = r.groupby("scenario")["metric"].nunique()
    if (counts > 1).any() and group == "bias":  # several metrics by design: the caller picks (metric_values)
        raise ValueError(f"metric group {group!r} has several metrics per scenario; pick one with `metric_values`")
    if (counts > 1).any():
        main = release.taxonomy.scenarios.set_index("scenario")["main_metric"] \
            if "main_metric" in release.taxonomy.scenarios.columns else pd.Series(dtype=object)
        first = r.drop_duplicates("scenario").set_index("scenario")["metric"]
        chosen = {s: (main.get(s) if isinstance(main.get(s), str) and (r.loc[r["scenario"] == s, "metric"]
                                                                        == main.get(s)).any() else first[s])
                  for s in counts.index}
        r = r[r["metric"] == r["scenario"].map(chosen)]
    t = r.pivot_table(index="model", columns="scenario", values="value", aggfunc="first", dropna=False)
    return t.reindex(index=release.model_names, columns=release.taxonomy.scenario_names)


def strongly_contaminated(release: Release) -> pd.Series:
    """Boolean mask over release.results: cells HELM flags as strongly contaminated (☠)."""
    return release.results["note"].fillna("").str.startswith(STRONG_CONTAMINATION_MARK)
