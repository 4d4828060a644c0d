"""HELM's Leaderboard page: the tabs reproduce a suite's groups/*.json cell for cell (expected values read from
the JSON files here), with HELM's column names and descriptions, '–' for missing cells, a group selector, and
each cell's runs linked to Prompts & Completions; a release without groups files says how to get them."""
from __future__ import annotations

import html
import json
import math
from pathlib import Path

import pytest

from .helpers import (LSAT_JOINT, LSAT_SEPARATE, SUITE_0516, assert_clean, open_page, open_section, page_links,
                      section_labels, texts)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DEMO = FIXTURES / "helm_output"
SUITE = SUITE_0516  # built like crfm-helm 0.5.16 output (its README)
JOINT, SEPARATE = LSAT_JOINT, LSAT_SEPARATE
PAGE = "app_pages/leaderboard.py"


def groups_files(root: Path) -> list[Path]:
    """The suite's groups files, HELM's core table first (as the page orders them)."""
    files = sorted((p for p in root.rglob("*.json") if p.parent.name == "groups"), key=lambda p: (p.name != "core_scenarios.json", str(p)))
    assert files, root
    return files


def open_suite(monkeypatch, root: Path, query: dict | None = None):
    monkeypatch.setenv("HELM_OUTPUT", str(root))
    return open_page(PAGE, query={"cohort": "all", **(query or {})})


def header_help(at) -> dict[str, str]:
    """Column label -> help text of the page's first dataframe (its column config)."""
    cfg = json.loads(at.dataframe[0].proto.columns)
    return {v.get("label", k): v.get("help", "") for k, v in cfg.items() if isinstance(v, dict)}


def check_table(at, raw: dict) -> int:
    """The shown table is HELM's: same header, same models in order, every cell's value (NaN for a cell
    without a value), HELM's column descriptions as the columns' help. Returns how many descriptions it checked."""
    df = at.dataframe[0].value
    assert df.columns.tolist() == [h["value"] for h in raw["header"]]
    assert len(df) == len(raw["rows"])
    for i, row in enumerate(raw["rows"]):
        assert df.iloc[i, 0] == row[0]["value"]
        for j, cell in enumerate(row[1:], start=1):
            got, want = df.iloc[i, j], cell.get("value")
            if want is None:
                assert math.isnan(got), (raw["title"], i, j, got)
            else:
                assert got == pytest.approx(want), (raw["title"], i, j, got, want)
    helps = header_help(at)
    described = [h for h in raw["header"][1:] if h.get("description")]
    for h in described:
        assert html.unescape(helps[h["value"]]).startswith(h["description"].strip())
    return len(described)


@pytest.mark.parametrize("root", [SUITE, DEMO], ids=lambda p: p.name)
def test_every_table_of_every_group_file_cell_for_cell(monkeypatch, root):
    at = open_suite(monkeypatch, root)
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
        titles = [t["title"] or t["header"][1]["metadata"]["run_group"] for t in doc]
        assert section_labels(at) == titles
        for label, raw in zip(titles, doc):
            open_section(at, label)
            described += check_table(at, raw)
    assert described > 0


def test_missing_cells_show_the_dash_and_are_counted(monkeypatch):
    at = open_suite(monkeypatch, DEMO)
    proto = at.dataframe[0].proto
    assert proto.placeholder == "–"
    # The demo's Accuracy table: Tiny local model has no NarrativeQA value ("No matching runs").
    assert "1 cell without a value (–)" in texts(at)
    assert "HELM flags 1 cell as contaminated" in texts(at)  # BLOOM on BoolQ (contamination_level strong)


def test_a_cell_without_loaded_runs_says_so(monkeypatch):
    # The demo's tables name a run "fixture", which is not a run folder of the suite.
    at = open_suite(monkeypatch, DEMO, {"lb_model": "GPT-J (6B)", "lb_column": "MMLU - EM"})
    assert at.selectbox(key="lb_model").value == "GPT-J (6B)" and at.selectbox(key="lb_column").value == "MMLU - EM"
    t = texts(at)
    assert "GPT-J (6B) · MMLU - EM: 0.249 (min=0.229, mean=0.249, max=0.279, sum=1.245 (5))" in t
    assert "HELM lists 1 run behind this cell" in t and "no run folder of that name" in t
    assert not [p for p in at.get("page_link") if "behind this cell" in p.label]


def test_bundled_release_says_it_needs_groups_files_and_shows_rebuilt_tables():
    at = open_page(PAGE, query={"cohort": "all"})
    t = texts(at)
    assert "groups/&#42;.json" in t and "Bring Your Own HELM Output" in t and "--helm-output PATH" in t
    assert "rebuilt from the tidy data" in t
    assert section_labels(at)[0] == "Accuracy"
    df = at.dataframe[0].value
    assert df.columns[0] == "Model" and len(df) == 67  # every model of classic (cohort: all)
    assert df.columns[1] == "Mean win rate (published)" and "HELM&#x27;s published one, over every model" in t
    assert "A rebuilt table knows no runs" in t


@pytest.mark.parametrize("release, groups", [("lite", ["Accuracy", "Efficiency"]),
                                             ("capabilities", ["Accuracy", "Efficiency"])])
def test_later_releases_rebuilt_per_measured_group(release, groups):
    at = open_page(PAGE, query={"release": release})
    assert section_labels(at)[:len(groups)] == groups
    # Lite carries HELM's published win rates; Capabilities' bundled data has none, and the page says so.
    assert ("no win-rate column" in texts(at)) is (release == "capabilities")


def test_a_cell_links_to_its_runs_filtered_to_model_and_scenario(monkeypatch, tmp_path):
    """A suite whose table cells name its run folders (as helm-summarize writes them): the cell's link opens
    Prompts & Completions on that model, scenario and run."""
    import shutil

    root = tmp_path / "suite"
    shutil.copytree(DEMO, root)
    core = root / "groups" / "core_scenarios.json"
    doc = json.loads(core.read_text())
    mmlu = "mmlu:subject=philosophy,method=multiple_choice_joint,model=eleutherai_gpt-j-6b"
    doc[0]["rows"][0][2]["run_spec_names"] = [mmlu]
    core.write_text(json.dumps(doc))
    at = open_suite(monkeypatch, root, {"lb_model": "GPT-J (6B)", "lb_column": "MMLU - EM"})
    links = page_links(at)
    label = "Open the 1 run behind this cell in Prompts & Completions (GPT-J (6B) on MMLU)"
    assert links[label] == {"runs_model": "GPT-J (6B)", "runs_scenario": "MMLU", "run": mmlu}
    runs = open_page("app_pages/runs.py", query={"cohort": "all", **links[label]})
    assert runs.selectbox(key="runs_model").value == "GPT-J (6B)"
    assert runs.selectbox(key="runs_scenario").value == "MMLU"
    assert runs.selectbox(key="run").value == mmlu and runs.selectbox(key="run").options == [mmlu]


def test_0516_core_tables_and_quirks(monkeypatch):
    at = open_suite(monkeypatch, SUITE)
    assert at.selectbox(key="lb_group").options == ["core_scenarios", "babi_qa", "legal_support", "lsat_qa", "sst"]
    assert section_labels(at) == ["Accuracy", "Efficiency", "General information", "Calibration"]
    t = texts(at)
    assert "HELM&#x27;s own tables from runs/my-suite/groups/core&#95;scenarios.json" in t
    open_section(at, "Calibration")
    df = at.dataframe[0].value
    assert df.columns.tolist() == ["Model/adapter", "Mean win rate", "LegalSupport - Max prob", "LSAT - Max prob"]
    assert "ECE" not in " ".join(df.columns)  # the suite's schema gives Max prob, not ECE
    open_section(at, "Efficiency")
    cfg = json.loads(at.dataframe[0].proto.columns)
    # Runtimes of ~1e-5 s keep their digits instead of printing as 0.000.
    assert cfg["bAbI - Observed inference time (s)"]["type_config"]["format"] == "%.3g"


@pytest.mark.parametrize("group, label", [("sst", "SST"), ("legal_support", "LegalSupport")])
def test_a_scenario_table_helm_titled_empty_opens_in_the_suite_and_alone(monkeypatch, group, label):
    """helm-summarize titles a scenario without arguments "" (as the genuine HELM safety suite's four per-scenario
    files): the tab is labelled with HELM's run group, in the suite and when the file is loaded alone."""
    path = SUITE / "runs" / "my-suite" / "groups" / f"{group}.json"
    assert json.loads(path.read_text())[0]["title"] == ""
    at = open_suite(monkeypatch, SUITE, {"lb_group": group})
    assert section_labels(at) == [label]
    assert at.dataframe[0].value.columns[0] == "Model/adapter"
    alone = open_suite(monkeypatch, path)
    assert section_labels(alone) == [label] and len(alone.dataframe) == 1


def test_0516_lsat_cell_links_to_joint_and_separate_runs(monkeypatch):
    at = open_suite(monkeypatch, SUITE, {"lb_model": "Pythia (70M)", "lb_column": "LSAT - EM"})
    assert "Pythia (70M) · LSAT - EM: 0.7" in texts(at)
    links = page_links(at)
    label = "Open the 2 runs behind this cell in Prompts & Completions (Pythia (70M) on LSAT)"
    assert links[label] == {"runs_model": "Pythia (70M)", "runs_scenario": "LSAT", "run": JOINT}
    runs = open_page("app_pages/runs.py", query={"cohort": "all", **links[label]})
    assert runs.selectbox(key="run").options == [JOINT, SEPARATE]


def test_0516_time_cell_reads_at_its_scale(monkeypatch):
    """HELM's 1.94e-05 s of observed time is read as 19.4 µs in the cell detail, not as '1.94e-05' or '0.000'."""
    at = open_suite(monkeypatch, SUITE, {"lb_table": "Efficiency", "lb_model": "Tiny GPT-2 (local)",
                                         "lb_column": "bAbI - Observed inference time (s)"})
    assert "Tiny GPT-2 (local) · bAbI - Observed inference time (s): 19.4 µs" in texts(at)


def test_0516_cell_without_a_value(monkeypatch):
    at = open_suite(monkeypatch, SUITE, {"lb_model": "Tiny GPT-2 (local)", "lb_column": "LSAT - EM"})
    t = texts(at)
    assert "Tiny GPT-2 (local) · LSAT - EM: –" in t and "HELM lists no run behind this cell (no matching runs)." in t


def test_text_from_the_files_stays_text(monkeypatch, tmp_path):
    """Descriptions (tooltips render Markdown) and cell descriptions from a groups file are escaped."""
    hostile = "![x](http://127.0.0.9:9/p.png) <b>bold</b> [link](http://127.0.0.9:9/)"
    doc = [{"title": "Accuracy", "name": "accuracy",
            "header": [{"value": "Model/adapter"}, {"value": "S - EM", "description": hostile, "lower_is_better": False,
                                                    "metadata": {"metric": "EM", "run_group": "S"}}],
            "rows": [[{"value": "m"}, {"value": 0.5, "description": hostile, "run_spec_names": ["s:model=m"]}]]}]
    (tmp_path / "groups").mkdir()
    (tmp_path / "groups" / "core_scenarios.json").write_text(json.dumps(doc))
    at = open_suite(monkeypatch, tmp_path / "groups" / "core_scenarios.json")
    helptext = header_help(at)["S - EM"]
    assert "](" not in helptext and "<b>" not in helptext and "&lt;b&gt;" in helptext
    shown = [c.value for c in at.caption if "m · S - EM" in c.value][0]
    assert "<b>" not in shown and "](" not in shown
