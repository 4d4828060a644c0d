"""Every plotly builder draws names from the data literally (helm_core.escape.chart_label where the text enters the
figure), on every screen: the builders the hostile-suite walk (tests/app/test_fuzz.py) cannot reach with the names of
a loaded suite (seeds, ECE, contamination, the bundled releases side by side, the paper's podium) get real frames
whose names are replaced by names full of Markdown / HTML syntax (`_ * [ ] < > & | $ ~`, `%{x}`), and a click on a
grid tile still selects its raw token."""
from __future__ import annotations

import pandas as pd
import pytest

from helm_core import calibration as CAL, grid as G, limits_evidence as LE, metrics as M, ranking as RK
from helm_core import releases as R, sensitivity as S
from helm_core.data import CORE_GROUPS, GROUP_LABELS, cohort_models, load_bundled
from tests import hostile_names as H
from ui import charts, charts_coverage as CC, charts_critique as C, charts_metrics, charts_rankings as CRK
from ui import charts_releases as CR, charts_reliability as CRL, stage

from .literal_helpers import chart_problems, chart_strings, shown

CLASSIC = load_bundled("classic")
RELEASES = {k: load_bundled(k) for k in ("classic", "lite", "capabilities")}
MODELS = cohort_models(CLASSIC, "paper")
MODES = ["presenter", "desktop", "phone"]
PCT = "Pct_name %{x} 50% {y}"  # a hovertemplate would read %{x} as its field
BASES = (*H.NAMES, PCT)


def hostile(values) -> dict[str, str]:
    """A hostile name for each distinct value (in order): one of hostile_names.NAMES or PCT, with a number, so
    each stays distinct."""
    return {v: f"{BASES[i % len(BASES)]} #{i}" for i, v in enumerate(dict.fromkeys(map(str, values)))}


NAMES = dict.fromkeys(BASES)  # every hostile name handed to a builder: what its chart must draw literally


def rename(df: pd.DataFrame, *cols: str) -> pd.DataFrame:
    """`df` with the values of `cols` replaced by hostile names (each distinct value its own)."""
    df = df.copy()
    for c in cols:
        m = hostile(df[c])
        NAMES.update(dict.fromkeys(m.values()))
        df[c] = df[c].astype(str).map(m)
    return df


def _builders():
    seeds = rename(LE.seed_ranges(CLASSIC, MODELS).head(6), "model", "scenario", "metric")
    yield "seeds", lambda m: C.seed_dumbbell(seeds, m)
    contamination = rename(LE.contamination_cells(CLASSIC, MODELS), "model", "scenario")
    yield "contamination", lambda m: C.contamination_bars(contamination, m)
    ex = LE.MOVING_TARGET_EXAMPLE
    moving = rename(LE.moving_target(CLASSIC, ex["model"], ex["scenario"], (72.6, 38.9), models=MODELS), "metric")
    yield "moving", lambda m: C.moving_target_bars(moving, H.MODEL, H.SCENARIO, PCT, m)
    cells = rename(LE.core_cells(CLASSIC, "OPT (175B)", "CivilComments"), "metric")
    yield "cell_runs", lambda m: C.cell_runs(cells, m)
    dense = pd.DataFrame({"label": [H.TITLE, H.OTHER], "value": [0.2, 0.9], "kind": ["claim", "data"]})
    yield "dense", lambda m: C.coverage_bars(dense, m)
    rivals = rename(LE.model_set_effect(CLASSIC, "OPT (175B)", MODELS), "rivals")
    yield "rivals", lambda m: C.rival_set_bars(rivals, H.MODEL, m)

    summary = rename(R.release_summary(RELEASES), "name")
    yield "timeline", lambda m: CR.timeline_bars(summary, m)
    names = hostile(RELEASES)
    groups = {g: f"{H.METRIC} {g}" for g in CORE_GROUPS}
    NAMES.update(dict.fromkeys([*names.values(), *groups.values()]))
    yield "presence", lambda m: CR.group_presence_grid(R.group_presence(RELEASES), names, groups, m)
    two = {k: RELEASES[k] for k in ("classic", "lite")}
    best = rename(R.best_scores(two, R.shared_scenarios(*two.values())), "scenario", "name", "model", "metric")
    yield "saturation", lambda m: CR.saturation_dumbbell(best, ["classic", "lite"], m)
    same = rename(R.shared_values(*two.values()).head(12), "scenario", "model_a", "model_b")
    yield "same_model", lambda m: CR.same_model_scatter(same, H.TITLE, H.OTHER, m)

    podium = rename(RK.paper_podium_check(CLASSIC, None), "model")
    yield "paper_podium", lambda m: CRK.paper_podium_chart(podium, mode=m)
    ranked = list(hostile(MODELS[:8]).values())
    NAMES.update(dict.fromkeys(ranked))
    shift = RK.rank_shift(pd.Series({n: float(i + 1) for i, n in enumerate(ranked)}),
                          pd.Series({n: float(len(ranked) - i) for i, n in enumerate(ranked)}))
    yield "slope", lambda m: CRK.slope_chart(shift, 5, H.METRIC, H.SCENARIO, mode=m)

    scenario = "NaturalQuestions (open-book)"
    flips = rename(S.rank_flips(CLASSIC, scenario, MODELS), "model")
    yield "rank_slope", lambda m: CRL.rank_slope(flips, m)
    scatter = rename(CAL.accuracy_vs_ece(CLASSIC, "MMLU", MODELS), "model", "organization")
    yield "ece_scatter", lambda m: CRL.accuracy_ece_scatter(scatter, scenario=H.SCENARIO, metric=PCT, mode=m)
    gaps = rename(CAL.models_without_ece(CLASSIC, None, None), "model", "scenarios")
    yield "no_ece", lambda m: CRL.ece_coverage_bars(gaps, n_scenarios=4, mode=m)
    claims = pd.DataFrame({"label": [f"{H.MODEL}\n{H.TITLE}", H.OTHER], "source": ["data", "paper"],
                           "low": [0.2, 0.4], "high": [0.3, 0.4], "point": [0.25, float("nan")],
                           "text": [H.SCENARIO, "0.4"]})
    yield "claims", lambda m: CRL.claims_beside_data(claims, metric=H.METRIC, scenario=H.SCENARIO, mode=m)

    pairs = rename(M.pair_values(CLASSIC, "MMLU", "calibration", MODELS), "model")
    starred = list(pairs["model"].head(2))
    yield "pair_scatter", lambda m: charts_metrics.pair_scatter(pairs, H.METRIC, H.TITLE, True, highlight=starred)
    order = [GROUP_LABELS[g] for g in CORE_GROUPS]
    prof = pd.DataFrame([{"model": mod, "group_label": g, "win_rate": 0.1 * i}
                         for mod in (H.MODEL, H.OTHER) for i, g in enumerate(order)])
    yield "radar", lambda m: charts_metrics.profile_radar(prof, order, mode=m)
    yield "profile_bars", lambda m: charts_metrics.profile_bars(prof, order[:2], mode=m)
    exam = rename(pd.DataFrame([{"model": mod, "scenario": s, "metric": "EM", "value": 0.5, "measured": s != "IMDB"}
                                for mod in MODELS[:3] for s in ("MMLU", "IMDB", "BoolQ")]), "model", "scenario")
    yield "exam", lambda m: charts.exam_dot_matrix(exam, list(dict.fromkeys(exam["model"])),
                                                  list(dict.fromkeys(exam["scenario"])))


BUILDERS = list(_builders())


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,build", BUILDERS, ids=[b[0] for b in BUILDERS])
def test_builder_draws_names_literally(name, build, mode):
    spec = stage.style_spec(stage.plain(build(mode)), mode=mode)
    assert chart_problems(spec, list(NAMES)) == []
    drawn = " ".join(shown(s) for s in chart_strings(spec))
    assert any(n in drawn for n in NAMES), f"{name}: no hostile name drawn"


def test_grid_click_selects_the_raw_token_of_a_hostile_scenario():
    """The grid's tiles are escaped for plotly (category values, tick text), the click tokens are not: a tile of a
    scenario named with `<`, `&` and `|` carries the token parse_cell_token reads back."""
    scen = H.SCENARIO
    cells = G.grid_cells(CLASSIC, "data", tuple(MODELS))
    cells = cells[cells["scenario"] == "MMLU"].assign(scenario=scen)
    cells["token"] = [G.cell_token(scen, g) for g in cells["metric_group"]]
    fig = stage.plain(CC.core_grid(cells, "data", [GROUP_LABELS[g] for g in CORE_GROUPS], [scen]))
    tokens = [row[0] for t in fig["data"] if t.get("customdata") is not None for row in t["customdata"]]
    assert sorted(tokens) == sorted(cells["token"])  # one tile each, its raw token first
    assert {t.rpartition(G.TOKEN_SEP)[0] for t in tokens} == {scen}  # as parse_cell_token splits it
    assert chart_problems(fig, [scen]) == []
    ys = {y for t in fig["data"] for y in (t.get("y") or []) if y}
    assert ys == {"Sce_nario *S* [1] &lt;s&gt; &amp; | $t$ ~u~"}  # the category, escaped alike on every trace
    assert fig["layout"]["yaxis"]["categoryarray"] == list(ys)
