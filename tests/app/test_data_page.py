"""The data page: upload a zip (AppTest's file uploader), see the summary, switch datasets; a broken upload
gives a message and the previous dataset stays."""
from __future__ import annotations

import io
import warnings
import zipfile
from pathlib import Path

import pytest

from helm_core import escape, fmt, helm_output, summary, validity
from tests import hostile_names as H
from ui import cache, datasets

from .helpers import assert_clean, open_page, section_labels, tables, texts

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output"
SUITE = FIX / "runs" / "demo"


def zip_folder(folder: Path, prefix: str = "demo/") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(folder.rglob("*")):
            if p.is_file():
                z.write(p, prefix + p.relative_to(folder).as_posix())
    return buf.getvalue()


SUITE_ZIP = zip_folder(SUITE)
GROUPS_ZIP = zip_folder(FIX / "groups", prefix="groups/")


def plain(at) -> str:
    """The page's Markdown as it reads on screen (escapes resolved, bold marks dropped)."""
    return escape.unmarkdown(texts(at).replace("**", ""))


def errors(at) -> list[str]:
    return [escape.unmarkdown(e.value) for e in at.error]


def metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def active_key(at) -> str:
    return at.session_state["dataset_key"] if "dataset_key" in at.session_state else cache.BUNDLED_KEY


def upload(at, name: str, data: bytes):
    at.file_uploader(key="data_upload").set_value((name, data, "application/zip")).run()
    assert_clean(at)
    return at


def test_without_upload_the_page_explains_and_shows_no_dataset_choice():
    at = open_page("app_pages/data.py")
    t = texts(at)
    assert "Now showing: HELM classic v0.4.0 (bundled)" in t
    assert "run_spec.json" in "\n".join(c.value for c in at.code)
    assert not [r for r in at.sidebar.radio if r.label == "Dataset"]


def test_valid_zip_gives_a_summary_and_switches_every_page():
    at = upload(open_page("app_pages/data.py", query={"cohort": "all"}), "demo.zip", SUITE_ZIP)
    m = metrics(at)
    assert (m["Models"], m["Scenarios"], m["Runs"], m["Instances"]) == ("3", "3", "3", "8")
    t = plain(at)
    assert "Loaded demo.zip" in t and "Missing 14 of the 16 core scenarios" in t
    assert "Other scenarios, kept as extra columns: GSM8K" in t
    assert "Bias, Toxicity, Efficiency" in t
    assert at.session_state["dataset_key"].startswith("upload-")
    at.switch_page("app_pages/plumbing.py").run()
    assert_clean(at)
    assert metrics(at)["Models"] == "3"
    assert "Your HELM output (demo.zip)" in texts(at)


def test_broken_zip_gives_a_message_and_keeps_the_bundled_release():
    at = upload(open_page("app_pages/data.py", query={"cohort": "all"}), "broken.zip", bytes(range(256)) * 4)
    assert any("not a readable zip archive" in e for e in errors(at))
    assert any("keeps showing HELM classic v0.4.0" in e for e in errors(at))
    assert active_key(at) == cache.BUNDLED_KEY
    at.switch_page("app_pages/plumbing.py").run()
    assert metrics(at)["Models"] == "67"


def test_broken_zip_after_a_good_one_keeps_the_good_one():
    at = upload(open_page("app_pages/data.py", query={"cohort": "all"}), "demo.zip", SUITE_ZIP)
    good = at.session_state["dataset_key"]
    at = upload(at, "traversal.zip", _zip([("../../evil/stats.json", b"[]")]))
    assert any("points outside the archive" in e for e in errors(at))
    assert at.session_state["dataset_key"] == good
    assert metrics(at)["Models"] == "3"
    at.switch_page("app_pages/plumbing.py").run()
    assert metrics(at)["Models"] == "3"


def _zip(members):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zipfile warns on a name written twice (the "twice" case)
        for name, data in members:
            z.writestr(name, data)
    return buf.getvalue()


@pytest.mark.parametrize("name, data, message", [
    ("empty.zip", b"", "file is empty"),
    ("notes.txt", b"hello", "expected a .zip archive of HELM output or a groups .json file"),
    ("broken.json", b"[{", "malformed JSON"),
    ("bad_json.zip", _zip([("demo/x/run_spec.json", b"{not json"), ("demo/x/stats.json", b"[]")]), "malformed JSON"),
    ("missing.zip", _zip([("demo/x/run_spec.json", b"{}")]), "stats.json: file is missing"),
    ("nothing.zip", _zip([("readme.txt", b"hi")]), "no HELM output found"),
    ("twice.zip", _zip([("demo/x/run_spec.json", b"{}"), ("demo/x/stats.json", b"[]"), ("demo/x/stats.json", b"[1]")]),
     "'demo/x/stats.json' is stored twice in the archive"),
])
def test_each_bad_upload_has_its_message(name, data, message):
    at = upload(open_page("app_pages/data.py"), name, data)
    assert any(message in e for e in errors(at)), errors(at)
    assert metrics(at) == {}  # no summary of a dataset that did not load


def test_upload_over_the_limit(monkeypatch):
    monkeypatch.setattr(datasets, "UPLOAD_LIMIT_BYTES", 1000)
    at = upload(open_page("app_pages/data.py"), "demo.zip", SUITE_ZIP)
    assert any("over the upload limit" in e for e in errors(at))
    assert active_key(at) == cache.BUNDLED_KEY


def test_back_to_bundled_and_forget():
    at = upload(open_page("app_pages/data.py"), "demo.zip", SUITE_ZIP)
    key = at.session_state["dataset_key"]
    at.button(key="data_back").click().run()
    assert_clean(at)
    assert active_key(at) == cache.BUNDLED_KEY
    assert "Now showing: HELM classic v0.4.0 (bundled)" in texts(at)
    # The loaded dataset stays in the session, one click away, until forgotten.
    at.button(key=f"data_use_{key}").click().run()
    assert active_key(at) == key and metrics(at)["Models"] == "3"
    at.button(key="data_forget").click().run()
    assert_clean(at)
    assert active_key(at) == cache.BUNDLED_KEY
    assert not at.session_state["_releases"]
    assert not [b for b in at.button if b.key == f"data_use_{key}"]


def _home_with_loaded_dataset(query=None):
    """Home.py with a dataset already in the session. AppTest (1.67, with st.navigation) shows the sidebar
    only on an app's first run, so the sidebar's dataset choice is checked on a first run of Home.py."""
    from streamlit.testing.v1 import AppTest

    from helm_core import helm_output

    from .helpers import ROOT, TIMEOUT

    out = helm_output.read_helm_zip(SUITE_ZIP, "demo.zip")
    key = datasets.content_key("upload", SUITE_ZIP)
    at = AppTest.from_file(str(ROOT / "Home.py"), default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.session_state["_releases"] = {key: out.release}
    at.session_state["_helm_outputs"] = {key: out}
    at.session_state["dataset_key"] = key
    at.run()
    assert_clean(at)
    return at, key


def test_sidebar_dataset_choice_only_once_something_is_loaded():
    assert not [r for r in open_page(query={"cohort": "all"}).sidebar.radio if r.label == "Dataset"]
    at, key = _home_with_loaded_dataset({"cohort": "all"})
    choice = [r for r in at.sidebar.radio if r.label == "Dataset"]
    assert choice and choice[0].options == ["HELM classic v0.4.0 (bundled)", "Your HELM output (demo.zip)"]
    assert choice[0].value == "Your HELM output (demo.zip)"
    assert metrics(at)["Models"] == "3"
    assert "Your HELM output (demo.zip)" in " ".join(c.value for c in at.sidebar.caption)


def test_sidebar_choice_switches_every_page():
    at, key = _home_with_loaded_dataset({"cohort": "all"})
    choice = [r for r in at.sidebar.radio if r.label == "Dataset"][0]
    choice.set_value(datasets.BUNDLED_LABEL).run()
    assert_clean(at)
    assert active_key(at) == cache.BUNDLED_KEY and metrics(at)["Models"] == "67"
    # (AppTest renders the sidebar on the first run only, so switch back with the radio element we hold.)
    choice.set_value("Your HELM output (demo.zip)").run()
    assert_clean(at)
    assert active_key(at) == key and metrics(at)["Models"] == "3"
    at.switch_page("app_pages/data.py").run()
    assert "Now showing: Your HELM output (demo.zip)" in texts(at)


def test_single_groups_json_upload():
    data = (FIX / "groups" / "core_scenarios.json").read_bytes()
    at = upload(open_page("app_pages/data.py"), "core_scenarios.json", data)
    m = metrics(at)
    assert (m["Models"], m["Scenarios"], m["Runs"]) == ("3", "3", "0")


def test_groups_zip_summary():
    at = upload(open_page("app_pages/data.py"), "tables.zip", GROUPS_ZIP)
    m = metrics(at)
    assert (m["Models"], m["Runs"], m["Instances"]) == ("3", "0", "0")
    assert "HELM's leaderboard tables" in plain(at)


def test_uploads_are_private_to_the_session():
    a = upload(open_page("app_pages/data.py", query={"cohort": "all"}), "demo.zip", SUITE_ZIP)
    b = open_page("app_pages/data.py", query={"cohort": "all"})
    assert a.session_state["dataset_key"].startswith("upload-")
    assert not [r for r in b.sidebar.radio if r.label == "Dataset"]
    assert "Now showing: HELM classic v0.4.0 (bundled)" in texts(b)
    b.switch_page("app_pages/plumbing.py").run()
    assert metrics(b)["Models"] == "67"


def test_access_filter_with_an_upload():
    at = upload(open_page("app_pages/data.py", query={"cohort": "all", "access": "open"}), "demo.zip", SUITE_ZIP)
    at.switch_page("app_pages/plumbing.py").run()
    # GPT-J and Pythia are open; the local model's access is unknown, so an access filter leaves it out.
    assert metrics(at)["Models"] == "2"


def test_server_path_only_when_local(monkeypatch, tmp_path):
    at = open_page("app_pages/data.py")
    assert not at.text_input  # not offered on a deployed app
    monkeypatch.setenv("HELM_EXPLORER_LOCAL", "1")
    at = open_page("app_pages/data.py")
    at.text_input(key="data_path").set_value(str(tmp_path / "nope"))
    submit = [b for b in at.button if b.label == "Load from path"][0]
    submit.click().run()
    assert any("no such file or folder" in e for e in errors(at))
    at.text_input(key="data_path").set_value(str(SUITE))
    submit = [b for b in at.button if b.label == "Load from path"][0]
    submit.click().run()
    assert_clean(at)
    assert at.session_state["dataset_key"].startswith("path-")
    assert metrics(at)["Runs"] == "3"


def test_configured_path_is_the_default(monkeypatch):
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE))
    at = open_page(query={"cohort": "all"})
    assert metrics(at)["Models"] == "3"
    assert at.session_state["dataset_key"].startswith("path-")
    at.switch_page("app_pages/data.py").run()
    assert str(SUITE) in "\n".join(c.value for c in at.code)


def test_bad_configured_path_is_reported_in_the_sidebar(monkeypatch, tmp_path):
    monkeypatch.setenv("HELM_OUTPUT", str(tmp_path / "missing"))
    at = open_page(query={"cohort": "all"})
    assert any("Could not load the HELM output given at start-up" in escape.unmarkdown(e.value) for e in at.sidebar.error)
    assert metrics(at)["Models"] == "67"


def test_forgetting_the_configured_dataset_sticks(monkeypatch):
    monkeypatch.setenv("HELM_OUTPUT", str(SUITE))
    at = open_page("app_pages/data.py")
    assert active_key(at).startswith("path-")
    at.button(key="data_forget").click().run()
    assert_clean(at)
    at.run()
    assert active_key(at) == cache.BUNDLED_KEY and not at.session_state["_releases"]


@pytest.mark.parametrize("argv, env, expected", [
    (["Home.py", "--helm-output", "/data/suite"], None, "/data/suite"),
    (["Home.py", "--helm-output=/data/x.zip"], None, "/data/x.zip"),
    (["Home.py"], "/env/suite", "/env/suite"),
    (["Home.py", "--helm-output", "/cli"], "/env", "/cli"),  # the command line wins
    (["Home.py", "--other"], None, None),
])
def test_configured_output_path(monkeypatch, argv, env, expected):
    monkeypatch.setattr("sys.argv", argv)
    if env is None:
        monkeypatch.delenv("HELM_OUTPUT", raising=False)
    else:
        monkeypatch.setenv("HELM_OUTPUT", env)
    assert datasets.configured_output_path() == expected
    assert datasets.server_paths_allowed() == (expected is not None)


# ----------------------------------------------------------------------------- what was loaded, and left out

SUITE_0516 = Path(__file__).resolve().parents[1] / "fixtures" / "helm_output_0516"
MY = "runs/my-suite"
JOINT = "lsat_qa:task=all,method=multiple_choice_joint,model=eleutherai_pythia-70m"


@pytest.fixture
def left_out_suite(tmp_path) -> Path:
    """The 0516 suite with an EM of Infinity in one run's stats.json and that run copied to a second folder."""
    import json
    import math
    import shutil

    root = tmp_path / "out"
    shutil.copytree(SUITE_0516, root)
    stats = root / MY / JOINT / "stats.json"
    doc = json.loads(stats.read_text())
    for s in doc:
        if s["name"]["name"] == "exact_match" and not s["name"].get("perturbation"):
            s.update(mean=math.inf, sum=math.inf, max=math.inf)
    stats.write_text(json.dumps(doc))
    shutil.copytree(root / MY / JOINT, root / MY / (JOINT + " copy"))
    return root


def test_values_and_run_folders_left_out_are_listed_in_full(monkeypatch, left_out_suite):
    """The page names what the loader left out: the values HELM could not have produced (a sentence, and the full
    table in an expander, by name, values as text) and the run folder that repeats a run (its sentence and table)."""
    monkeypatch.setenv("HELM_OUTPUT", str(left_out_suite))
    at = open_page("app_pages/data.py", query={"cohort": "all"})
    rel = helm_output.read_helm_output(left_out_suite).release
    rejected = validity.rejected(rel)
    dups = rel.meta["duplicates"]
    assert len(rejected) >= 1 and len(dups) == 1
    t = plain(at)
    assert validity.rejected_sentence(rejected) in t
    assert helm_output.duplicate_sentence(dups[0]) in t and "2 run folders" in t
    assert t.count(helm_output.duplicate_sentence(dups[0])) == 1  # told once, not again among the notes
    assert f"({fmt.count(len(rejected), 'value')} left out, 1 duplicate run folder)." in t
    assert [e.label for e in at.expander if e.label.startswith(("Values left out", "Run folders left out"))] == [
        f"Values left out ({len(rejected)})", "Run folders left out (1)"]
    shown = {tuple(d.value.columns): d.value for d in at.dataframe}
    table = shown[tuple(validity.REJECTED_COLUMNS)]
    assert table["metric"].tolist() == rejected["metric"].tolist() and "Infinity" in table["value"].tolist()
    assert table["value"].map(type).eq(str).all()  # as text: no bare inf in a number column
    assert shown[tuple(helm_output.DUPLICATE_COLUMNS)].to_dict("records") == helm_output.duplicates_table(
        dups).to_dict("records")


def test_the_dataset_scenario_by_scenario():
    """The slide's table: every scenario of the loaded dataset with its models with a value and its runs."""
    at = upload(open_page("app_pages/data.py", query={"cohort": "all"}), "demo.zip", SUITE_ZIP)
    out = helm_output.read_helm_zip(SUITE_ZIP, "demo.zip")
    want = summary.scenario_table(out.release, out.runs)
    got = next(d for d in tables(at) if "models with a value" in d.columns)
    assert got["scenario"].tolist() == want["scenario"].tolist()
    assert got["runs"].tolist() == want["runs"].tolist() and got["runs"].sum() == 3


def test_the_bundled_release_scenario_by_scenario():
    at = open_page("app_pages/data.py")
    got = next(d for d in tables(at) if "models with a value" in d.columns)
    assert len(got) == 16 and "runs" not in got.columns and "kind" not in got.columns
    assert "Now showing: HELM classic v0.4.0 (bundled), 67 models on 16 scenarios." in plain(at)


@pytest.mark.parametrize("name, data", [("hostile.zip", H.groups_zip()), ("core_scenarios.json", H.groups_json())])
def test_hostile_names_and_values_in_an_upload(name, data):
    """An upload whose model, scenario, metric and table names are full of `_ * [ ] < > & | $ ~`, with a table HELM
    titled "", an Infinity cell and a NaN cell: it loads, every name reads as the loader holds it (no entity, no
    stray backslash), and the Infinity is named as left out."""
    at = upload(open_page("app_pages/data.py", query={"cohort": "all"}), name, data)
    assert active_key(at).startswith("upload-")
    body = texts(at)
    assert not [e for e in H.ENTITIES if e in body]
    t = plain(at)
    assert "\\" not in t
    scenario = H.SCENARIO  # as written in the file: no look-alike characters
    assert next(d for d in tables(at) if "models with a value" in d.columns)["scenario"].tolist() == [scenario]
    assert "1 value HELM could not have produced was left out" in t and "= Infinity" in t
    models = next(d.value for d in at.dataframe if "helm_id" in d.value.columns)
    assert set(models["model"]) == {H.MODEL, H.OTHER}
    at.switch_page("app_pages/leaderboard.py").run()
    assert_clean(at)
    assert [escape.unmarkdown(x) for x in section_labels(at)] == [H.TITLE, scenario]


def test_presenter_mode_on_the_data_page():
    """Off the route, but a presenter who opens it still gets its point and table."""
    at = open_page("app_pages/data.py", query={"present": "1"})
    assert "Now showing: HELM classic v0.4.0 (bundled)" in plain(at)
    assert next(d for d in tables(at) if "models with a value" in d.columns) is not None
