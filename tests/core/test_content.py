"""The critique pages' content files (data/limits.toml, studies.toml, threads.toml, references.toml):
required fields, counts against the paper's claims, deep links to registered pages, and clear errors for bad files."""
from __future__ import annotations

import re
import textwrap

import pytest

from helm_core import claims, critique, references, studies
from helm_core.content import DataError
from helm_core.critique import Link
from ui import nav

CLAIMS = claims.load_claims()
STEPS = critique.load_steps()
STUDIES = studies.load_studies()
THREADS = critique.load_threads()
REFS = references.load_references()
URL_PATHS = {p.url_path for p in nav.PAGES}
ALL_LINKS = [(f"step:{s.id}", link) for s in STEPS for link in s.links] + \
            [(f"thread:{t.id}", link) for t in THREADS for link in t.links]


# ----------------------------------------------------------------------------- limits.toml


def test_at_least_eight_steps_in_the_issue_order():
    assert len(STEPS) >= 8
    assert [s.id for s in STEPS][:2] == ["adds", "blanks"]
    evidence = [s.evidence for s in STEPS]
    for kind in ("dense", "blank_cells", "model_set", "seed_spread", "contamination", "moving_target"):
        assert kind in evidence, kind


@pytest.mark.parametrize("step", STEPS, ids=[s.id for s in STEPS])
def test_every_step_has_text_and_evidence(step):
    assert step.title.strip() and len(step.text.split()) >= 20
    assert step.evidence in critique.EVIDENCE_KINDS
    if step.evidence == "claims":
        assert step.claims, "a claims-only step needs at least one claim badge"
    for cid in step.claims:
        assert cid in CLAIMS, cid


@pytest.mark.parametrize("step_id,expected", [
    ("missing", {"missing_scenarios", "missing_metrics", "missing_models", "missing_adaptation"}),
    ("moving", {"api_drift", "robustness_tracks_accuracy"}),
    ("who", {"goodhart", "lite_successor"}),
    ("contamination", {"contamination_unknown"}),
])
def test_steps_carry_the_claims_the_issue_names(step_id, expected):
    step = next(s for s in STEPS if s.id == step_id)
    assert expected <= set(step.claims)


def test_the_successor_step_draws_the_releases_metric_groups():
    step = next(s for s in STEPS if s.id == "who")
    assert step.evidence == "release_groups" and step.evidence in critique.EVIDENCE_KINDS


@pytest.mark.parametrize("ids,heads,first_words", [
    (("missing_scenarios", "missing_metrics"), ["Missing scenarios", "Missing metrics"], ["Clinical/biomedical,", "User"]),
    (("goodhart",), ["Strathern's/Goodhart's law applies"], ["Benchmarks"]),
    (("api_drift",), [""], ["The"]),  # no lead before a colon: no head
    (("study_gsm8k",), [""], ["Code"]),  # a lead longer than 40 characters is no head
    ((), [], []),
])
def test_claims_table(ids, heads, first_words):
    df = claims.claims_table(CLAIMS, ids)
    assert list(df["claim"]) == list(ids) and list(df["head"]) == heads
    assert [s.split(" ", 1)[0].rstrip(":") for s in df["statement"]] == first_words
    assert list(df["confidence"]) == [CLAIMS[c].confidence for c in ids]
    for cid, head, statement in zip(ids, df["head"], df["statement"]):  # nothing of the statement is lost
        assert (f"{head}: {statement}" if head else statement).lower() == CLAIMS[cid].statement.lower()


def test_claims_table_names_an_unknown_claim():
    with pytest.raises(DataError, match="no_such_claim"):
        claims.claims_table(CLAIMS, ("no_such_claim",))


@pytest.mark.parametrize("thread", THREADS, ids=[t.id for t in THREADS])
def test_every_thread_names_its_number_and_the_view_that_shows_it(thread):
    from helm_core.threads import NUMBER_KINDS

    assert thread.number in NUMBER_KINDS
    assert thread.number_link is not None and thread.number_link.target == thread.number_view


def test_blank_cells_step_links_to_the_grid():
    step = next(s for s in STEPS if s.evidence == "blank_cells")
    assert "grid" in {link.page for link in step.links}


# ----------------------------------------------------------------------------- studies.toml

SEVEN = {"Language", "Knowledge", "Reasoning", "Memorization & copyright", "Disinformation", "Bias", "Toxicity"}


def test_seven_evaluations_and_26_scenarios_match_the_abstract():
    n_eval, n_scen = CLAIMS["headline_targeted"].values
    assert {s.name for s in STUDIES.evaluations} == SEVEN
    assert len(STUDIES.evaluations) == n_eval
    assert sum(len(s.new_scenarios) for s in STUDIES.studies) == n_scen
    # the 26 include synthetic efficiency, which is grouped with them but is not one of the seven
    grouped = [s for s in STUDIES.studies if s.kind == "grouped"]
    assert [x.name for s in grouped for x in s.scenarios] == ["Synthetic efficiency"]


@pytest.mark.parametrize("study", STUDIES.studies, ids=[s.id for s in STUDIES.studies])
def test_every_study_has_scenarios_metrics_and_a_finding(study):
    assert study.scenarios and study.metrics and study.finding.strip() and study.summary.strip()
    assert all(s.name.strip() and s.metric.strip() for s in study.scenarios)
    assert study.claim in CLAIMS
    assert all(c in CLAIMS for c in study.more_claims)


def test_reused_core_scenarios_are_core_scenarios(release):
    reused = {s.name for st in STUDIES.studies for s in st.reused_scenarios}
    assert reused == {"NaturalQuestions (closed-book)", "HellaSwag", "OpenbookQA", "TruthfulQA", "MMLU"}
    assert reused <= set(release.taxonomy.scenario_names)


@pytest.mark.parametrize("claim_id,n_labels", [("study_gsm8k", 3), ("study_twitteraae", 2),
                                               ("study_civilcomments_split", 4), ("mc_opt_hellaswag", 2)])
def test_numeric_findings_label_every_claim_value(claim_id, n_labels):
    f = next(f for f in STUDIES.numeric_findings if f.claim == claim_id)
    assert len(f.labels) == n_labels == len(CLAIMS[claim_id].values)


def test_numeric_findings_frame_takes_values_from_the_claims():
    df = studies.numeric_findings_frame(STUDIES, CLAIMS)
    assert len(df) == sum(len(f.labels) for f in STUDIES.numeric_findings)
    gsm = df[df["claim"] == "study_gsm8k"].set_index("label")["value"]
    assert gsm["code-davinci-002"] == 52.1 and gsm["text-davinci-002"] == 35.0
    assert set(df["confidence"]) <= set(claims.CONFIDENCE_LEVELS)


def test_numeric_findings_frame_rejects_a_label_mismatch():
    bad = studies.Studies(studies=STUDIES.studies, why_narrow="x", numeric_findings=(
        studies.NumericFinding(claim="study_gsm8k", title="t", labels=("only one",), unit="%"),))
    with pytest.raises(DataError, match="1 labels for 3 values"):
        studies.numeric_findings_frame(bad, CLAIMS)


def test_studies_table_counts():
    t = studies.studies_table(STUDIES, CLAIMS)
    assert len(t) == len(STUDIES.studies)
    assert t["new_scenarios"].sum() == 26
    assert t.set_index("id").loc["knowledge", "reused_core"] == 5


# ----------------------------------------------------------------------------- threads.toml


def test_four_threads():
    assert [t.title for t in THREADS] == ["Reasoning robustness", "Context instability", "Safety classification",
                                          "Serving trade-offs"]


@pytest.mark.parametrize("thread", THREADS, ids=[t.id for t in THREADS])
def test_every_thread_has_shows_links_and_references(thread):
    assert len(thread.shows.split()) >= 20
    assert thread.links and thread.references and thread.claims
    assert any(link.query for link in thread.links), "each thread needs a deep link that carries state"
    for rid in thread.references:
        REFS.by_id(rid)
    for cid in thread.claims:
        assert cid in CLAIMS
    # no invented episodes: every episode listed must have a real https URL and a title
    assert all(e.title and e.url.startswith("https://") for e in thread.episodes)


# ----------------------------------------------------------------------------- deep links


@pytest.mark.parametrize("where,link", ALL_LINKS, ids=[f"{w}->{l.target}" for w, l in ALL_LINKS])
def test_every_deep_link_points_at_a_registered_page(where, link):
    assert link.page in URL_PATHS, f"{where}: {link.target!r} is not a page in ui/nav.py"


def test_content_has_no_dangling_references():
    assert critique.content_problems(CLAIMS, STEPS, STUDIES, THREADS, REFS, URL_PATHS) == []


def test_scenario_state_in_links_names_real_scenarios(release):
    for _, link in ALL_LINKS:
        for k, v in link.query_items:
            if k == "scenario":
                assert v in release.taxonomy.scenario_names, link.target


@pytest.mark.parametrize("target,page,query,href", [
    ("grid", "grid", {}, "/grid"),
    ("", "", {}, "/"),
    ("limits?step=5", "limits", {"step": "5"}, "/limits?step=5"),
    ("sensitivity?scenario=NaturalQuestions (open-book)", "sensitivity",
     {"scenario": "NaturalQuestions (open-book)"}, "/sensitivity?scenario=NaturalQuestions+%28open-book%29"),
    ("references?topic=a&topic=b", "references", {"topic": "a"}, "/references?topic=a&topic=b"),
])
def test_link_parsing(target, page, query, href):
    link = Link("x", target)
    assert (link.page, link.query, link.href) == (page, query, href)


@pytest.mark.parametrize("target,problem", [
    ("nowhere", "no page with url path 'nowhere'"),
    ("limits?step=99", "not a valid step"),
    ("limits?stp=2", "no link parameter 'stp'"),
    ("studies?study=cooking", "not a valid study"),
    ("references?topic=helm&topic=astrology", "not a valid topic"),
])
def test_content_problems_catch_bad_links(target, problem):
    steps = STEPS[:-1] + (critique.Step(id="x", title="t", text="x", evidence="claims", claims=("goodhart",),
                                       links=(Link("bad", target),)),)
    problems = critique.content_problems(CLAIMS, steps, STUDIES, THREADS, REFS, URL_PATHS)
    assert len(problems) == 1 and problem in problems[0]


def test_content_problems_catch_unknown_claims_and_references():
    t = THREADS[0]
    bad = (critique.Thread(id=t.id, title=t.title, shows=t.shows, claims=("no_such_claim",), links=t.links,
                          references=("no_such_ref",)),)
    problems = critique.content_problems(CLAIMS, STEPS, STUDIES, bad, REFS, URL_PATHS)
    assert any("no_such_claim" in p for p in problems) and any("no_such_ref" in p for p in problems)


# ----------------------------------------------------------------------------- references.toml

REQUIRED_WORKS = {
    "Holistic Evaluation of Language Models": ("2211.09110", ""),
    "HELM Lite v1.0.0": ("", ""),
    "Beyond the Imitation Game (BIG-bench)": ("2206.04615", ""),
    "The Benchmark Lottery": ("2107.07002", ""),
    "AI and the Everything in the Whole Wide World Benchmark": ("2111.15366", ""),
    "Utility is in the Eye of the User: A Critique of NLP Leaderboards": ("", "2020.emnlp-main.393"),
    "Dynabench: Rethinking Benchmarking in NLP": ("", "2021.naacl-main.324"),
    "The GEM Benchmark: Natural Language Generation, its Evaluation and Metrics": ("2102.01672", "2021.gem-1.10"),
    "A framework for few-shot language model evaluation": ("", ""),
    "Cheaply Estimating Inference Efficiency Metrics for Autoregressive Transformer Models": ("", ""),
}


@pytest.mark.parametrize("title,ids", REQUIRED_WORKS.items(), ids=list(REQUIRED_WORKS))
def test_the_source_trail_holds_each_work_with_its_ids(title, ids):
    r = next(r for r in REFS.references if r.title == title)
    assert (r.arxiv, r.acl_anthology) == ids
    assert r.authors and r.year and r.venue and r.source


def test_helm_paper_details():
    r = REFS.by_id("liang2023helm")
    assert r.openreview == "iO4LZibEqW" and r.issn == "2835-8856" and r.year == "2023"
    assert r.url == "https://arxiv.org/abs/2211.09110"


@pytest.mark.parametrize("repo,licence", [("stanford-crfm/helm", "Apache-2.0"), ("evaleval/every_eval_ever", "MIT"),
                                          ("socialfoundations/benchbench", "MIT")])
def test_provenance_repositories_with_licences(repo, licence):
    r = next(r for r in REFS.references if r.title == repo)
    assert r.kind == "repository" and r.licence.startswith(licence)
    assert r.url == f"https://github.com/{repo}" and len(r.commit) == 40


def test_release_v040_is_in_the_provenance():
    r = next(r for r in REFS.references if r.kind == "release")
    assert "v0.4.0" in r.title and "releases/v0.4.0" in r.location


@pytest.mark.parametrize("ref", REFS.references, ids=[r.id for r in REFS.references])
def test_every_reference_has_required_fields_and_an_allowed_url(ref):
    assert ref.title and ref.topics and ref.source
    assert set(ref.topics) <= set(REFS.topics)
    if ref.url:
        assert ref.url.startswith(references.ALLOWED_URL_PREFIXES)
        if ref.url.startswith("https://arxiv.org/abs/"):
            assert ref.url.endswith(ref.arxiv)
        if ref.url.startswith("https://aclanthology.org/"):
            assert ref.url.endswith(ref.acl_anthology)


@pytest.mark.parametrize("topics,expected", [((), 17), (("critique",), 4), (("provenance",), 6),
                                             (("critique", "efficiency"), 5)])
def test_topic_filter(topics, expected):
    assert len(REFS.with_topics(topics)) == expected


# ----------------------------------------------------------------------------- bad files give DataError naming the file

LOADERS = {"limits.toml": critique.load_steps, "studies.toml": studies.load_studies,
           "threads.toml": critique.load_threads, "references.toml": references.load_references}

STEP = '[[step]]\nid = "a"\ntitle = "t"\ntext = "x"\nevidence = "dense"\n'
STUDY = ('why_narrow = "w"\n[[study]]\nid = "a"\nname = "n"\nkind = "evaluation"\nsection = "s"\nsummary = "s"\n'
         'finding = "f"\nclaim = "c"\nmetrics = ["m"]\nscenarios = [{ name = "x", metric = "y" }]\n')
THREAD = ('[[thread]]\nid = "a"\ntitle = "t"\nshows = "s"\nreferences = ["r"]\n'
          'links = [{ label = "l", target = "grid" }]\n')
REF = ('[topics]\nhelm = "h"\n[[reference]]\nid = "a"\nkind = "work"\ntitle = "t"\nauthors = ["A"]\nyear = "2020"\n'
       'venue = "v"\nsource = "s"\ntopics = ["helm"]\n')

BAD_FILES = [
    ("limits.toml", "[[step]\n", "not valid TOML"),
    ("limits.toml", "title = 'no steps'\n", "expected one or more [[step]]"),
    ("limits.toml", STEP.replace('text = "x"\n', ""), "missing required field 'text'"),
    ("limits.toml", STEP.replace("dense", "vibes"), "evidence 'vibes'"),
    ("limits.toml", STEP + STEP, "used twice"),
    ("limits.toml", STEP.replace('"dense"', '"claims"'), "at least one claim"),
    ("limits.toml", STEP + 'links = [{ label = "x", target = "https://example.com" }]\n', "must be a page of this app"),
    ("limits.toml", STEP + 'links = [{ label = "x" }]\n', "missing required field 'target'"),
    ("limits.toml", STEP + "claims = [1, 2]\n", "'claims' must be a list"),
    ("studies.toml", STUDY.replace('kind = "evaluation"', 'kind = "other"'), "kind 'other'"),
    ("studies.toml", STUDY.replace('scenarios = [{ name = "x", metric = "y" }]', "scenarios = []"), "'scenarios'"),
    ("studies.toml", STUDY.replace('{ name = "x", metric = "y" }', '{ name = "x" }'), "missing required field 'metric'"),
    ("studies.toml", STUDY.replace('why_narrow = "w"\n', ""), "missing required field 'why_narrow'"),
    ("studies.toml", STUDY.replace('metrics = ["m"]', "metrics = []"), "'metrics' must list"),
    ("threads.toml", THREAD.replace('links = [{ label = "l", target = "grid" }]', "links = []"), "at least one deep link"),
    ("threads.toml", THREAD + 'episodes = [{ title = "e", url = "http://x" }]\n', "https://"),
    ("threads.toml", THREAD.replace('references = ["r"]', "references = []"), "'references' must list"),
    ("threads.toml", THREAD + 'number = "vibes"\nnumber_view = "grid"\n', "number 'vibes'"),
    ("threads.toml", THREAD + 'number = "seed_spread"\nnumber_view = "cost"\n', "number_view 'cost'"),
    ("threads.toml", THREAD + 'number = "seed_spread"\n', "number_view ''"),
    ("references.toml", REF.replace('[topics]\nhelm = "h"\n', ""), "[topics]"),
    ("references.toml", REF.replace('topics = ["helm"]', 'topics = ["gossip"]'), "topic 'gossip'"),
    ("references.toml", REF + 'url = "https://example.com/paper"\n', "not one the sources give"),
    ("references.toml", REF + 'arxiv = "1234"\n', "arxiv id"),
    ("references.toml", REF + 'arxiv = "2211.09110"\nurl = "https://arxiv.org/abs/2107.07002"\n', "does not match the arxiv id"),
    ("references.toml", REF.replace('authors = ["A"]\n', ""), "needs 'authors'"),
    ("references.toml", REF.replace('kind = "work"', 'kind = "repository"'), "missing required field 'org'"),
    ("references.toml", REF.replace('id = "a"', 'id = "a b"'), "may only use letters"),
]


@pytest.mark.parametrize("fname,text,message", BAD_FILES, ids=[f"{f}:{m}" for f, _, m in BAD_FILES])
def test_bad_content_gives_data_error_naming_the_file(tmp_path, fname, text, message):
    path = tmp_path / fname
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    with pytest.raises(DataError) as exc:
        LOADERS[fname](path)
    assert fname in str(exc.value) and message in str(exc.value)


@pytest.mark.parametrize("fname,text", [("limits.toml", STEP), ("studies.toml", STUDY), ("threads.toml", THREAD),
                                        ("references.toml", REF)])
def test_minimal_good_files_load(tmp_path, fname, text):
    path = tmp_path / fname
    path.write_text(text, encoding="utf-8")
    assert LOADERS[fname](path)


@pytest.mark.parametrize("fname", list(LOADERS))
def test_missing_file_names_the_file(tmp_path, fname):
    with pytest.raises(DataError, match=fname.replace(".", r"\.")):
        LOADERS[fname](tmp_path / fname)


@pytest.mark.parametrize("raw,expected", [
    ("one line\nwrapped here\n", "one line wrapped here"),
    ("para one\ncontinued\n\npara two\n", "para one continued\n\npara two"),
    ("intro:\n- item one\n  continued\n- item two\n", "intro:\n- item one continued\n- item two"),
    ("| a | b |\n|---|---|\n| 1 | 2 |\n", "| a | b |\n|---|---|\n| 1 | 2 |"),
])
def test_prose_joins_wrapped_lines_into_paragraphs(raw, expected):
    from helm_core.content import prose

    assert prose(raw) == expected


# ----------------------------------------------------------------------------- claims: source kind and badge

TAG_KIND = {"ABS": "paper", "SEC": "paper", "REPO": "code", "BLOG": "blog"}


@pytest.mark.parametrize("claim", [c for c in CLAIMS.values() if c.is_paper_claim], ids=lambda c: c.id)
def test_every_claim_has_the_source_kind_of_its_first_cited_source(claim):
    """The audit against HELM_FACTS.md: a claim read in HELM's code or config is "HELM code/config", one read in
    the CRFM blog is "CRFM blog", one from the abstract or from study notes quoting the paper is "2022 paper"
    (the source's first tag decides: [ABS]/[SEC-*], [REPO@*], [BLOG-*])."""
    first = re.search(r"\[(ABS|SEC|REPO|BLOG)", claim.source)
    assert first, claim.source
    assert claim.source_kind == TAG_KIND[first.group(1)], (claim.id, claim.source)
    assert claim.badge_label == f"{claim.source_label} · {claim.confidence}"


@pytest.mark.parametrize("claim_id,badge", [
    ("headline_grid", "2022 paper · verified"), ("grid_98_of_112", "2022 paper · quoted"),
    ("harms_low_core", "2022 paper · unverified"),
    # facts from HELM's code or config (were badged "Paper claim")
    ("coverage_why_not_100", "HELM code/config · verified"), ("ece_definition", "HELM code/config · verified"),
    ("mc_methods", "HELM code/config · verified"), ("fixed_examples", "HELM code/config · verified"),
    ("denoised_runtime", "HELM code/config · verified"), ("grid_blanks_summarization", "HELM code/config · verified"),
    ("grid_blanks_harms", "HELM code/config · verified"),
    # primary-source facts that were marked unverified (HELM_FACTS.md §5 and §12)
    ("grid_msmarco_calibration", "HELM code/config · verified"),
    ("releases_not_same_measurement", "CRFM blog · verified"),
    # the CRFM blog
    ("lite_drops_perturbations", "CRFM blog · verified"), ("lite_successor", "CRFM blog · verified"),
    ("coverage_prior_per_model", "Note on sources"),
])
def test_badge_labels(claim_id, badge):
    assert CLAIMS[claim_id].badge_label == badge


def test_the_open_ms_marco_question_stays_in_the_note():
    c = CLAIMS["grid_msmarco_calibration"]
    assert "Whether" not in c.statement and "paper's own 98/112 matrix" in c.note


def test_a_release_source_names_its_release(tmp_path):
    p = tmp_path / "claims.toml"
    p.write_text(CLAIM + 'source_kind = "release"\nrelease = "HELM Lite"\n', encoding="utf-8")
    c = claims.load_claims(p)["x"]
    assert (c.source_label, c.badge_label) == ("HELM Lite release", "HELM Lite release · verified")


CLAIM = '[[claim]]\nid = "x"\nsection = "any"\nstatement = "s"\nsource = "s"\nconfidence = "verified"\n'
BAD_CLAIMS = [
    (CLAIM, "missing required field 'source_kind'"),
    (CLAIM + 'source_kind = "rumour"\n', "source_kind 'rumour'"),
    (CLAIM + 'source_kind = "release"\n', "needs 'release' naming it"),
    (CLAIM + 'source_kind = "paper"\nrelease = "HELM Lite"\n', "'release' goes with source_kind 'release' only"),
    (CLAIM + 'source_kind = "release"\nrelease = 3\n', "'release' must be a string"),
    (CLAIM + 'kind = "note"\nsource_kind = "paper"\n', "takes no 'source_kind'"),
]


@pytest.mark.parametrize("text,message", BAD_CLAIMS, ids=[m for _, m in BAD_CLAIMS])
def test_bad_claim_source_kinds_give_a_data_error(tmp_path, text, message):
    p = tmp_path / "claims.toml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(message)):
        claims.load_claims(p)


@pytest.mark.parametrize("extra,kind,badge", [
    ('source_kind = "paper"\n', "paper", "2022 paper · verified"),
    ('source_kind = "code"\n', "code", "HELM code/config · verified"),
    ('source_kind = "blog"\n', "blog", "CRFM blog · verified"),
    ('source_kind = "computed"\n', "computed", "computed here · verified"),
    ('kind = "note"\n', "", "Note on sources"),
])
def test_minimal_claims_load_with_each_kind(tmp_path, extra, kind, badge):
    p = tmp_path / "claims.toml"
    p.write_text(CLAIM + extra, encoding="utf-8")
    c = claims.load_claims(p)["x"]
    assert (c.source_kind, c.badge_label) == (kind, badge)


@pytest.mark.parametrize("raw, fields, message", [
    ({"step": [{"id": "a", "title": "x"}, {"id": "b", "title": "y"}]}, ("title",), None),
    ({"step": [{"id": "a"}]}, ("title",), "step #1 (a): missing required field 'title'"),
    ({"step": [{"id": "a", "title": "x"}, {"id": "a", "title": "y"}]}, ("title",), "step #2 (a)"),
    ({"step": [{"title": "x"}]}, ("title",), "step #1 (no id)"),
])
def test_id_entries_checks_ids_and_fields(raw, fields, message):
    from helm_core.content import id_entries

    if message is None:
        assert [w for _, w in id_entries(raw, "step", "f.toml", fields)] == ["f.toml: step #1 (a)", "f.toml: step #2 (b)"]
    else:
        with pytest.raises(DataError, match=re.escape(message)):
            list(id_entries(raw, "step", "f.toml", fields))


@pytest.mark.parametrize("entry, required, message", [
    ({"links": [{"label": "a"}, {"label": "b"}]}, False, None),
    ({}, False, None),
    ({}, True, "'links' must list at least one link table with 'label'"),
    ({"links": "grid"}, False, "'links' must be a list of link tables with 'label'"),
    ({"links": ["grid"]}, False, "e, link #1: expected a table with 'label'"),
    ({"links": [{"label": "a"}, {}]}, False, "e, link #2: missing required field 'label'"),
])
def test_sub_tables_checks_each_inline_table(entry, required, message):
    from helm_core.content import sub_tables

    if message is None:
        got = sub_tables(entry, "links", "e", "link", ("label",), required=required)
        assert [w for _, w in got] == [f"e, link #{j}" for j in range(1, len(entry.get("links", [])) + 1)]
    else:
        with pytest.raises(DataError, match=re.escape(message)):
            sub_tables(entry, "links", "e", "link", ("label",), required=required)
