"""Hostile HELM output shared by the AppTests and the browser tests: names full of Markdown, HTML and Streamlit syntax
(`_ * [ ] < > & | $ ~`) as model, scenario, metric and table names, a table HELM titled "", an Infinity and a NaN
cell. Every page must show each name literally (no entity such as `&#95;` or `&lt;`, no stray backslash) and say
which value it left out."""
from __future__ import annotations

import io
import json
import zipfile

MODEL = "my_model *v2* [x] <b>&amp; | $y$ ~z~"
OTHER = "plain_model <i>"
SCENARIO = "Sce_nario *S* [1] <s> & | $t$ ~u~"
METRIC = "E_M* [m] <m> & | $m$ ~m~"
TITLE = "Acc_uracy *T* [t] <t> & | $ ~"
NAMES = (MODEL, OTHER, SCENARIO, METRIC, TITLE)
COLUMN = f"{SCENARIO} - {METRIC}"
PROB_COLUMN = f"{SCENARIO} - Max prob"
RUN = "sce_nario:model=my_model"
# What a page must never show instead of a name's own characters.
ENTITIES = ("&#95;", "&#42;", "&lt;", "&gt;", "&amp;amp;", "&#124;", "&#36;", "&#126;", "&#91;")


def _header(value: str, metric: str, lower: bool | None) -> dict:
    h = {"value": value, "markdown": False, "metadata": {"run_group": SCENARIO, "metric": metric}}
    if lower is not None:
        h["lower_is_better"] = lower
    return h


def groups_doc() -> list[dict]:
    """A groups/core_scenarios.json: HELM's first table (hostile title, a mean win rate and the hostile metric), and
    a table HELM titled "" (as helm-summarize titles a scenario without arguments) whose Max prob cells are Infinity
    (refused at load) and NaN (no value)."""
    return [
        {"title": TITLE, "name": "accuracy",
         "header": [{"value": "Model/adapter"}, {"value": "Mean win rate", "lower_is_better": False, "metadata": {}},
                    _header(COLUMN, METRIC, False)],
         "rows": [[{"value": MODEL}, {"value": 1.0}, {"value": 0.7, "run_spec_names": [RUN]}],
                  [{"value": OTHER}, {"value": 0.0}, {"value": 0.2}]]},
        {"title": "", "name": "",
         "header": [{"value": "Model/adapter"}, _header(PROB_COLUMN, "Max prob", None)],
         "rows": [[{"value": MODEL}, {"value": float("inf")}], [{"value": OTHER}, {"value": float("nan")}]]},
    ]


def groups_json() -> bytes:
    """The file as Python's json writes it: `Infinity` and `NaN`, which HELM never writes but json reads."""
    return json.dumps(groups_doc()).encode()


def groups_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("hostile/groups/core_scenarios.json", groups_json())
    return buf.getvalue()
