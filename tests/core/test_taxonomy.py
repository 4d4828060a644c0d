"""helm_core.taxonomy: the loaded release's own scenarios and metric groups, for every release kind."""
from __future__ import annotations

from pathlib import Path

import pytest

from helm_core import helm_output as ho
from helm_core import taxonomy as T
from helm_core.data import load_bundled

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def releases(release):
    return {
        "classic": release,
        "lite": load_bundled("lite"),
        "suite": ho.read_helm_output(FIXTURES / "helm_output_0516").release,  # 4 scenarios of its own
        "mixed": ho.read_helm_output(FIXTURES / "helm_output").release,  # 3 core scenarios + GSM8K
    }


@pytest.mark.parametrize("name, first, n, core, other", [
    ("classic", "MMLU", 16, 16, 0),
    ("lite", "NarrativeQA", 10, 0, 0),  # a later release: its own scenarios, neither core nor other
    ("suite", "bAbI", 4, 0, 4),
    ("mixed", "MMLU", 4, 3, 1),
])
def test_scenario_kinds_and_order(releases, name, first, n, core, other):
    rel = releases[name]
    own = T.own_scenarios(rel)
    assert own[0] == first and len(own) == n
    assert len(T.core_scenarios_of(rel)) == core and len(T.other_scenarios_of(rel)) == other
    kinds = T.scenario_kinds(rel)
    # core scenarios come first
    seen_other = False
    for s in own:
        seen_other |= kinds[s] == T.OTHER_KIND
        assert not (seen_other and kinds[s] == T.CORE_KIND)


@pytest.mark.parametrize("name, phrase", [
    ("classic", "the 16 core scenarios"),
    ("lite", "10 scenarios of its own"),
    ("suite", "4 scenarios, none of them one of classic's 16 core scenarios"),
    ("mixed", "4 scenarios: 3 of classic's 16 core scenarios and 1 other"),
])
def test_scenarios_phrase(releases, name, phrase):
    assert T.scenarios_phrase(releases[name]) == phrase


@pytest.mark.parametrize("name, groups, perturbations", [
    ("classic", ["accuracy", "calibration", "robustness", "fairness", "bias", "toxicity", "efficiency"], True),
    ("lite", ["accuracy", "efficiency"], False),
    ("suite", ["accuracy", "calibration", "efficiency"], False),
    ("mixed", ["accuracy", "calibration", "robustness"], True),
])
def test_groups_with_values(releases, name, groups, perturbations):
    rel = releases[name]
    assert T.groups_with_values(rel) == groups
    assert T.has_perturbations(rel) is perturbations


def test_groups_with_values_follow_the_models(releases):
    rel = releases["suite"]
    assert T.groups_with_values(rel, []) == []
    tiny = [m for m in rel.model_names if "Tiny" in m]
    assert T.groups_with_values(rel, tiny) == ["accuracy", "efficiency"]  # it ran bAbI and SST only


@pytest.mark.parametrize("groups, phrase", [
    ([], "no metric group"), (["accuracy"], "accuracy"),
    (["accuracy", "calibration", "efficiency"], "accuracy, calibration and efficiency"),
])
def test_groups_phrase(groups, phrase):
    assert T.groups_phrase(groups) == phrase


@pytest.mark.parametrize("name, text", [
    ("classic", "HELM's schema"), ("lite", "HELM Lite v1.13.0's published tables"),
    ("suite", "Your HELM output (helm_output_0516)'s own tables"),
])
def test_schema_name(releases, name, text):
    assert T.schema_name(releases[name]) == text
