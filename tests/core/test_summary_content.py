from __future__ import annotations

import pytest

from helm_core.content import DataError, claims_for, load_claims
from helm_core.summary import exam_matrix, headline_counts
from helm_core.coverage import coverage_matrix, coverage_rate


def test_headline_counts(release):
    c = headline_counts(release)
    assert c["models"] == 67 and c["scenarios"] == 16 and c["metric_groups"] == 7
    assert c["core_cells"] == 67 * 16 * 7
    assert c["core_cells_measured"] + c["core_cells_blank"] == c["core_cells"]
    assert c["values"] + c["blank_values"] == len(release.results)


def test_headline_counts_for_a_subset(release):
    c = headline_counts(release, ["TNLG v2 (530B)", "OPT (175B)"])
    assert c["models"] == 2 and c["organizations"] == 2


def test_exam_matrix(release):
    e = exam_matrix(release)
    assert len(e) == 67 * 16
    assert e["measured"].sum() == coverage_matrix(release).to_numpy().sum()
    assert set(e.loc[e["scenario"] == "MS MARCO (TREC)", "metric"]) == {"NDCG@10"}


@pytest.mark.parametrize("models,expected", [(None, None), (["TNLG v2 (530B)"], 1.0)])
def test_coverage_rate(release, models, expected):
    rate = coverage_rate(release, models)
    assert 0 < rate <= 1
    if expected is not None:
        assert rate == expected


def test_claims_load_and_validate(tmp_path):
    claims = load_claims()
    assert claims["coverage_jump"].values == (17.9, 96.0)
    assert all(c.confidence in {"verified", "quoted", "unverified"} for c in claims.values())
    assert claims_for(claims, "grid")
    bad = tmp_path / "claims.toml"
    bad.write_text('[[claim]]\nid = "x"\nsection = "grid"\nstatement = "s"\nsource = "t"\nconfidence = "sure"\n')
    with pytest.raises(DataError, match="confidence"):
        load_claims(bad)
    bad.write_text('[[claim]]\nid = "x"\nsection = "grid"\nstatement = "s"\nconfidence = "verified"\n')
    with pytest.raises(DataError, match="source"):
        load_claims(bad)
    bad.write_text("[[claim]\n")
    with pytest.raises(DataError, match="TOML"):
        load_claims(bad)
