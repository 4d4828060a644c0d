"""The chart builders of the limits, studies and Moving Targets pages (ui.charts_critique, ui.charts_releases), for
every screen: colours from ui.palette only, labels that keep their words apart at a line break, and on the stage
inside-bar text that hides rather than shrinks under 16 px."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from helm_core import claims, limits_evidence as L, releases as R, studies
from helm_core.data import CORE_GROUPS, GROUP_LABELS, cohort_models, load_bundled
from ui import charts_critique as C, charts_releases as CR, palette, stage

CLASSIC = load_bundled("classic")
MODELS = cohort_models(CLASSIC, "paper")
RELEASES = {k: load_bundled(k) for k in ("classic", "lite", "capabilities")}
STUDIES = studies.load_studies()
CLAIMS = claims.load_claims()
MODES = ["presenter", "desktop", "phone"]
ALLOWED = {c.upper() for c in (palette.DATA, palette.NEUTRAL, palette.CLAIM, palette.UP, palette.DOWN, palette.INK,
                               *palette.RELEASE.values(), *palette.SERIES, "#FFFFFF", "WHITE")}


def _builders():
    shared = R.shared_scenarios(RELEASES["classic"], RELEASES["lite"])
    ex = L.MOVING_TARGET_EXAMPLE
    yield "coverage", lambda m: C.coverage_bars(pd.DataFrame(
        {"label": ["Before HELM: models on average (2022 paper)", "HELM classic v0.4.0, 28 models of this cohort"],
         "value": [0.179, 0.953], "kind": ["claim", "data"]}), m), False
    yield "blank", lambda m: C.blank_cells_bars(L.blank_cells_by_group(CLASSIC, MODELS), m), True
    yield "rivals", lambda m: C.rival_set_bars(L.model_set_effect(CLASSIC, "OPT (175B)", MODELS), "OPT (175B)", m), False
    yield "seeds", lambda m: C.seed_dumbbell(L.seed_ranges(CLASSIC, MODELS), m), False
    yield "contamination", lambda m: C.contamination_bars(L.contamination_cells(CLASSIC, MODELS), m), True
    yield "moving", lambda m: C.moving_target_bars(L.moving_target(CLASSIC, ex["model"], ex["scenario"], (72.6, 38.9),
                                                                   models=MODELS), ex["model"], ex["scenario"],
                                                   CLASSIC.name, m), False
    yield "findings", lambda m: C.paper_findings(studies.numeric_findings_frame(STUDIES, CLAIMS), m), False
    yield "studies", lambda m: C.study_scenarios_bars(studies.studies_table(STUDIES, CLAIMS), "reasoning", m), True
    yield "cell_runs", lambda m: C.cell_runs(L.core_cells(CLASSIC, "OPT (175B)", "CivilComments"), m), False
    yield "timeline", lambda m: CR.timeline_bars(R.release_summary(RELEASES), m), False
    yield "presence", lambda m: CR.group_presence_grid(R.group_presence(RELEASES), {k: r.name for k, r in RELEASES.items()},
                                                       {g: GROUP_LABELS[g] for g in CORE_GROUPS}, m), False
    yield "saturation", lambda m: CR.saturation_dumbbell(R.best_scores({k: RELEASES[k] for k in ("classic", "lite")},
                                                                       shared), ["classic", "lite"], m), False
    yield "same_model", lambda m: CR.same_model_scatter(R.shared_values(RELEASES["classic"], RELEASES["lite"]),
                                                        "HELM classic v0.4.0", "HELM Lite v1.13.0", m), False


BUILDERS = list(_builders())
CASES = [(name, build, inside, mode) for name, build, inside in BUILDERS for mode in MODES]


def _colours(spec) -> set[str]:
    """Every colour a trace draws with (markers, their outlines and patterns, lines)."""
    out = set()

    def add(v):
        if isinstance(v, str) and v.startswith("#") or v in ("white",):
            out.add(v.upper())
        elif isinstance(v, list):
            for x in v:
                add(x)

    for t in spec["data"]:
        marker = t.get("marker") or {}
        add(marker.get("color"))
        add((marker.get("line") or {}).get("color"))
        add((marker.get("pattern") or {}).get("fgcolor"))
        add((t.get("line") or {}).get("color"))
    return out


@pytest.mark.parametrize("name,build,inside,mode", CASES, ids=[f"{n}-{m}" for n, _, _, m in CASES])
def test_colours_come_from_the_palette(name, build, inside, mode):
    spec = json.loads(build(mode).to_json())
    assert _colours(spec) <= ALLOWED, (name, _colours(spec) - ALLOWED)


@pytest.mark.parametrize("name,build,inside,mode", CASES, ids=[f"{n}-{m}" for n, _, _, m in CASES])
def test_a_line_break_keeps_the_words_apart(name, build, inside, mode):
    """Plotly draws "a<br>b" as two lines whose text reads "ab"; every break keeps its space before it."""
    spec = json.loads(build(mode).to_json())
    texts = []
    for t in spec["data"]:
        for axis in ("x", "y"):
            v = t.get(axis)
            if isinstance(v, list):
                texts += [x for x in v if isinstance(x, str)]
    for ax in (k for k in spec["layout"] if k.startswith(("xaxis", "yaxis"))):
        texts += [x for x in spec["layout"][ax].get("ticktext", []) or [] if isinstance(x, str)]
    texts += [a.get("text", "") for a in spec["layout"].get("annotations", [])]
    for text in texts:
        plain = text.replace("<b>", "").replace("</b>", "")
        assert "<br>" not in plain or all(part.endswith(" ") for part in plain.split("<br>")[:-1]), text


@pytest.mark.parametrize("name,build,inside", [(n, b, i) for n, b, i in BUILDERS if i], ids=[n for n, _, i in BUILDERS if i])
def test_inside_text_hides_rather_than_shrinks_on_stage(name, build, inside):
    fig = build("presenter")
    assert fig.layout.uniformtext.minsize >= stage.STAGE_TEXT and fig.layout.uniformtext.mode == "hide"


@pytest.mark.parametrize("name,build,inside", BUILDERS, ids=[n for n, _, _ in BUILDERS])
def test_stage_text_is_at_least_16px(name, build, inside):
    fig = stage.style(build("presenter"), mode="presenter")
    spec = json.loads(fig.to_json())
    sizes = [spec["layout"]["font"]["size"]]
    sizes += [a["font"]["size"] for a in spec["layout"].get("annotations", [])]
    for ax in (k for k in spec["layout"] if k.startswith(("xaxis", "yaxis"))):
        sizes.append(spec["layout"][ax]["tickfont"]["size"])
    assert min(sizes) >= stage.STAGE_TEXT, (name, sizes)


@pytest.mark.parametrize("text,width,expected", [
    ("HELM classic v0.4.0", 40, "HELM classic v0.4.0"),
    ("HELM Capabilities v1.15.0", 12, "HELM <br>Capabilities <br>v1.15.0"),
    ("supercalifragilistic word", 5, "supercalifragilistic <br>word"),  # a long word keeps its own line
    ("", 10, ""),
])
def test_wrap(text, width, expected):
    assert C.wrap(text, width) == expected
