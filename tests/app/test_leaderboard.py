"""HELM's Leaderboard page: one slide whose point and bars come from the open table (recomputed here from the JSON
files and from data/), and below it the tabs that reproduce a suite's groups/*.json cell for cell, with HELM's
column names and descriptions, '–' for missing cells, a group selector, a column picker per table, and each cell's
runs linked to Prompts & Completions; a release without groups files says how to get them."""
from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from helm_core import data, escape, fmt, helm_output, leaderboard as lb, validity
from tests import hostile_names as H
from ui import nav, slides

from .helpers import (LSAT_JOINT, LSAT_SEPARATE, SUITE_0516, assert_clean, open_lazy, open_page, open_section,
                      page_links, section_labels, texts)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEMO = FIXTURES / "helm_output"
SUITE = SUITE_0516  # built like crfm-helm 0.5.16 output (its README)
MY = SUITE / "runs" / "my-suite"
JOINT, SEPARATE = LSAT_JOINT, LSAT_SEPARATE
PAGE = "app_pages/leaderboard.py"


def groups_files(root: Path) -> list[Path]:
    """The suite's groups files, HELM's core table first (as the page orders them)."""
    files = sorted((p for p in root.rglob("*.json") if p.parent.name == "groups"),
                   key=lambda p: (p.name != "core_scenarios.json", str(p)))
    assert files, root
    return files


def open_suite(set_helm_output, root: Path, query: dict | None = None):
    set_helm_output(root)
    return open_page(PAGE, query={"cohort": "all", **(query or {})})


def plain(at) -> str:
    """The page's Markdown as it reads on screen (escapes resolved, bold marks dropped)."""
    return escape.unmarkdown(texts(at).replace("**", ""))


def labels(at) -> list[str]:
    """The table tabs' labels as they read on screen."""
    return [escape.unmarkdown(label) for label in section_labels(at)]


def open_table(at, title: str):
    return open_section(at, escape.markdown(title))


def header_help(at) -> dict[str, str]:
    """Column label -> help text of the page's first dataframe (its column config)."""
    cfg = json.loads(at.dataframe[0].proto.columns)
    return {v.get("label", k): v.get("help", "") for k, v in cfg.items() if isinstance(v, dict)}


def chart_data(at):
    """The rows behind the slide's bars (its 'Data behind this chart' table, opened)."""
    at = open_lazy(at, "Data behind this chart")
    return next(d.value for d in at.dataframe if "rank" in d.value.columns)


def check_table(at, raw: dict, i: int = 0) -> int:
    """The shown table is HELM's: same header, same models in order, every cell's value (NaN for a cell
    without a value), HELM's column descriptions as the columns' help. Returns how many descriptions it checked."""
    df = at.dataframe[i].value
    assert df.columns.tolist() == [h["value"] for h in raw["header"]]
    assert len(df) == len(raw["rows"])
    for r, row in enumerate(raw["rows"]):
        assert df.iloc[r, 0] == row[0]["value"]
        for j, cell in enumerate(row[1:], start=1):
            got, want = df.iloc[r, j], cell.get("value")
            if want is None:
                assert math.isnan(got), (raw["title"], r, j, got)
            else:
                assert got == pytest.approx(want), (raw["title"], r, j, got, want)
    helps = header_help(at)
    described = [h for h in raw["header"][1:] if h.get("description")]
    for h in described:
        assert escape.unmarkdown(helps[h["value"]]).startswith(h["description"].strip())
    return len(described)


def title_of(raw: dict) -> str:
    """HELM's title of a table, or for one titled "" the run group its header cells name (the tab's label)."""
    return raw["title"] or raw["header"][1]["metadata"]["run_group"]


# ----------------------------------------------------------------------------- the slide


def expected_point(file: str, n_tables: int, raw: dict) -> str:
    """The slide's point for a table of a groups file, recomputed from the JSON: HELM's mean win rate when it has a
    value, else the first column with one; the model(s) with the best value."""
    cols = raw["header"][1:]
    values = [[c.get("value") for c in row[1:]] for row in raw["rows"]]
    has = [j for j in range(len(cols)) if any(isinstance(v[j], (int, float)) for v in values)]
    win = [j for j in has if cols[j]["value"] == "Mean win rate"]
    j = win[0] if win else has[0]
    rows = [(row[0]["value"], v[j]) for row, v in zip(raw["rows"], values) if isinstance(v[j], (int, float))]
    best = (min if cols[j].get("lower_is_better") else max)(v for _, v in rows)
    top = [m for m, v in rows if v == best]
    shown = fmt.metric_value(best, cols[j]["value"].split(" - ", 1)[-1])
    among = f"of {fmt.count(len(rows), 'model')}" + ("" if len(rows) == len(raw["rows"]) else " with a value")
    tie = f"tied at {shown}" if len(top) > 1 else shown
    if len(rows) == 1:
        claim = f"{top[0]} alone has a value for {cols[j]['value']} ({shown})"
    elif win:
        claim = f"HELM's Mean win rate puts {fmt.names(top)} first {among} ({tie})"
    elif cols[j].get("lower_is_better") is None:
        claim = f"{fmt.names(top)} {'has' if len(top) == 1 else 'have'} the highest {cols[j]['value']} {among} ({tie})"
    else:
        better = "lower" if cols[j]["lower_is_better"] else "higher"
        claim = (f"{fmt.names(top)} {'leads' if len(top) == 1 else 'lead'} on {cols[j]['value']} ({better} is better) "
                 f"{among} ({tie})")
    return f"{file}, {fmt.count(n_tables, 'table')}: in {title_of(raw)}, {claim}."


@pytest.mark.parametrize("root", [SUITE, DEMO], ids=lambda p: p.name)
def test_the_point_and_the_bars_follow_the_open_table(set_helm_output, root):
    """On every table of every groups file: the point names the file, the table and HELM's top model by its own
    aggregate (else the first column with a number), and the bars rank the models by it, best first."""
    at = open_suite(set_helm_output, root)
    files = groups_files(root)
    for f in files:
        doc = json.loads(f.read_text())
        if len(files) > 1:
            at.selectbox(key="lb_group").set_value(f.stem).run()
            assert_clean(at)
        for raw in doc:
            open_table(at, title_of(raw))
            assert expected_point(f.name, len(doc), raw) in plain(at)
            t = lb.parse_tables([raw], f"groups/{f.name}")[0]
            h = lb.headline(t)
            bars = chart_data(at)
            assert bars["model"].tolist() == h.ranking["model"].tolist()
            assert bars.columns.tolist() == ["model", h.column, "rank"]


@pytest.mark.parametrize("release, cohort", [("classic", "paper"), ("classic", "all"), ("lite", "all"),
                                             ("capabilities", "all")])
def test_a_bundled_release_says_so_and_names_helms_published_top_model(release, cohort):
    """No groups files: the point says the tables are rebuilt and names the top model of HELM's published
    aggregate (classic and Lite: mean win rate; Capabilities: mean score) among the sidebar's models."""
    at = open_page(PAGE, query={"release": release, "cohort": cohort})
    rel = data.load_bundled(release)
    models = set(data.cohort_models(rel, cohort if release == "classic" else "all"))
    if release == "capabilities":
        pub, name = rel.published_scores.rename(columns={"score": "v"}), "mean score"
    else:
        pub, name = rel.published_win_rates.rename(columns={"win_rate": "v"}), "mean win rate"
    pub = pub[(pub["metric_group"] == "accuracy") & pub["model"].isin(models)]
    top = pub.loc[pub["v"] == pub["v"].max(), "model"].tolist()
    among = f"of {fmt.count(len(pub), 'model')}" + ("" if len(pub) == len(models) else " with a value")
    point = (f"Rebuilt from {rel.name}'s values (no groups files): in Accuracy, HELM's published {name} puts "
             f"{fmt.names(top)} first {among} ({pub['v'].max():.3f}).")
    t = plain(at)
    assert point in t
    assert "groups/*.json" in t and "Bring Your Own HELM Output" in t and "--helm-output PATH" in t
    assert "rebuilt from the tidy data" in t and f"the {name} column is HELM's published one" in t
    assert [p for p in at.get("page_link") if p.label == "Load your own HELM output"]
    assert labels(at)[:2] == ["Accuracy", "Efficiency"] if release != "classic" else labels(at)[0] == "Accuracy"
    df = at.dataframe[0].value
    assert df.columns[0] == "Model" and len(df) == len(models)
    assert df.columns[1] == ("Mean score (published)" if release == "capabilities" else "Mean win rate (published)")
    assert "A rebuilt table knows no runs" in t


def test_one_step_on_the_presenter_route_and_the_data_page_off_it():
    """The leaderboard is one slide on the route (it used to be one step per table); the upload page is none."""
    rel = data.load_bundled("classic")
    ctx = slides.Ctx(rel=rel, models=tuple(rel.model_names), mode="presenter")
    steps = slides.route(ctx)
    assert [s.title for s in steps if s.page == "leaderboard"] == ["HELM's Leaderboard"]
    assert not [s for s in steps if s.page == "data"]
    assert nav.spec_for("data") is not None


def test_presenter_mode_draws_the_bars_first():
    at = open_page(PAGE, query={"present": "1"})
    assert at.get("plotly_chart")
    assert "HELM's Leaderboard" in texts(at) and "Step " in texts(at)


# ----------------------------------------------------------------------------- HELM's tables, below the slide


@pytest.mark.parametrize("root", [SUITE, DEMO], ids=lambda p: p.name)
def test_every_table_of_every_group_file_cell_for_cell(set_helm_output, root):
    """Every groups file of the suite, its per-scenario files included (one used to crash the page: 'Tab labels
    must be non-empty'), opens with a tab per table labelled with HELM's title."""
    at = open_suite(set_helm_output, root)
    files = groups_files(root)
    group_box = [s for s in at.selectbox if s.key == "lb_group"]
    assert [f.stem for f in files] == (group_box[0].options if group_box else [files[0].stem])
    described = 0
    for f in files:
        doc = json.loads(f.read_text())
        if group_box:
            at.selectbox(key="lb_group").set_value(f.stem).run()
            assert_clean(at)
        # One tab per table, HELM's titles; a table HELM titled "" (a scenario without arguments) is labelled with
        # the run group its header cells name.
        assert labels(at) == [title_of(t) for t in doc]
        for raw in doc:
            open_table(at, title_of(raw))
            described += check_table(at, raw)
    assert described > 0


def test_missing_cells_show_the_dash_and_are_counted(set_helm_output):
    at = open_suite(set_helm_output, DEMO)
    proto = at.dataframe[0].proto
    assert proto.placeholder == "–"
    # The demo's Accuracy table: Tiny local model has no NarrativeQA value ("No matching runs").
    assert "1 cell without a value (–)" in plain(at)
    assert "HELM flags 1 cell as contaminated" in plain(at)  # BLOOM on BoolQ (contamination_level strong)


def test_a_cell_without_loaded_runs_says_so(set_helm_output):
    # The demo's tables name a run "fixture", which is not a run folder of the suite.
    at = open_suite(set_helm_output, DEMO, {"lb_model": "GPT-J (6B)", "lb_column_0": "MMLU - EM"})
    assert at.selectbox(key="lb_model").value == "GPT-J (6B)"
    assert at.selectbox(key="lb_column_0").value == "MMLU - EM"
    t = plain(at)
    assert "GPT-J (6B) · MMLU - EM: 0.249 (min=0.229, mean=0.249, max=0.279, sum=1.245 (5))" in t
    assert "HELM lists 1 run behind this cell" in t and "no run folder of that name" in t
    assert not [p for p in at.get("page_link") if "behind this cell" in p.label]


@pytest.mark.parametrize("release", ["lite", "capabilities"])
def test_later_releases_rebuilt_per_measured_group(release):
    at = open_page(PAGE, query={"release": release})
    assert labels(at) == ["Accuracy", "Efficiency", "General information"]
    open_table(at, "Efficiency")
    # The open table is the slide's: its published aggregate ranks the bars.
    assert "in Efficiency, HELM's published" in plain(at)


def test_each_table_keeps_its_own_column_pick(set_helm_output):
    """A column picked under one table (and in the link) is not carried into another table's picker: every table's
    picker has its own key (lb_column_<tab>), and keeps its pick while another tab is open."""
    at = open_suite(set_helm_output, SUITE, {"lb_column_0": "Mean win rate"})
    assert at.selectbox(key="lb_column_0").value == "Mean win rate"
    open_table(at, "Efficiency")
    assert at.selectbox(key="lb_column_1").value == "bAbI - Observed inference time (s)"  # its own default
    assert not [s for s in at.selectbox if s.key == "lb_column_0"]
    open_table(at, "Accuracy")
    assert at.selectbox(key="lb_column_0").value == "Mean win rate"
    keys = set(at.session_state["_qp_allowed"])
    assert {"lb_column_0", "lb_column_1", "lb_column_2", "lb_column_3", "lb_table_4", "lb_column_4_0"} <= keys


def test_a_cell_links_to_its_runs_filtered_to_model_and_scenario(set_helm_output, tmp_path):
    """A suite whose table cells name its run folders (as helm-summarize writes them): the cell's link opens
    Prompts & Completions on that model, scenario and run."""
    root = tmp_path / "suite"
    shutil.copytree(DEMO, root)
    core = root / "groups" / "core_scenarios.json"
    doc = json.loads(core.read_text())
    mmlu = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
    doc[0]["rows"][0][2]["run_spec_names"] = [mmlu]
    core.write_text(json.dumps(doc))
    at = open_suite(set_helm_output, root, {"lb_model": "GPT-J (6B)", "lb_column_0": "MMLU - EM"})
    links = page_links(at)
    label = escape.markdown("Open the 1 run behind this cell in Prompts & Completions (GPT-J (6B) on MMLU)")
    assert links[label] == {"runs_model": "GPT-J (6B)", "runs_scenario": "MMLU", "run": mmlu}
    runs = open_page("app_pages/runs.py", query={"cohort": "all", **links[label]})
    assert runs.selectbox(key="runs_model").value == "GPT-J (6B)"
    assert runs.selectbox(key="runs_scenario").value == "MMLU"
    assert runs.selectbox(key="run").value == mmlu and runs.selectbox(key="run").options == [mmlu]


def test_a_run_in_two_folders_is_one_run_behind_its_cell(set_helm_output, tmp_path):
    """Two run folders holding one run name (a copied folder): the loader keeps one, and the cell that HELM backs
    with that run says 1 run, not 2."""
    root = tmp_path / "out"
    shutil.copytree(SUITE, root)
    babi = "babi_qa:task=15,model=local_tiny-gpt2"
    shutil.copytree(root / "runs" / "my-suite" / babi, root / "runs" / "my-suite" / f"{babi} copy")
    at = open_suite(set_helm_output, root, {"lb_model": "Tiny GPT-2 (local)", "lb_column_0": "bAbI - EM"})
    found = [p.label for p in at.get("page_link") if "behind this cell" in p.label]
    assert [escape.unmarkdown(x) for x in found] == [
        "Open the 1 run behind this cell in Prompts & Completions (Tiny GPT-2 (local) on bAbI)"]


def test_0516_core_tables_and_quirks(set_helm_output):
    at = open_suite(set_helm_output, SUITE)
    assert at.selectbox(key="lb_group").options == ["core_scenarios", "babi_qa", "legal_support", "lsat_qa", "sst"]
    assert labels(at) == ["Accuracy", "Efficiency", "General information", "Calibration"]
    assert "HELM's own tables from runs/my-suite/groups/core_scenarios.json" in plain(at)
    open_table(at, "Calibration")
    df = at.dataframe[0].value
    assert df.columns.tolist() == ["Model/adapter", "Mean win rate", "LegalSupport - Max prob", "LSAT - Max prob"]
    assert "ECE" not in " ".join(df.columns)  # the suite's schema gives Max prob, not ECE
    open_table(at, "Efficiency")
    cfg = json.loads(at.dataframe[0].proto.columns)
    # Runtimes of ~1e-5 s keep their digits instead of printing as 0.000.
    assert cfg["bAbI - Observed inference time (s)"]["type_config"]["format"] == "%.3g"


@pytest.mark.parametrize("group, label", [("sst", "SST"), ("legal_support", "LegalSupport")])
def test_a_scenario_table_helm_titled_empty_opens_in_the_suite_and_alone(set_helm_output, group, label):
    """helm-summarize titles a scenario without arguments "" (as the genuine HELM safety suite's four per-scenario
    files): the tab is labelled with HELM's run group, in the suite and when the file is loaded alone."""
    path = MY / "groups" / f"{group}.json"
    assert json.loads(path.read_text())[0]["title"] == ""
    at = open_suite(set_helm_output, SUITE, {"lb_group": group})
    assert labels(at) == [label]
    assert at.dataframe[0].value.columns[0] == "Model/adapter"
    alone = open_suite(set_helm_output, path)
    assert labels(alone) == [label] and len(alone.dataframe) == 1
    assert f"in {label}," in plain(alone)


def test_0516_lsat_cell_links_to_joint_and_separate_runs(set_helm_output):
    at = open_suite(set_helm_output, SUITE, {"lb_model": "Pythia (70M)", "lb_column_0": "LSAT - EM"})
    assert "Pythia (70M) · LSAT - EM: 0.7" in plain(at)
    links = page_links(at)
    label = escape.markdown("Open the 2 runs behind this cell in Prompts & Completions (Pythia (70M) on LSAT)")
    assert links[label] == {"runs_model": "Pythia (70M)", "runs_scenario": "LSAT", "run": JOINT}
    runs = open_page("app_pages/runs.py", query={"cohort": "all", **links[label]})
    assert runs.selectbox(key="run").options == [JOINT, SEPARATE]


def test_0516_time_cell_reads_at_its_scale(set_helm_output):
    """HELM's 1.94e-05 s of observed time is read as 19.4 µs in the cell detail, not as '1.94e-05' or '0.000'."""
    at = open_suite(set_helm_output, SUITE, {"lb_table": "Efficiency", "lb_model": "Tiny GPT-2 (local)",
                                         "lb_column_1": "bAbI - Observed inference time (s)"})
    assert "Tiny GPT-2 (local) · bAbI - Observed inference time (s): 19.4 µs" in plain(at)
    assert "in Efficiency, HELM's Mean win rate puts Tiny GPT-2 (local) first" in plain(at)


def test_0516_cell_without_a_value(set_helm_output):
    at = open_suite(set_helm_output, SUITE, {"lb_model": "Tiny GPT-2 (local)", "lb_column_0": "LSAT - EM"})
    t = plain(at)
    assert "Tiny GPT-2 (local) · LSAT - EM: –" in t and "HELM lists no run behind this cell (no matching runs)." in t


def test_text_from_the_files_stays_text(set_helm_output, tmp_path):
    """Descriptions (tooltips render Markdown) and cell descriptions from a groups file are escaped: they read back
    as written, and no image, link or tag is made of them."""
    hostile = "![x](http://127.0.0.9:9/p.png) <b>bold</b> [link](http://127.0.0.9:9/)"
    doc = [{"title": "Accuracy", "name": "accuracy",
            "header": [{"value": "Model/adapter"}, {"value": "S - EM", "description": hostile, "lower_is_better": False,
                                                    "metadata": {"metric": "EM", "run_group": "S"}}],
            "rows": [[{"value": "m"}, {"value": 0.5, "description": hostile, "run_spec_names": ["s:model=m"]}]]}]
    (tmp_path / "groups").mkdir()
    (tmp_path / "groups" / "core_scenarios.json").write_text(json.dumps(doc))
    at = open_suite(set_helm_output, tmp_path / "groups" / "core_scenarios.json")
    helptext = header_help(at)["S - EM"]
    assert escape.unmarkdown(helptext) == hostile + "\n\nHigher is better."
    assert "](" not in helptext.replace("\\](", "") and "<b>" not in helptext
    shown = [c.value for c in at.caption if "m · S - EM" in escape.unmarkdown(c.value)][0]
    assert "<b>" not in shown and "](" not in shown.replace("\\](", "")
    assert escape.unmarkdown(shown).endswith(f"({hostile})")


# ----------------------------------------------------------------------------- hostile names and values


@pytest.fixture
def hostile_file(tmp_path) -> Path:
    (tmp_path / "groups").mkdir()
    path = tmp_path / "groups" / "core_scenarios.json"
    path.write_bytes(H.groups_json())
    return path


def test_hostile_names_read_literally_everywhere(set_helm_output, hostile_file):
    """Model, scenario, metric and table names full of `_ * [ ] < > & | $ ~` read as the loader holds them in the
    point, the tabs, the table's header and cells, the bars and the cell detail: no entity, no stray backslash."""
    at = open_suite(set_helm_output, hostile_file)
    model, other, title, column = H.MODEL, H.OTHER, H.TITLE, H.COLUMN  # as written in the file
    body = texts(at)
    assert not [e for e in H.ENTITIES if e in body]
    shown = plain(at)
    assert "\\" not in shown
    assert f"in {title}, HELM's Mean win rate puts {model} first of 2 models (1.000)." in shown
    assert labels(at)[0] == title
    df = at.dataframe[0].value
    assert df.columns.tolist() == ["Model/adapter", "Mean win rate", column] and df.iloc[:, 0].tolist() == [model, other]
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    ticks = [escape.unchart_label(x) for x in spec["layout"]["yaxis"]["ticktext"]]
    assert ticks == [model, other]
    assert f"{model} · {column}: 0.7" in shown  # the cell detail: the first column with runs behind it


def test_a_refused_value_is_named_under_its_table(set_helm_output, hostile_file):
    """An Infinity cell is left out (shown as '–'), and the caption under its table names it; a NaN cell is no
    value, as HELM's own blanks."""
    at = open_suite(set_helm_output, hostile_file)
    second = helm_output.read_helm_output(hostile_file).leaderboard()[1]
    assert len(second.rejected) == 1
    open_section(at, section_labels(at)[1])
    df = at.dataframe[0].value
    assert df.iloc[:, 1].isna().all()
    sentence = validity.rejected_sentence(validity.frame(second.rejected))
    assert sentence.startswith("1 value HELM could not have produced was left out") and "Infinity" in sentence
    assert sentence in [escape.unmarkdown(c.value) for c in at.caption]
    assert "2 cells without a value (–)" in plain(at)
