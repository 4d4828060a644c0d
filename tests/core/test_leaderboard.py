"""helm_core.leaderboard: HELM's groups/*.json tables kept as HELM wrote them, tables rebuilt from tidy data,
and the runs behind a cell."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest

from helm_core import data, helm_output, leaderboard as lb
from helm_core.data import DataError

NAN = float("nan")
FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output"


def header(*cols: tuple) -> list[dict]:
    """The model column, then (value, description, lower_is_better, run_group, metric) header cells."""
    out = [{"value": "Model/adapter", "markdown": False, "metadata": {}}]
    for value, desc, lib, rg, metric in cols:
        h = {"value": value, "markdown": False, "metadata": {"metric": metric, "run_group": rg} if rg else {}}
        if desc is not None:
            h["description"] = desc
        if lib is not None:
            h["lower_is_better"] = lib
        out.append(h)
    return out


TABLE = {
    "title": "Accuracy", "name": "accuracy", "links": [],
    "header": header(("Mean win rate", "How many models this model outperforms on average.", False, None, None),
                     ("LSAT - EM", "LSAT\n\nEM: exact match", False, "LSAT", "EM"),
                     ("bAbI - EM", None, None, "bAbI", "EM")),
    "rows": [
        [{"value": "Pythia (70M)"}, {"value": 0.75}, {"value": 0.6, "description": "min=0.6, mean=0.7, max=0.8, sum=1.4 (2)",
                                                     "run_spec_names": ["lsat_qa:method=joint,model=p", "lsat_qa:method=sep,model=p"]},
         {"value": 0.25, "run_spec_names": ["babi_qa:model=p"], "contamination_level": "strong"}],
        [{"value": "tiny-gpt2"}, {"markdown": False}, {"description": "No matching runs", "markdown": False},
         {"value": 0.0, "run_spec_names": ["babi_qa:model=t"]}],
    ],
}


def test_parse_keeps_helm_titles_columns_and_order():
    (t,) = lb.parse_tables([TABLE], "groups/core_scenarios.json")
    assert (t.group, t.title, t.name, t.first) == ("core_scenarios", "Accuracy", "accuracy", "Model/adapter")
    assert [c.label for c in t.columns] == ["Mean win rate", "LSAT - EM", "bAbI - EM"]
    assert t.columns[1].description == "LSAT\n\nEM: exact match" and t.columns[2].description == ""
    assert [c.lower_is_better for c in t.columns] == [False, False, None]
    assert (t.columns[1].run_group, t.columns[1].metric) == ("LSAT", "EM")
    assert t.models == ["Pythia (70M)", "tiny-gpt2"]


@pytest.mark.parametrize("row, column, value, runs, contamination", [
    (0, "LSAT - EM", 0.6, ("lsat_qa:method=joint,model=p", "lsat_qa:method=sep,model=p"), ""),
    (0, "bAbI - EM", 0.25, ("babi_qa:model=p",), "strong"),
    (1, "LSAT - EM", NAN, (), ""),  # no `value` key: HELM's "No matching runs"
    (1, "Mean win rate", NAN, (), ""),
    (1, "bAbI - EM", 0.0, ("babi_qa:model=t",), ""),  # a zero is a value, not a blank
])
def test_cells(row, column, value, runs, contamination):
    (t,) = lb.parse_tables([TABLE], "groups/core_scenarios.json")
    c = t.cell(row, column)
    assert (math.isnan(c["value"]) and math.isnan(value)) or c["value"] == value
    assert c["run_spec_names"] == runs and c["contamination"] == contamination


def test_wide_is_the_table_as_helm_shows_it():
    (t,) = lb.parse_tables([TABLE], "groups/core_scenarios.json")
    w = t.wide()
    assert w.columns.tolist() == ["Model/adapter", "Mean win rate", "LSAT - EM", "bAbI - EM"]
    assert w["LSAT - EM"].dtype == float and math.isnan(w.loc[1, "LSAT - EM"]) and w.loc[0, "bAbI - EM"] == 0.25


@pytest.mark.parametrize("cols, expected", [
    ((("EM", None, None, "A", "EM"), ("EM", None, None, "B", "EM")), ["EM", "EM (2)"]),
    ((("Model/adapter", None, None, "A", "x"),), ["Model/adapter (2)"]),
])
def test_duplicate_labels_are_made_unique(cols, expected):
    doc = [{"title": "T", "header": header(*cols), "rows": [[{"value": "m"}] + [{"value": 1}] * len(cols)]}]
    (t,) = lb.parse_tables(doc, "groups/x.json")
    assert [c.label for c in t.columns] == expected and t.wide().shape == (1, len(cols) + 1)


def test_text_cells_stay_text():
    doc = [{"title": "T", "header": header(("Note", None, None, "A", "n")), "rows": [[{"value": "m"}, {"value": "see [x]"}],
                                                                                    [{"value": "n"}, {}]]}]
    (t,) = lb.parse_tables(doc, "groups/x.json")
    assert t.wide()["Note"].tolist() == ["see [x]", lb.MISSING]  # as written: the page escapes it


@pytest.mark.parametrize("doc, problem", [
    ({"title": "x"}, "a list of tables"),
    ([[]], "table 1: expected a table object"),
    ([{"title": "T", "header": [], "rows": []}], "the header is empty"),
    ([{"title": "T", "header": header(("A", None, None, "g", "m")), "rows": [[{"value": "m"}]]}], "has 1 cells but the header has 2"),
    ([{"title": "T", "header": header(("A", None, None, "g", "m")), "rows": [[{"value": "m"}, {"value": True}]]}], "expected a number, text or null"),
    ([{"title": "T", "header": header(("A", None, None, "g", "m")), "rows": [[{"value": 3}, {"value": 1}]]}], "the model name as text"),
    ([{"title": "T", "header": header(("A", None, "yes", "g", "m")), "rows": []}], "lower_is_better"),
    ([{"title": "T", "header": header(("A", None, None, "g", "m")), "rows": [[{"value": "m"}, {"value": 1, "run_spec_names": "r"}]]}], "run_spec_names"),
])
def test_bad_tables_name_the_place(doc, problem):
    with pytest.raises(DataError, match=problem.replace("(", r"\(")) as e:
        lb.parse_tables(doc, "groups/x.json")
    assert "groups/x.json" in str(e.value)


@pytest.mark.parametrize("file", ["core_scenarios.json", "gsm.json"])
def test_fixture_files_reproduced_cell_for_cell(file):
    doc = json.loads((FIX / "groups" / file).read_text())
    tables = lb.parse_tables(doc, f"groups/{file}")
    assert [t.title for t in tables] == [t["title"] for t in doc]
    for t, raw in zip(tables, doc):
        w = t.wide()
        assert w.columns.tolist() == [h["value"] for h in raw["header"]]
        for i, row in enumerate(raw["rows"]):
            assert w.iloc[i, 0] == row[0]["value"]
            for j, cell in enumerate(row[1:], start=1):
                got = w.iloc[i, j]
                assert (cell.get("value") is None and math.isnan(got)) or got == cell["value"]


def test_helm_output_keeps_its_tables():
    out = helm_output.read_helm_output(FIX)
    assert out.table_files == ("groups/core_scenarios.json", "groups/gsm.json")
    assert [(t.group, t.title) for t in out.leaderboard()] == [
        ("core_scenarios", "Accuracy"), ("core_scenarios", "Calibration"), ("core_scenarios", "Robustness"),
        ("gsm", "GSM8K")]
    assert out.leaderboard() is out.leaderboard()  # parsed once
    assert helm_output.read_helm_output(FIX / "runs" / "demo").leaderboard() == []


# ----------------------------------------------------------------------------- what a table says first


def _table(cols: list[tuple], rows: list[list]) -> lb.Table:
    """A one-table groups file: cols are (label, lower_is_better), rows are [model, value...] (None: no value)."""
    doc = [{"title": "T", "header": header(*[(c, None, lib, "S", c) for c, lib in cols]),
            "rows": [[{"value": r[0]}] + [{} if v is None else {"value": v} for v in r[1:]] for r in rows]}]
    return lb.parse_tables(doc, "groups/x.json")[0]


@pytest.mark.parametrize("cols, rows, column, aggregate, ranking", [
    # HELM's own aggregate comes first, wherever it stands
    ([("S - EM", False), ("Mean win rate", False)], [["a", 0.9, 0.2], ["b", 0.1, 0.8]], "Mean win rate", True,
     [("b", 1), ("a", 2)]),
    # an aggregate without a value is passed over for the first column with one
    ([("Mean win rate", False), ("S - EM", False)], [["a", None, 0.2], ["b", None, 0.8]], "S - EM", False,
     [("b", 1), ("a", 2)]),
    # lower is better: the lowest first
    ([("S - time (s)", True)], [["a", 0.5], ["b", 0.1], ["c", 0.3]], "S - time (s)", False,
     [("b", 1), ("c", 2), ("a", 3)]),
    # no direction given: the highest first
    ([("S - # eval", None)], [["a", 5.0], ["b", 7.0]], "S - # eval", False, [("b", 1), ("a", 2)]),
    # ties share the better rank and keep HELM's row order; a model without a value is left out
    ([("Mean score", False)], [["a", 0.5], ["b", None], ["c", 0.7], ["d", 0.7]], "Mean score", True,
     [("c", 1), ("d", 1), ("a", 3)]),
    # no number at all
    ([("S - EM", False)], [["a", None]], None, False, []),
])
def test_headline(cols, rows, column, aggregate, ranking):
    h = lb.headline(_table(cols, rows))
    assert (h.column, h.aggregate) == (column, aggregate)
    assert list(zip(h.ranking["model"], h.ranking["rank"])) == ranking
    assert h.top == [m for m, r in ranking if r == 1]
    assert (h.n_models, h.n_columns) == (len(rows), len(cols))


@pytest.mark.parametrize("name", ["classic", "lite", "capabilities"])
def test_headline_of_a_rebuilt_table_is_helms_published_ranking(name):
    """On every bundled release, the first table's headline is HELM's published ranking of its group."""
    from helm_core import aggregate

    rel = data.load_bundled(name)
    t = lb.rebuilt_tables(rel)[0]
    h = lb.headline(t)
    pub = aggregate.published_ranking(rel, t.name)
    assert h.aggregate and h.column in (lb.PUBLISHED_WIN_RATE, lb.PUBLISHED_SCORE)
    assert h.top == pub.loc[pub["rank"] == 1, "model"].tolist()
    assert h.ranking["value"].tolist() == pytest.approx(pub["value"].tolist())


# ----------------------------------------------------------------------------- rebuilt from tidy data


def test_rebuilt_tables_of_classic():
    rel = data.load_bundled("classic")
    tables = lb.rebuilt_tables(rel, ["GPT-J (6B)", "BLOOM (176B)"])
    assert all(t.rebuilt and not any(t.cells["run_spec_names"].map(len)) for t in tables)
    acc = next(t for t in tables if t.name == "accuracy")
    assert acc.title == "Accuracy" and sorted(acc.models) == ["BLOOM (176B)", "GPT-J (6B)"]
    w = acc.wide().set_index("Model")
    res = rel.results
    want = res[(res["model"] == "GPT-J (6B)") & (res["scenario"] == "MMLU") & (res["metric_group"] == "accuracy")]
    label = f"MMLU - {want['metric'].iloc[0]}"
    assert w.loc["GPT-J (6B)", label] == want["value"].iloc[0]
    assert list(w.columns)[:2] == [lb.PUBLISHED_WIN_RATE, label]  # HELM's published win rate, then scenario order
    pub = rel.published_win_rates.set_index(["model", "metric_group"])["win_rate"]
    assert w.loc["BLOOM (176B)", lb.PUBLISHED_WIN_RATE] == pub[("BLOOM (176B)", "accuracy")]


@pytest.mark.parametrize("name, label", [("classic", lb.PUBLISHED_WIN_RATE), ("lite", lb.PUBLISHED_WIN_RATE),
                                         ("capabilities", lb.PUBLISHED_SCORE)])
def test_rebuilt_tables_carry_the_aggregate_helm_published(name, label):
    """Classic and Lite publish mean win rates, Capabilities a mean score (and no win rates): each rebuilt table
    of a group HELM published an aggregate for starts with it, HELM's value for every model shown."""
    rel = data.load_bundled(name)
    pub = (rel.published_win_rates.rename(columns={"win_rate": "v"}) if label == lb.PUBLISHED_WIN_RATE
           else rel.published_scores.rename(columns={"score": "v"}))
    published = pub.set_index(["model", "metric_group"])["v"]
    for t in lb.rebuilt_tables(rel):
        if t.name not in set(pub["metric_group"]):
            assert all(c.label not in lb.AGGREGATES for c in t.columns)
            continue
        assert t.columns[0].label == label and t.columns[0].lower_is_better is not None
        w = t.wide().set_index("Model")[label].dropna()
        assert len(w) and all(w[m] == published[(m, t.name)] for m in w.index)


@pytest.mark.parametrize("group, lower", [("accuracy", False), ("efficiency", True)])
def test_a_published_mean_score_follows_its_columns_direction(group, lower):
    """Capabilities' mean score of observed inference times is lower-is-better, as its columns are."""
    t = next(t for t in lb.rebuilt_tables(data.load_bundled("capabilities")) if t.name == group)
    assert t.columns[0].label == lb.PUBLISHED_SCORE and t.columns[0].lower_is_better is lower


def test_rebuilt_tables_skip_groups_without_values():
    res = pd.DataFrame({"model": ["m", "m"], "scenario": ["S", "S"], "metric_group": ["accuracy", "calibration"],
                        "metric": ["EM", "ECE"], "value": [0.5, float("nan")], "lower_is_better": [False, True],
                        "n_runs": [1.0, 1.0], "run_min": [0.5, float("nan")], "run_max": [0.5, float("nan")], "note": ["", ""]})
    rel = data.load_bundled("classic")
    fake = data.Release(results=res, models=rel.models, taxonomy=rel.taxonomy, meta=rel.meta,
                        published_win_rates=rel.published_win_rates, paper_models=rel.paper_models)
    tables = lb.rebuilt_tables(fake)
    assert [t.name for t in tables] == ["accuracy"] and tables[0].wide().columns.tolist() == ["Model", "S - EM"]


# ----------------------------------------------------------------------------- the runs behind a cell

RUNS = pd.DataFrame({"run": ["lsat_qa:method=joint,model=p", "lsat_qa:method=sep,model=p", "babi_qa:model=p", "s/babi_qa:model=t"],
                     "run_name": ["lsat_qa:method=joint,model=p", "lsat_qa:method=sep,model=p", "babi_qa:model=p", "babi_qa:model=t"],
                     "model": ["Pythia", "Pythia", "Pythia", "tiny"], "scenario": ["LSAT", "LSAT", "bAbI", "bAbI"]})


@pytest.mark.parametrize("names, expected", [
    (("lsat_qa:method=sep,model=p", "lsat_qa:method=joint,model=p"),
     {"runs_model": "Pythia", "runs_scenario": "LSAT", "run": "lsat_qa:method=sep,model=p"}),
    (("babi_qa:model=t",), {"runs_model": "tiny", "runs_scenario": "bAbI", "run": "s/babi_qa:model=t"}),  # by run name
    (("babi_qa:model=p", "babi_qa:model=t"), {"runs_scenario": "bAbI", "run": "babi_qa:model=p"}),  # two models
    (("fixture",), None),  # not a loaded run
    ((), None),
])
def test_runs_link(names, expected):
    assert lb.runs_link(RUNS, names) == expected


def test_cell_runs_in_helm_order():
    assert lb.cell_runs(RUNS, ["babi_qa:model=p", "lsat_qa:method=joint,model=p"])["run"].tolist() == [
        "babi_qa:model=p", "lsat_qa:method=joint,model=p"]


@pytest.mark.parametrize("desc, lib, expected", [
    ("EM: exact match", False, "EM: exact match\n\nHigher is better."),
    ("", True, "Lower is better."),
    ("Runs", None, "Runs"),
    ("", None, ""),
])
def test_column_help(desc, lib, expected):
    assert lb.column_help(lb.Column("c", desc, lib, "", "", "")) == expected


def test_an_uploaded_zip_keeps_its_tables():
    import io
    import zipfile

    suite = FIX.parent / "helm_output_0516" / "runs" / "my-suite"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for p in sorted(suite.rglob("*")):
            if p.is_file():
                z.write(p, "my-suite/" + p.relative_to(suite).as_posix())
    out = helm_output.read_helm_upload(buf.getvalue(), "my-suite.zip")
    assert [f.rpartition("/")[2] for f in out.table_files] == [
        "core_scenarios.json", "babi_qa.json", "legal_support.json", "lsat_qa.json", "sst.json"]  # not groups/json/
    core = [t for t in out.leaderboard() if t.group == "core_scenarios"]
    assert [t.title for t in core] == ["Accuracy", "Efficiency", "General information", "Calibration"]
    lsat = core[0].cell(1, "LSAT - EM")
    assert lsat["value"] == 0.7 and len(lsat["run_spec_names"]) == 2
    assert lb.runs_link(out.runs, lsat["run_spec_names"])["runs_scenario"] == "LSAT"
