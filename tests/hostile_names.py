"""Hostile HELM output shared by the AppTests and the browser tests: names full of Markdown, HTML and Streamlit syntax
(`_ * [ ] < > & | $ ~`) as model, scenario, metric and table names, a table HELM titled "", an Infinity and a NaN
cell. Every page must show each name literally (no entity such as `&#95;` or `&lt;`, no stray backslash) and say
which value it left out."""
from __future__ import annotations

import io
import json
import re
import shutil
import zipfile
from pathlib import Path

MODEL = "my_model *v2* [x] <b>&amp; | $y$ ~z~"
OTHER = "plain_model <i>"
SCENARIO = "Sce_nario *S* [1] <s> & | $t$ ~u~"
METRIC = "E_M* [m] <m> & | $m$ ~m~"
TITLE = "Acc_uracy *T* [t] <t> & | $ ~"
NAMES = (MODEL, OTHER, SCENARIO, METRIC, TITLE)
COLUMN = f"{SCENARIO} - {METRIC}"
PROB_COLUMN = f"{SCENARIO} - Max prob"
RUN = "sce_nario:model=my_model"


def anchor(name: str) -> str:
    """The part of a name any rendering keeps: its first word, up to its first Markdown/HTML mark."""
    return re.split(r"[\s*\[<&|$~]", name, maxsplit=1)[0]


def starts(text: str, name: str) -> list[int]:
    """Where `name`'s anchor starts a word in `text` (not inside a run name such as `model=my_model`, nor right
    after a backslash)."""
    return [m.start() for m in re.finditer(r"(?<![\w=\\])" + re.escape(anchor(name)), text)]


def by_anchor(names) -> list[list[str]]:
    """The names grouped by their anchor (names may share one, e.g. numbered variants of a name)."""
    out: dict[str, list[str]] = {}
    for n in names:
        out.setdefault(anchor(n), []).append(n)
    return list(out.values())


def not_literal(text: str, names) -> list[str]:
    """The places where `text` (as a reader sees it) shows a name otherwise than as written: its anchor is there,
    but none of the names with that anchor follows."""
    out = []
    for same in by_anchor(names):
        for i in starts(text, same[0]):
            if not any(text.startswith(n, i) for n in same):
                out.append(f"{same[0]!r} shown as {text[i:i + len(same[0]) + 10]!r}")
    return out


# What a page must never show instead of a name's own characters.
ENTITIES = ("&#95;", "&#42;", "&lt;", "&gt;", "&amp;amp;", "&#124;", "&#36;", "&#126;", "&#91;")
# Entity text in Markdown or on screen: Streamlit's Markdown shows an entity as typed.
ENTITY_TEXT = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|lt|gt|amp|quot);")

SUITE_0516 = Path(__file__).resolve().parent / "fixtures" / "helm_output_0516"
SUITE = "runs/my-suite"
# The 0516 suite's own names and the hostile names that replace them (model, model, scenario, metric), in the order
# they are replaced: every page of the app then shows hostile model, scenario and metric names.
RENAME = {"SST (own sentiment set)": SCENARIO, "Tiny GPT-2 (local)": MODEL, "Pythia (70M)": OTHER,
          "Macro-F1": METRIC, "SST": SCENARIO}
_RENAME = re.compile("|".join(r"\b" + re.escape(k) + r"(?!\w)" if k[-1].isalnum() else r"\b" + re.escape(k)
                              for k in RENAME))


# Links that open a page on a hostile name (its URL keys): the grid's cell detail, the metrics page's pair, the
# sensitivity page's scenario.
LINKS = {"grid": {"cell": f"{SCENARIO}|accuracy"}, "metrics": {"pair": f"{SCENARIO}|efficiency"},
         "sensitivity": {"sens_scenario": SCENARIO}}


def _renamed(obj):
    if isinstance(obj, str):
        return _RENAME.sub(lambda m: RENAME[m.group(0)], obj)
    if isinstance(obj, list):
        return [_renamed(v) for v in obj]
    if isinstance(obj, dict):
        return {k: _renamed(v) for k, v in obj.items()}
    return obj


def write_suite(dest: Path) -> Path:
    """The 0516 suite (helm-run + helm-summarize output, tests/fixtures/helm_output_0516) copied to `dest` with
    hostile names: its two models, its SST scenario and SST's metric renamed in schema.json and in every
    helm-summarize file (the tables name them as the schema does), and `groups/zz_hostile.json` (`groups_doc`)
    added. Returns `dest`, the folder to load (HELM_OUTPUT or the data page)."""
    shutil.copytree(SUITE_0516, dest)
    suite = dest / SUITE
    for path in [*suite.glob("*.json"), *suite.glob("groups/*.json"), *suite.glob("groups/json/*.json")]:
        path.write_text(json.dumps(_renamed(json.loads(path.read_text()))))
    (suite / "groups" / "zz_hostile.json").write_bytes(groups_json())
    return dest


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
