"""bench.audience: its Streamlit-protocol viewers (bench.ws_client) against a real `streamlit run` of a small app,
and the pure parts of its report (walk plans, quantiles, budget verdicts) and of bench.server_profile's attribution."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench import audience as A
from bench import server_profile as P
from bench import ws_client as W

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0  # a bound on a step that never came, not a timing check


@pytest.fixture(scope="module")
def port():
    from tests.e2e.conftest import serving

    with serving(script=ROOT / "tests" / "fixtures" / "audience_app.py") as proc:
        A.drain(proc)
        yield int(proc.url.rsplit(":", 1)[1])


def _visit(port: int, steps):
    """Open `/` (or the first step's link) with one viewer, run the steps, return the viewer's Steps and texts."""
    async def go():
        v = W.Viewer(port, 0)
        done, texts = [], []
        try:
            for step in steps:
                kind, arg = step
                done.append(await (v.open(arg, TIMEOUT) if kind == "open" else
                                   v.switch_page(arg, TIMEOUT) if kind == "page" else v.switch_tab(TIMEOUT)))
                texts.append(list(v.texts))
            return done, texts, v
        finally:
            await v.close()
    # In a thread of its own: a worker that has run a Playwright (sync) test before has an event loop running in
    # its main thread, where asyncio.run refuses to start another.
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, go()).result()


def test_deep_link_is_served_with_its_query(port):
    (first,), (texts,), _ = _visit(port, [("open", "/?who=viewer+7")])
    assert first.seconds is not None and first.errors == [] and first.messages > 0
    assert "who: viewer 7" in texts


def test_page_switch_and_tab_switch(port):
    steps, texts, v = _visit(port, [("open", "/"), ("page", "tabbed"), ("tab", None), ("tab", None)])
    assert [s.errors for s in steps] == [[], [], [], []]
    assert all(s.seconds is not None for s in steps)
    assert "open section: Alpha" in texts[1]
    assert "open section: Beta" in texts[2] and steps[2].target == "tabbed · Beta"
    assert "open section: Gamma" in texts[3]
    assert v.query == "tabbed_section=Gamma"  # the URL a browser would show


def test_a_deep_link_to_a_tab_opens_it(port):
    (first,), (texts,), _ = _visit(port, [("open", "/tabbed?tabbed_section=Gamma")])
    assert first.errors == [] and "open section: Gamma" in texts


def test_an_exception_is_an_error(port):
    (first,), _, _ = _visit(port, [("open", "/broken")])
    assert any("ValueError" in e and "fails on purpose" in e for e in first.errors)


def test_an_unknown_page_is_an_error(port):
    steps, _, _ = _visit(port, [("open", "/"), ("page", "nowhere")])
    assert steps[1].errors == ["no page 'nowhere' in the navigation"] and steps[1].seconds is None


@pytest.mark.parametrize("pages, steps, index, expected", [
    (["a", "b"], 4, 0, ["a", "tab", "b", "tab"]),
    (["a", "b"], 3, 1, ["b", "tab", "a"]),
    (["a"], 5, 3, ["a", "tab", "a", "tab", "a"]),
    ([], 3, 0, []),
    (["a", "b"], 0, 0, []),
])
def test_walk_plan(pages, steps, index, expected):
    assert A.walk_plan(pages, steps, index) == expected


@pytest.mark.parametrize("xs, q, expected", [
    ([3.0, 1.0, 2.0], 0.5, 2.0),
    ([1.0, 2.0, 3.0, 4.0], 0.5, 2.0),  # nearest rank: the 2nd of 4
    (list(map(float, range(1, 51))), 0.95, 48.0),
    ([5.0], 0.95, 5.0),
])
def test_quantile(xs, q, expected):
    assert A.quantile(xs, q) == expected


def _turn(times, errors=(), cpu=1.0):
    first = [{"kind": "first", "target": "/", "seconds": t, "messages": 1, "kbytes": 1.0, "errors": list(errors)}
             for t in times]
    return A.summarise({"load_average": 0.5, "first": first, "steps": [], "rss_after_mb": 100.0,
                        "join": {"cpu_s": cpu, "wall_s": 2.0, "peak_rss_mb": 200.0, "client_cpu_s": 0.1}})


@pytest.mark.parametrize("floor_times, app_times, errors, met", [
    # all finish together, within 1.2x the floor
    ([0.9, 0.95, 1.0], [1.0, 1.05, 1.1], (), {"ratio_p50_within_1.2": True, "p50_before_last": False}),
    # one after another: the median viewer is served at about half the last one's time
    ([0.3, 0.3, 0.3], [0.2, 0.6, 1.1], (), {"ratio_p50_within_1.2": False, "p50_before_last": True}),
    ([0.9, 0.95, 1.0], [0.2, 0.6, 1.1], ("exception X",), {"no_errors": False, "ratio_p50_within_1.2": True}),
])
def test_budget_verdicts(floor_times, app_times, errors, met):
    rep = A.report({"floor": [_turn(floor_times)], "app": [_turn(app_times, errors)]}, n=3)
    assert {k: rep["budget"][k] for k in met} == met
    assert rep["budget_met"] == all(rep["budget"].values())


def test_profile_attribution(tmp_path):
    raw = tmp_path / "raw.txt"
    home, page = f"<module> ({ROOT}/Home.py:80)", f"<module> ({ROOT}/app_pages/plumbing.py:79)"
    thread = "Thread._bootstrap (threading.py:1);ScriptRunner._run_script_thread (streamlit/script_runner.py:443)"
    raw.write_text("\n".join([
        f"{thread};{home};Page.run (streamlit/navigation/page.py:574);{page};"
        "PlotlyMixin.plotly_chart (streamlit/elements/plotly_chart.py:899);to_json (site-packages/plotly/io/_json.py:1) 30",
        f"{thread};{home};Page.run (streamlit/navigation/page.py:574);{page};go (site-packages/plotly/basedatatypes.py:5) 20",
        f"{thread};{home};Page.run (streamlit/navigation/page.py:574);{page} 40",
        f"{thread};{home} 10",
        "run (asyncio/runners.py:190);Runtime._loop_coroutine (streamlit/runtime/runtime.py:803) 100",
    ]) + "\n")
    a = P.attribute(P.parse(raw), joiners=10, rate=200)
    shares = {name: share for name, share, _ in a["categories"]}
    assert a["samples"] == 200 and a["gil_seconds"] == 1.0
    assert shares == {"event loop: flush queues, serialise, websocket send": 0.5,
                      "page script (app_pages, ui, helm_core, pandas)": 0.2,
                      "st.plotly_chart: figure -> JSON, element id": 0.15,
                      "plotly: building figures (go.Figure, update_layout, ...)": 0.1,
                      "Home.py router and sidebar": 0.05}
    own = {name: ms for name, _, ms in a["own"]}
    assert own["<module> (app_pages/plumbing.py)"] == pytest.approx(90 / 200 * 1e3 / 10)
