"""Instances of one run (`scenario_state.json`, `per_instance_stats.json`, or the display files written by
helm-summarize): prompts, completions, references, correctness and the probability of the chosen answer."""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Callable, Mapping

import pandas as pd

from .. import validity
from ..data import DataError
from .archive import DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, _parse_json, open_path
from .fields import _expect, _num, _opt_str, _tname

INSTANCE_COLUMNS = ["instance_id", "train_trial_index", "perturbation", "split", "sub_split", "reference_index",
                    "request_mode", "method", "input", "prompt", "completion", "completions", "mapped_output",
                    "references", "stats", "correct", "prob", "prob_normalised", "prob_source", "logprob",
                    "choice_source", "annotations"]


def _stat_means(obj: Any, where: str, into: dict, rejected: list | None = None) -> bool:
    """Per-instance stats, the light way (there can be hundreds of thousands): name -> mean into `into`.
    Checks the fields it reads; a mean HELM could not have produced (helm_core.validity) is left out and recorded
    in `rejected`. Returns whether a `logprob` stat is below 0 (real log-probabilities)."""
    _expect(obj, list, where, "a list of stats")
    negative = False
    for i, item in enumerate(obj):
        if not isinstance(item, dict) or not isinstance(item.get("name"), dict):
            raise DataError(f"{where}: stat {i + 1}: expected an object with 'name' {{name, split}}, found "
                            f"{_tname(item.get('name') if isinstance(item, dict) else item)}")
        name = item["name"].get("name")
        if not isinstance(name, str):
            raise DataError(f"{where}: stat {i + 1}.name.name: expected text, found {_tname(name)}")
        mean, total, count = item.get("mean"), item.get("sum", 0), item.get("count", 0)
        for key, v in (("mean", mean), ("sum", total), ("count", count)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
                raise DataError(f"{where}: stat {i + 1}.{key}: expected a number, found {_tname(v)}")
        if mean is None:
            mean = total / count if count else float("nan")
        why = validity.value_problem(mean, name)
        if why:
            if rejected is not None:
                rejected.append(validity.record(where, "", "", name, mean, why))
            continue
        into.setdefault(name, float(mean))
        if name == "logprob" and (total or 0) < 0:
            negative = True
    return negative


def _trial(v: Any, where: str) -> int:
    """A train_trial_index (the seed replicate): a whole number, 0 when absent."""
    if v is None:
        return 0
    if isinstance(v, bool) or not isinstance(v, int):
        raise DataError(f"{where} 'train_trial_index': expected a whole number, found {_tname(v)}")
    return v


def _pert_name(p: Any) -> str:
    if isinstance(p, dict):
        n = p.get("name")
        return n if isinstance(n, str) else ""
    return ""


def _pert_key(p: Any) -> str:
    return json.dumps(p, sort_keys=True) if isinstance(p, dict) else ""


# ----------------------------------------------------------------------------- instances


def load_instances(run_folder: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES,
                   max_files: int = DEFAULT_MAX_FILES) -> pd.DataFrame:
    """The instances of one run folder: one row per request state, i.e. per instance, seed and perturbation
    (multiple_choice_separate_* runs send one request per option: they are folded into one row per instance,
    see `_one_row_per_instance`). Columns (INSTANCE_COLUMNS): instance_id,
    train_trial_index (the seed replicate), perturbation ("" = original), split, sub_split, reference_index,
    request_mode, method, input, prompt (the full prompt as sent), completion (the first completion's text),
    completions (every completion's text), mapped_output (the choice a letter maps to), references (a list of
    {"text", "correct", "label"}, plus "logprob", "tokens", "chosen" for separate runs), stats (per-instance
    stats, name -> mean), correct (0/1 or NaN), prob, prob_normalised, prob_source, logprob, choice_source,
    annotations (annotator -> its text and number fields, e.g. XSTest's judges).
    See the package docstring for how `prob` and the chosen option are computed.
    Nothing is invented: a field the files do not hold is empty (text) or NaN (numbers)."""
    root = Path(run_folder)
    if not root.is_dir():
        raise DataError(f"{root}: not a run folder")
    tree = open_path(root, max_bytes, max_files)
    return _instances_from(lambda n: tree.read(n) if tree.has(n) else None, root.name)


def _instances_from(get: Callable[[str], bytes | None], label: str, trials: dict | None = None) -> pd.DataFrame:
    """The instances of a run read through `get` (see `load_instances`). Values HELM could not have produced (a
    per-instance stat, a probability outside [0, 1]) are left out (helm_core.validity) and listed in
    `df.attrs["rejected_values"]` (only when there are any). `trials`, when given, receives per train trial and
    stat the mean over the original instances of per_instance_stats.json ((trial, stat) -> (mean, n))."""
    rejected: list[dict] = []

    def load(name: str) -> Any:
        raw = get(name)
        return None if raw is None else _parse_json(raw, f"{label}/{name}")

    spec = load("run_spec.json")
    method = ""
    if isinstance(spec, dict) and isinstance(spec.get("adapter_spec"), dict):
        m = spec["adapter_spec"].get("method")
        method = m if isinstance(m, str) else ""
    pis = load("per_instance_stats.json")
    stats_by_key: dict[tuple, dict] = {}
    any_logprob_stat = False
    if pis is not None:
        where = f"{label}/per_instance_stats.json"
        _expect(pis, list, where, "a list of per-instance stats")
        for i, item in enumerate(pis):
            iw = f"{where}: item {i + 1}"
            _expect(item, dict, iw, "an object with 'instance_id' and 'stats'")
            iid = _expect(item.get("instance_id"), str, f"{iw} 'instance_id'", "text")
            trial = _trial(item.get("train_trial_index"), iw)
            d = stats_by_key.setdefault((iid, trial, _pert_key(item.get("perturbation"))), {})
            if _stat_means(item.get("stats"), f"{iw} 'stats'", d, rejected):
                any_logprob_stat = True
        if trials is not None:
            sums: dict[tuple[int, str], list] = {}
            for (_, trial, pk), d in stats_by_key.items():
                if pk:
                    continue
                for name, v in d.items():
                    if v == v:  # not NaN
                        acc = sums.setdefault((trial, name), [0.0, 0])
                        acc[0] += v
                        acc[1] += 1
            trials.update({k: (tot / n, n) for k, (tot, n) in sums.items()})
    state = load("scenario_state.json")
    if state is not None:
        rows = _rows_from_state(state, f"{label}/scenario_state.json", method, stats_by_key, any_logprob_stat)
    else:
        preds = load("display_predictions.json")
        if preds is None:
            raise DataError(f"{label}: no per-instance files (scenario_state.json, or display_predictions.json "
                            "with display_requests.json and instances.json)")
        rows = _rows_from_display(preds, load("display_requests.json"), load("instances.json"), label, method,
                                  stats_by_key, any_logprob_stat, rejected)
    df = pd.DataFrame(rows, columns=INSTANCE_COLUMNS)
    df["choice_source"] = df["choice_source"].fillna("").astype(str)
    for c in ("correct", "prob", "prob_normalised", "logprob", "reference_index"):
        df[c] = pd.to_numeric(df[c], errors="coerce").astype(float)
    df["train_trial_index"] = df["train_trial_index"].astype("int64")
    for c in ("prob", "prob_normalised"):  # a probability: [0, 1]; exp(a positive log-probability) is not one
        bad = validity.out_of_range(df[c].to_numpy(), validity.SHARE.low, validity.SHARE.high)
        for iid, v in zip(df.loc[bad, "instance_id"], df.loc[bad, c]):
            rejected.append(validity.record(f"{label} instance {iid}", "", "", c, v,
                                            validity.problem(v, validity.SHARE) or ""))
        if bad.any():
            df.loc[bad, c] = float("nan")
            if c == "prob":
                df.loc[bad, "prob_source"] = ""
    if rejected:
        df.attrs["rejected_values"] = rejected
    return df


def _references(inst: dict, where: str, mapping: dict | None) -> list[dict]:
    refs = inst.get("references", [])
    if refs is None:
        return []
    _expect(refs, list, f"{where} 'references'", "a list")
    letters = {}
    if isinstance(mapping, dict):
        letters = {v: k for k, v in mapping.items() if isinstance(v, str)}
    out = []
    for j, ref in enumerate(refs):
        _expect(ref, dict, f"{where} reference {j + 1}", "an object with 'output' and 'tags'")
        output = ref.get("output") or {}
        _expect(output, dict, f"{where} reference {j + 1} 'output'", "an object with 'text'")
        text = _opt_str(output.get("text"), f"{where} reference {j + 1} 'output.text'")
        tags = ref.get("tags") or []
        _expect(tags, list, f"{where} reference {j + 1} 'tags'", "a list")
        out.append({"text": text, "correct": "correct" in tags, "label": letters.get(text, "")})
    return out


def _annotations(obj: Any) -> dict:
    """HELM's per-request `annotations` (annotator -> its fields, e.g. XSTest's judges' scores and reasoning),
    text and numbers only; anything else (nested objects, the judge prompt kept or not) is left out."""
    if not isinstance(obj, dict):
        return {}
    return {str(k): {str(f): x for f, x in v.items() if isinstance(x, (str, int, float)) and not isinstance(x, bool)}
            for k, v in obj.items() if isinstance(v, dict)}


CORRECT_STATS = ("exact_match", "quasi_exact_match", "prefix_exact_match", "quasi_prefix_exact_match")


def _correct(stats: Mapping[str, float], fallback: Callable[[], float]) -> float:
    """Correctness: HELM's own per-instance exact_match (or, where a run has none, its quasi / prefix variant);
    without per-instance stats, whether the answer equals a correct reference. A run graded by other
    metrics only (XSTest's judges) has per-instance stats but none of these: NaN, since HELM scored it otherwise
    (its references can be labels, e.g. XSTest's "safe" tagged correct, not answers)."""
    for name in CORRECT_STATS:
        v = stats.get(name)
        if v is not None and not (isinstance(v, float) and math.isnan(v)):
            return float(int(v))
    return fallback() if not stats else float("nan")


def _exact(pred: str, refs: list[dict]) -> float:
    golds = [r["text"].strip() for r in refs if r["correct"]]
    if not golds:
        return float("nan")
    return float(pred.strip() in golds)


def _rows_from_state(state: Any, where: str, method: str, stats_by_key: dict, any_logprob_stat: bool) -> list[dict]:
    _expect(state, dict, where, "an object with 'adapter_spec' and 'request_states'")
    adapter = state.get("adapter_spec")
    if isinstance(adapter, dict) and isinstance(adapter.get("method"), str):
        method = adapter["method"]
    items = _expect(state.get("request_states"), list, f"{where}: 'request_states'", "a list of request states")
    parsed = []
    has_logprobs = False
    for i, rs in enumerate(items):
        rw = f"{where}: request state {i + 1}"
        _expect(rs, dict, rw, "an object")
        inst = _expect(rs.get("instance"), dict, f"{rw} 'instance'", "an object with 'input' and 'references'")
        inp = inst.get("input") or {}
        _expect(inp, dict, f"{rw} 'instance.input'", "an object with 'text'")
        request = rs.get("request") or {}
        _expect(request, dict, f"{rw} 'request'", "an object with 'prompt'")
        result = rs.get("result") or {}
        _expect(result, dict, f"{rw} 'result'", "an object with 'completions'")
        comps = result.get("completions") or []
        _expect(comps, list, f"{rw} 'result.completions'", "a list")
        clean = []
        for j, c in enumerate(comps):
            cw = f"{rw} completion {j + 1}"
            _expect(c, dict, cw, "an object with 'text' and 'logprob'")
            text = _opt_str(c.get("text"), f"{cw} 'text'")
            lp = _num(c.get("logprob", 0.0), f"{cw} 'logprob'")
            toks = c.get("tokens") or []
            _expect(toks, list, f"{cw} 'tokens'", "a list")
            tlist = []
            for k, t in enumerate(toks):
                _expect(t, dict, f"{cw} token {k + 1}", "an object with 'text' and 'logprob'")
                tl = _num(t.get("logprob", 0.0), f"{cw} token {k + 1} 'logprob'")
                top = t.get("top_logprobs")
                if top is not None:
                    _expect(top, dict, f"{cw} token {k + 1} 'top_logprobs'", "an object (token -> logprob)")
                tlist.append((_opt_str(t.get("text"), f"{cw} token {k + 1} 'text'"), tl, top))
                if tl < 0:
                    has_logprobs = True
            if lp < 0:
                has_logprobs = True
            clean.append((text, lp, tlist))
        trial = _trial(rs.get("train_trial_index"), rw)
        mapping = rs.get("output_mapping")
        if mapping is not None:
            _expect(mapping, dict, f"{rw} 'output_mapping'", "an object (letter -> choice)")
        parsed.append((rw, rs, inst, inp, request, clean, trial, mapping))
    rows = []
    for rw, rs, inst, inp, request, clean, trial, mapping in parsed:
        iid = _opt_str(inst.get("id"), f"{rw} 'instance.id'")
        pert = inst.get("perturbation")
        refs = _references(inst, rw, mapping)
        stats = stats_by_key.get((iid, trial, _pert_key(pert)), {})
        completion = clean[0][0] if clean else ""
        top = max(clean, key=lambda c: c[1]) if clean else None
        mapped = ""
        if isinstance(mapping, dict) and top is not None:
            v = mapping.get(top[0].strip())
            mapped = v if isinstance(v, str) else ""
        prob, prob_norm, source = float("nan"), float("nan"), ""
        if has_logprobs and top is not None:
            if method == "multiple_choice_joint" and isinstance(mapping, dict):
                prob, prob_norm = _joint_prob(top, mapping)
                source = "logprob of the chosen letter"
            elif method.startswith("multiple_choice_separate") or method == "ranking_binary":
                mp = stats.get("max_prob")
                if mp is not None and not math.isnan(mp):
                    prob, source = mp, "max_prob stat"
            else:
                prob, source = math.exp(top[1]), "logprob of the completion"
        elif any_logprob_stat and stats.get("max_prob") is not None:
            prob, source = stats["max_prob"], "max_prob stat"
        correct = _correct(stats, lambda: _exact(mapped if mapped else completion, refs) if clean else float("nan"))
        ref_index = rs.get("reference_index")
        rows.append({
            "instance_id": iid, "train_trial_index": trial, "perturbation": _pert_name(pert),
            "split": _opt_str(inst.get("split"), f"{rw} 'instance.split'"),
            "sub_split": _opt_str(inst.get("sub_split"), f"{rw} 'instance.sub_split'"),
            "reference_index": ref_index if isinstance(ref_index, int) and not isinstance(ref_index, bool) else None,
            "request_mode": rs.get("request_mode") if isinstance(rs.get("request_mode"), str) else "",
            "method": method,
            "input": _opt_str(inp.get("text"), f"{rw} 'instance.input.text'"),
            "prompt": _opt_str(request.get("prompt"), f"{rw} 'request.prompt'"),
            "completion": completion, "completions": [c[0] for c in clean], "mapped_output": mapped,
            "references": refs, "stats": stats, "correct": correct, "prob": prob, "prob_normalised": prob_norm,
            "prob_source": source, "logprob": top[1] if top is not None else float("nan"),
            "annotations": _annotations(rs.get("annotations")),
        })
        if method.startswith("multiple_choice_separate"):
            ri = rows[-1]["reference_index"]
            ref_text = refs[ri]["text"] if ri is not None and 0 <= ri < len(refs) else None
            rows[-1]["_answer"] = _answer_logprob(clean[0][2], ref_text) if clean and ref_text is not None else None
    if method.startswith("multiple_choice_separate"):
        rows = _one_row_per_instance(rows, method)
    return rows


def _answer_logprob(tokens: list, answer: str) -> tuple[float, int] | None:
    """(log-probability, token count) of the answer at the end of an echoed completion: the shortest run of
    trailing tokens whose text, stripped, is the answer (HELM counts the answer's tokens with the model's
    tokenizer; the files carry the tokens, so their text is matched instead). None if no run matches."""
    target = answer.strip()
    if not target:
        return None
    text, lp, n = "", 0.0, 0
    for tok_text, tok_lp, _ in reversed(tokens):
        text, lp, n = tok_text + text, lp + tok_lp, n + 1
        got = text.strip()
        if got == target:
            return lp, n
        if len(got) > len(target):
            return None
    return None


def _one_row_per_instance(rows: list[dict], method: str) -> list[dict]:
    """multiple_choice_separate_* runs send one request per answer option (and, for *_calibrated, one
    calibration request per option): fold them into one row per (instance, seed, perturbation). Each
    reference gets `logprob` / `tokens` (the option's answer tokens in its "original" request) and `chosen`.
    The chosen option is HELM's per-instance `predicted_index` stat; without it, it is recomputed as HELM's
    metric does (argmax of logprob / tokens for *_original, of original − calibration logprob for
    *_calibrated) and `choice_source` says so. `correct` is HELM's exact_match, else whether the chosen
    option is a correct reference; `reference_index` is the chosen option; prompt and completion are the
    chosen option's request (as HELM's display_predictions keeps)."""
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault((r["instance_id"], r["train_trial_index"], r["perturbation"], r["split"]), []).append(r)
    out = []
    for members in groups.values():
        first = members[0]
        refs = [dict(ref, logprob=float("nan"), tokens=0, chosen=False) for ref in first["references"]]
        calib: dict[int, float] = {}
        by_ref: dict[int, dict] = {}
        for m in members:
            ri, ans = m["reference_index"], m.pop("_answer", None)
            if ri is None or not 0 <= ri < len(refs):
                continue
            if m["request_mode"] == "calibration":
                if ans is not None:
                    calib[ri] = ans[0]
                continue
            by_ref.setdefault(ri, m)
            if ans is not None:
                refs[ri]["logprob"], refs[ri]["tokens"] = ans
        stats = first["stats"]
        pi = stats.get("predicted_index")
        chosen, source = None, ""
        if pi is not None and not math.isnan(pi) and float(pi).is_integer() and 0 <= int(pi) < len(refs):
            chosen, source = int(pi), "HELM's predicted_index"
        else:
            if method.endswith("calibrated"):
                scores = {i: r["logprob"] - calib[i] for i, r in enumerate(refs) if i in calib}
            else:
                scores = {i: r["logprob"] / r["tokens"] for i, r in enumerate(refs) if r["tokens"]}
            scores = {i: v for i, v in scores.items() if not math.isnan(v)}
            if scores and len(scores) == len(refs):
                chosen, source = max(scores, key=lambda i: (scores[i], -i)), "recomputed from the log-probabilities"
        base = by_ref.get(chosen) if chosen is not None else None
        row = dict(base if base is not None else first)
        if chosen is not None:
            refs[chosen]["chosen"] = True
        row.update({"references": refs, "reference_index": chosen, "request_mode": "", "choice_source": source,
                    "mapped_output": refs[chosen]["text"] if chosen is not None else "",
                    "logprob": refs[chosen]["logprob"] if chosen is not None else float("nan")})
        if base is None:
            row.update({"prompt": "", "completion": "", "completions": []})
        em = stats.get("exact_match")
        if em is not None and not math.isnan(em):
            row["correct"] = float(int(em))
        elif chosen is not None and any(r["correct"] for r in refs):
            row["correct"] = float(refs[chosen]["correct"])
        else:
            row["correct"] = float("nan")
        row.pop("_answer", None)
        out.append(row)
    return out


def _joint_prob(top: tuple, mapping: dict) -> tuple[float, float]:
    """(prob, prob_normalised) of the chosen letter of a multiple_choice_joint completion."""
    text, lp, tokens = top
    letter = text.strip()
    tok = next((t for t in tokens if t[0].strip() == letter), None) if letter else None
    if tok is None:
        return math.exp(lp), float("nan")
    prob = math.exp(tok[1])
    top_lp = tok[2]
    if not isinstance(top_lp, dict) or letter not in mapping:
        return prob, float("nan")
    best: dict[str, float] = {letter: tok[1]}
    for k, v in top_lp.items():
        if not isinstance(k, str) or isinstance(v, bool) or not isinstance(v, (int, float)):
            continue
        key = k.strip()
        if key in mapping:
            best[key] = max(best.get(key, -math.inf), float(v))
    denom = sum(math.exp(v) for v in best.values())
    return prob, (math.exp(best[letter]) / denom if denom > 0 else float("nan"))


def _rows_from_display(preds: Any, requests: Any, instances: Any, label: str, method: str, stats_by_key: dict,
                       any_logprob_stat: bool, rejected: list | None = None) -> list[dict]:
    pw = f"{label}/display_predictions.json"
    _expect(preds, list, pw, "a list of predictions")
    prompts: dict[tuple, str] = {}
    if requests is not None:
        rw = f"{label}/display_requests.json"
        _expect(requests, list, rw, "a list of requests")
        for i, r in enumerate(requests):
            _expect(r, dict, f"{rw}: item {i + 1}", "an object with 'instance_id' and 'request'")
            req = r.get("request") or {}
            _expect(req, dict, f"{rw}: item {i + 1} 'request'", "an object with 'prompt'")
            key = (str(r.get("instance_id", "")), _trial(r.get("train_trial_index"), f"{rw}: item {i + 1}"),
                   _pert_key(r.get("perturbation")))
            prompts[key] = _opt_str(req.get("prompt"), f"{rw}: item {i + 1} 'request.prompt'")
    insts: dict[tuple, dict] = {}
    if instances is not None:
        iw = f"{label}/instances.json"
        _expect(instances, list, iw, "a list of instances")
        for i, inst in enumerate(instances):
            _expect(inst, dict, f"{iw}: item {i + 1}", "an object with 'id', 'input' and 'references'")
            insts[(str(inst.get("id", "")), _pert_key(inst.get("perturbation")))] = inst
    rows = []
    for i, p in enumerate(preds):
        w = f"{pw}: item {i + 1}"
        _expect(p, dict, w, "an object with 'instance_id' and 'predicted_text'")
        iid = _expect(p.get("instance_id"), str, f"{w} 'instance_id'", "text")
        trial = _trial(p.get("train_trial_index"), w)
        pk = _pert_key(p.get("perturbation"))
        text = _opt_str(p.get("predicted_text"), f"{w} 'predicted_text'")
        mapped = p.get("mapped_output")
        mapped = mapped if isinstance(mapped, str) else ""
        dstats = p.get("stats") or {}
        _expect(dstats, dict, f"{w} 'stats'", "an object (metric -> value)")
        stats = dict(stats_by_key.get((iid, trial, pk), {}))
        for k, v in dstats.items():
            v = _num(v, f"{w} stats '{k}'")
            why = validity.value_problem(v, str(k))
            if why:
                if rejected is not None:
                    rejected.append(validity.record(f"{w} stats", "", "", str(k), v, why))
                continue
            stats.setdefault(str(k), v)
        inst = insts.get((iid, pk), {})
        inp = inst.get("input") if isinstance(inst.get("input"), dict) else {}
        refs = _references(inst, f"{label}/instances.json id {iid!r}", None) if inst else []
        correct = _correct(stats, lambda: _exact(mapped or text, refs))
        logprob_stat = stats.get("logprob")
        prob, source = float("nan"), ""
        if any_logprob_stat or (logprob_stat is not None and logprob_stat < 0):
            mp = stats.get("max_prob")
            if mp is not None and not math.isnan(mp):
                prob, source = mp, "max_prob stat"
        ref_index = p.get("reference_index")
        rows.append({
            "instance_id": iid, "train_trial_index": trial, "perturbation": _pert_name(p.get("perturbation")),
            "split": str(inst.get("split") or "") if inst else "", "sub_split": str(inst.get("sub_split") or "") if inst else "",
            "reference_index": ref_index if isinstance(ref_index, int) and not isinstance(ref_index, bool) else None,
            "request_mode": "", "method": method, "input": str(inp.get("text") or "") if inp else "",
            "prompt": prompts.get((iid, trial, pk), ""), "completion": text, "completions": [text],
            "mapped_output": mapped, "references": refs, "stats": stats, "correct": correct, "prob": prob,
            "prob_normalised": float("nan"), "prob_source": source,
            "logprob": logprob_stat if logprob_stat is not None else float("nan"),
            "annotations": _annotations(p.get("annotations")),
        })
    if method.startswith("multiple_choice_separate"):
        # HELM's summarize keeps only the chosen option's prediction; older versions wrote one per option.
        keep = []
        for r in rows:
            pi = r["stats"].get("predicted_index")
            if pi is None or math.isnan(pi) or r["reference_index"] is None or r["reference_index"] == pi:
                keep.append(r)
        rows = keep
    return rows


def instance_confidences(instances: pd.DataFrame, *, perturbation: str | None = "", split: str | None = None,
                         normalised: bool = False) -> pd.DataFrame:
    """The (prob, correct) frame for a reliability diagram: one row per (instance, seed) with a probability,
    from the original (unperturbed) instances by default; `split` limits to one split (None = all);
    `normalised=True` uses `prob_normalised` (multiple_choice_joint with top_logprobs) instead of `prob`.
    `correct` is 0/1 (int). Rows without a probability (no log-probabilities) are left out."""
    col = "prob_normalised" if normalised else "prob"
    df = instances
    if perturbation is not None:
        df = df[df["perturbation"] == perturbation]
    if split is not None:
        df = df[df["split"] == split]
    df = df[df[col].notna() & df["correct"].notna()]
    # multiple_choice_separate runs hold one request state per reference: one row per instance and seed.
    df = df.drop_duplicates(["instance_id", "train_trial_index", "perturbation"])
    # A probability outside [0, 1] is not one: left out and counted, never clipped into range.
    prob = df[col].astype(float).to_numpy()
    bad = validity.out_of_range(prob, 0.0, 1.0)
    out = pd.DataFrame({"prob": prob[~bad], "correct": df["correct"].astype("int64").to_numpy()[~bad]})
    if bad.any():
        out.attrs["left_out"] = int(bad.sum())
    return out


def search_instances(instances: pd.DataFrame, text: str) -> pd.DataFrame:
    """Rows whose input, prompt, completion or references contain `text` (case-insensitive, literal)."""
    t = (text or "").strip().lower()
    if not t:
        return instances
    refs = instances["references"].map(lambda rs: "\n".join(r["text"] for r in rs) if isinstance(rs, list) else "")
    hay = (instances["input"].fillna("") + "\n" + instances["prompt"].fillna("") + "\n"
           + instances["completion"].fillna("") + "\n" + refs).str.lower()
    return instances[hay.str.contains(t, regex=False)]


def filter_instances(instances: pd.DataFrame, seed: int | None = None, perturbation: str | None = None,
                     text: str = "") -> pd.DataFrame:
    """Instances of one seed (None = all) and perturbation (None = all, "" = original), then `search_instances`."""
    df = instances
    if seed is not None:
        df = df[df["train_trial_index"] == seed]
    if perturbation is not None:
        df = df[df["perturbation"] == perturbation]
    return search_instances(df, text).reset_index(drop=True)


def instance_stats_table(stats: Mapping[str, float]) -> pd.DataFrame:
    """A per-instance stats dict as a (stat, value) table, in HELM's order."""
    return pd.DataFrame([{"stat": k, "value": v} for k, v in stats.items()], columns=["stat", "value"])


def describe_prob(row: Mapping[str, Any]) -> str:
    """One sentence saying what the probability shown for an instance is."""
    src = row.get("prob_source") or ""
    if not src:
        return "No probability: the model returned no log-probabilities for this run (every logprob is 0)."
    if src == "logprob of the chosen letter":
        return "exp(log-probability) of the answer letter the model wrote."
    if src == "logprob of the completion":
        return "exp(log-probability) of the whole completion (HELM's max_prob)."
    return "HELM's per-instance max_prob statistic."
