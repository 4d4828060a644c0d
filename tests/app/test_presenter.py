"""Presenter mode on the slide model (ui.slides.route, ui.presenter): the route is the story, one step per slide;
Next / Previous walk it (a page's tabs or stepper steps, then the next page's); a step that leaves the page
switches before the shell is drawn (the interrupted run draws nothing); every page runs in presenter mode with its
chart dressed for the stage (ui.stage: text at least 16 px, the chart as tall as the stage leaves)."""
from __future__ import annotations

import json

import pytest

from helm_core.data import cohort_models, load_bundled
from ui import nav, presenter, slides, stage

from .helpers import ROOT, TIMEOUT, assert_clean, faint_text, open_page, texts

PAGES = nav.available_pages()


def _route(release: str = "classic", cohort: str = "paper"):
    rel = load_bundled(release)
    return slides.route(slides.Ctx(rel=rel, models=tuple(cohort_models(rel, cohort)), state={}))


ROUTE = _route()


@pytest.fixture
def bar_calls(monkeypatch):
    calls = []
    real = presenter.bar
    monkeypatch.setattr(presenter, "bar", lambda url_path, **hooks: calls.append(url_path) or real(url_path, **hooks))
    return calls


def _counter(at) -> tuple[int, int]:
    lines = [str(m.value) for m in at.markdown if str(m.value).startswith("**Step ")]
    assert len(lines) == 1, lines  # one counter line: the one the bar said before the page ran, rewritten after
    text = lines[0]
    k, _, n = text.split("**")[1].split()[1:4]
    return int(k), int(n)


def _open_step(step: slides.Step):
    query = {"present": "1", **({step.key: step.token} if step.key else {})}
    return open_page(step.file, query=query)


def test_the_route_is_every_story_slide_in_order():
    assert len(ROUTE) >= 30
    assert [s.index for s in ROUTE] == list(range(len(ROUTE)))
    pages_in_order = list(dict.fromkeys(s.page for s in ROUTE))
    nav_order = [p.url_path for p in PAGES]
    assert pages_in_order == [p for p in nav_order if p in pages_in_order]  # navigation order, no page twice
    assert sum(s.page == "leaderboard" for s in ROUTE) == 1  # HELM's Leaderboard is one step
    assert "data" not in pages_in_order  # the upload page is a tool, not a step of the story
    from helm_core import content, critique

    limits = [s for s in ROUTE if s.page == "limits"]
    assert [s.token for s in limits] == [str(i) for i in range(1, len(critique.load_steps()) + 1)]  # every step


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_a_later_release_has_its_own_route(release):
    route = _route(release)
    assert len(route) >= 20 and route[0].page == ""


def test_next_within_a_pages_slides_stays_on_the_page(bar_calls):
    first = next(s for s in ROUTE if s.page == "grid")
    at = _open_step(first)
    assert _counter(at) == (first.index + 1, len(ROUTE))
    bar_calls.clear()
    at.button(key="present_next").click().run()
    assert_clean(at)
    nxt = ROUTE[first.index + 1]
    assert nxt.page == "grid" and _counter(at) == (nxt.index + 1, len(ROUTE))
    assert at.session_state[nxt.key] == nxt.token
    assert bar_calls == ["grid"]


def test_next_from_a_pages_last_slide_switches_once(bar_calls):
    last = [s for s in ROUTE if s.page == "grid"][-1]
    nxt = ROUTE[last.index + 1]
    at = _open_step(last)
    bar_calls.clear()
    at.button(key="present_next").click().run()
    assert_clean(at)
    assert nav.title(nav.spec_for(nxt.page), False) in texts(at)
    assert _counter(at) == (nxt.index + 1, len(ROUTE))
    assert bar_calls == [nxt.page]  # the run the switch threw away drew no bar


def test_previous_from_a_pages_first_slide_lands_on_the_previous_pages_last(bar_calls):
    first = next(s for s in ROUTE if s.page == "calibration")
    before = ROUTE[first.index - 1]
    at = _open_step(first)
    bar_calls.clear()
    at.button(key="present_prev").click().run()
    assert_clean(at)
    assert _counter(at) == (before.index + 1, len(ROUTE))
    assert bar_calls == [before.page]


def test_next_walks_every_stepper_step():
    steps = [s for s in ROUTE if s.page == "limits"]
    at = _open_step(steps[0])
    for s in steps[1:]:
        at.button(key="present_next").click().run()
        assert_clean(at)
        assert at.session_state["step"] == int(s.token) and _counter(at)[0] == s.index + 1
    assert not any(b.key in ("step_next", "step_back") for b in at.button)  # one Next on screen: the bar's


def _fonts(spec: dict) -> list[tuple[str, float]]:
    """Every font size a figure sets for its ticks, legend, titles, colour bars and annotations."""
    out = []
    layout = spec.get("layout", {})
    for name, value in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(value, dict) and value.get("showticklabels") is not False:
            out.append((f"{name} ticks", (value.get("tickfont") or {}).get("size")))
    out.append(("legend", ((layout.get("legend") or {}).get("font") or {}).get("size")))
    for i, a in enumerate(layout.get("annotations") or []):
        out.append((f"annotation {i}", (a.get("font") or {}).get("size")))
    return [(k, v) for k, v in out if v is not None]


@pytest.mark.parametrize("step", [s for s in ROUTE], ids=[f"{s.index + 1}-{s.page or 'home'}-{s.slide_id}"
                                                          for s in ROUTE])
def test_every_route_step_runs_on_stage_with_stage_fonts(step):
    at = _open_step(step)
    assert _counter(at) == (step.index + 1, len(ROUTE))
    charts = at.get("plotly_chart")
    for chart in charts[:1]:  # the slide's visual
        spec = json.loads(chart.proto.spec)
        small = [(k, v) for k, v in _fonts(spec) if v < stage.STAGE_TEXT]
        assert not small, small
        assert spec["layout"].get("height", 0) <= slides.STAGE_HEIGHT
    # every chart text's contrast, for both themes (the presenter walk in Chromium measures it as drawn, in light)
    faint = {i: f for i, chart in enumerate(charts) if (f := faint_text(json.loads(chart.proto.spec)))}
    assert not faint, faint


def test_presenter_mode_survives_a_bad_step_in_the_link():
    at = open_page("app_pages/limits.py", query={"present": "1", "step": "<script>"})
    assert_clean(at)
    assert _counter(at)[0] == next(s for s in ROUTE if s.page == "limits").index + 1
    assert "<script>" in texts(at)  # named literally in the notice, never read as markup


def test_the_bar_opens_in_presenter_mode_from_a_fresh_link():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    at.query_params["present"] = "true"
    at.run()
    assert_clean(at)
    assert _counter(at) == (1, len(ROUTE))
    assert at.button(key="present_prev").disabled


@pytest.mark.parametrize("layout, expected", [
    ({"font": {"color": "#31333F"}, "xaxis": {"title": {"text": "x"}}}, []),  # the ink: swapped on dark
    ({"font": {"color": "#31333F"}, "annotations": [{"text": "a", "font": {"color": "#BBBBBB"}}]},
     ["annotation 0 #BBBBBB on light"]),
    ({"font": {"color": "#31333F"}, "yaxis": {"tickfont": {"color": "#1A1A1A"}}}, ["yaxis ticks #1A1A1A on dark"]),
    ({"font": {"color": "#31333F"}, "yaxis": {"showticklabels": False, "tickfont": {"color": "#1A1A1A"}}}, []),
])
def test_faint_text_finds_text_a_theme_would_lose(layout, expected):
    assert faint_text({"layout": layout, "data": []}) == expected
