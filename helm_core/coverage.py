"""Which (model, scenario) pairs HELM measured, and the ground models share."""
from __future__ import annotations

from typing import Iterable

import pandas as pd

from .data import Release, main_metric_table, select_models


def coverage_matrix(release: Release, models: Iterable[str] | None = None) -> pd.DataFrame:
    """Models × scenarios booleans: True where the main accuracy metric has a value."""
    rel = select_models(release, models) if models is not None else release
    return main_metric_table(rel, "accuracy").notna()


def coverage_rate(release: Release, models: Iterable[str] | None = None) -> float:
    """Share of (model, scenario) cells with a main-metric value; NaN for an empty cohort."""
    m = coverage_matrix(release, models)
    return float(m.to_numpy().mean()) if m.size else float("nan")
