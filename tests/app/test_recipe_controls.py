"""ui.recipe_controls without widgets: the recipe a state holds (a page run's session state, a presenter's query
relayed as strings to the speaker view, or {} for the handout), the note on weights a release sets aside, and the
sentence that says whose win rates are shown. Table-driven."""
from __future__ import annotations

import pytest

from ui import recipe_controls as R

HOLISTIC = {g: 1 for g in R.WEIGHT_KEYS}
SAFETY = {**HOLISTIC, "bias": 3, "toxicity": 3}
NONE = {g: 0 for g in R.WEIGHT_KEYS}


@pytest.mark.parametrize("state,name,missing,raw", [
    ({}, "holistic", "renormalize", HOLISTIC),  # the handout: the default recipe
    ({"recipe": "safety", "missing": "exclude"}, "safety", "exclude", SAFETY),
    ({"recipe": "safety", "w_bias": "3", "w_toxicity": "3"}, "safety", "renormalize", SAFETY),  # the URL's strings
    ({"recipe": "safety", **{f"w_{g}": v for g, v in SAFETY.items()}}, "safety", "renormalize", SAFETY),  # ints
    ({"recipe": "holistic", "w_bias": "4"}, "custom", "renormalize", {**HOLISTIC, "bias": 4}),  # a hand-made link
    ({"recipe": "custom", "w_accuracy": "2", "w_toxicity": "5"}, "custom", "renormalize",
     {**NONE, "accuracy": 2, "toxicity": 5}),
    ({"recipe": "custom", "w_accuracy": ("2",)}, "custom", "renormalize", {**NONE, "accuracy": 2}),  # a list value
    ({"recipe": "bogus", "missing": "zero"}, "holistic", "renormalize", HOLISTIC),  # invalid values: the defaults
    ({"recipe": "custom", "w_accuracy": "9", "w_bias": "-1", "w_fairness": "x", "w_toxicity": " 2 "}, "custom",
     "renormalize", {**NONE, "toxicity": 2}),
    ({"recipe": "accuracy", "w_accuracy": True}, "accuracy", "renormalize", {**NONE, "accuracy": 1}),  # a bool is no weight
    ({"recipe": ["safety", "holistic"]}, "holistic", "renormalize", HOLISTIC),  # two values: neither
])
def test_choice_from_state(state, name, missing, raw):
    c = R.choice_from_state(state)
    assert (c.name, c.missing, c.raw, c.error) == (name, missing, raw, None)
    assert c.items == tuple((g, float(v)) for g, v in raw.items())


def test_a_state_with_no_weight_says_why_it_cannot_rank():
    c = R.choice_from_state({"recipe": "custom"})
    assert c.items is None and "Move at least one slider above 0" in c.error


@pytest.mark.parametrize("state,ranked,ok,note", [
    ({}, tuple(R.WEIGHT_KEYS), True, None),  # classic ranks on all seven
    ({}, ("accuracy", "efficiency"), True,
     "The release measures accuracy and efficiency only: the ranking uses accuracy and efficiency, and the weights on "
     "calibration, robustness, fairness, bias and toxicity are set aside (no model here can have them)."),
    ({"recipe": "custom", "w_accuracy": "1", "w_bias": "2"}, ("accuracy", "efficiency"), True,
     "The release measures accuracy and efficiency only: the ranking uses accuracy, and the weights on bias are set "
     "aside (no model here can have it)."),
    ({"recipe": "custom", "w_bias": "2"}, ("accuracy", "efficiency"), False,
     "This recipe weighs only bias, which the release does not measure. Give accuracy or efficiency a weight to "
     "rank its models."),
])
def test_release_groups(state, ranked, ok, note):
    assert R.release_groups(R.choice_from_state(state), ranked) == (ok, note)


@pytest.mark.parametrize("kind,n,published,aggregate,expected", [
    ("published", 67, True, "Mean win rate", "Win rates shown: HELM's published group win rates (R, all 67 models)."),
    ("recomputed", 28, True, "Mean win rate",
     "Win rates shown: recomputed from R's results among the 28 models of this cohort (a model's win rate depends "
     "on who it is compared with; HELM's published values cover the release's full model set)."),
    ("recomputed", 68, False, "Mean score",
     "Win rates shown: computed by this app from R's results among the 68 models of this cohort, by HELM's rule "
     "(HELM publishes a Mean score for this release, no win rates)."),
    ("recomputed", 2, False, None,
     "Win rates shown: computed by this app from R's results among the 2 models of this cohort, by HELM's rule (the "
     "data publishes no win rates of its own)."),
    ("recomputed", 1, False, None,
     "Win rates shown: computed by this app from R's results for the one model, by HELM's rule (the data publishes "
     "no win rates of its own)."),
])
def test_kind_caption(kind, n, published, aggregate, expected):
    assert R.kind_caption(kind, n, "R", published, aggregate) == expected
