"""The loaded release's own taxonomy, for every sentence and count that must not assume HELM classic v0.4.0:
its scenarios (which of them are among classic's 16 core scenarios, which are its own), the metric groups it
has values for, and whether it holds perturbation results (robustness, fairness).

Classic v0.4.0 is the 16 core scenarios; a later bundled release (Lite, Capabilities) has scenarios of its own;
a loaded HELM suite (an upload, a server path) has whatever it ran, core scenarios first, its others after
(the importer marks them in the taxonomy's `core` column).
"""
from __future__ import annotations

from typing import Iterable

from . import fmt
from .data import CORE_GROUPS, GROUP_LABELS, Release

CORE_KIND, OTHER_KIND, OWN_KIND = "core", "other", "own"
N_CLASSIC_CORE = 16  # classic v0.4.0's core scenarios (data/scenarios.csv)


def _core_flags(release: Release) -> dict[str, bool] | None:
    """Scenario -> whether it is one of classic's core scenarios, for a loaded suite (None otherwise)."""
    scen = release.taxonomy.scenarios
    if release.is_classic or release.is_later or "core" not in scen.columns:
        return None
    return {str(s): bool(c) for s, c in zip(scen["scenario"], scen["core"].fillna(False).astype(bool))}


def scenario_kinds(release: Release) -> dict[str, str]:
    """Scenario -> "core" (one of classic's 16 core scenarios), "other" (a loaded suite's own scenario, not one of
    them) or "own" (a later bundled release's scenario: that release's own taxonomy, not compared with classic's)."""
    names = release.taxonomy.scenario_names
    if release.is_classic:
        return {s: CORE_KIND for s in names}
    flags = _core_flags(release)
    if flags is None:
        return {s: OWN_KIND for s in names}
    return {s: CORE_KIND if flags.get(s, False) else OTHER_KIND for s in names}


def own_scenarios(release: Release) -> tuple[str, ...]:
    """The release's scenarios in the order pages draw them: classic's order; a later release's own order; a
    loaded suite's core scenarios first (in classic's order, as the importer lists them), its others after."""
    names = release.taxonomy.scenario_names
    kinds = scenario_kinds(release)
    if all(k != OTHER_KIND for k in kinds.values()):
        return tuple(names)
    return tuple([s for s in names if kinds[s] == CORE_KIND] + [s for s in names if kinds[s] == OTHER_KIND])


def core_scenarios_of(release: Release) -> list[str]:
    """The release's scenarios that are among classic's core scenarios (all of classic's; none of a later
    release's, whose scenarios are its own)."""
    return [s for s, k in scenario_kinds(release).items() if k == CORE_KIND]


def other_scenarios_of(release: Release) -> list[str]:
    """A loaded suite's scenarios that are not among classic's core scenarios."""
    return [s for s, k in scenario_kinds(release).items() if k == OTHER_KIND]


def groups_with_values(release: Release, models: Iterable[str] | None = None,
                       groups: Iterable[str] = CORE_GROUPS) -> list[str]:
    """The metric groups (in `groups` order, the seven classic groups by default) where some model (of `models`,
    None = every model) has at least one value."""
    res = release.results
    mask = res["value"].notna()
    if models is not None:
        mask &= res["model"].isin(set(models))
    # unique() first: iterating a string column element by element (pyarrow-backed in pandas 3) took ~8 ms on
    # classic, on every home-page run of every session.
    present = set(res["metric_group"][mask].unique())
    return [g for g in groups if g in present]


def has_perturbations(release: Release) -> bool:
    """Whether the release holds perturbation results (a robustness or fairness value)."""
    return bool(groups_with_values(release, groups=("robustness", "fairness")))


def groups_phrase(groups: Iterable[str]) -> str:
    """"accuracy, calibration and efficiency" (lower-case labels), "no metric group" when empty."""
    labels = [GROUP_LABELS.get(g, g).lower() for g in groups]
    return fmt.names(labels) if labels else "no metric group"


def scenarios_phrase(release: Release) -> str:
    """The release's scenarios in words, true of it: "the 16 core scenarios", "10 scenarios of its own",
    "4 scenarios, none of them one of classic's 16 core scenarios", "4 scenarios: 3 of classic's 16 core
    scenarios and 1 other"."""
    kinds = scenario_kinds(release)
    n = len(kinds)
    n_core = sum(k == CORE_KIND for k in kinds.values())
    n_other = sum(k == OTHER_KIND for k in kinds.values())
    if release.is_classic:
        return f"the {fmt.count(n, 'core scenario')}"
    if n_core == 0 and n_other == 0:
        return f"{fmt.count(n, 'scenario')} of its own"
    if n_core == 0:
        return (f"{fmt.count(n, 'scenario')}, none of them one of classic's {N_CLASSIC_CORE} core scenarios"
                if n > 1 else f"1 scenario, not one of classic's {N_CLASSIC_CORE} core scenarios")
    if n_other == 0:
        return f"{fmt.count(n, 'scenario')}, all among classic's {N_CLASSIC_CORE} core scenarios"
    return (f"{fmt.count(n, 'scenario')}: {n_core} of classic's {N_CLASSIC_CORE} core scenarios and "
            f"{fmt.count(n_other, 'other')}")


def schema_name(release: Release) -> str:
    """What assigns metric groups to the release's scenarios, in words: HELM's schema (classic), the release's
    published tables (Lite, Capabilities), a loaded suite's own tables (groups/*.json) or its own schema (runs)."""
    if release.is_classic:
        return "HELM's schema"
    if release.is_later:
        return f"{release.name}'s published tables"
    if release.meta.get("loaded_from") == "groups":
        return f"{release.name}'s own tables"
    return f"{release.name}'s own schema"
