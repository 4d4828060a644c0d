"""Benchmarks for the critique pages' helpers (helm_core.limits_evidence, content, bibtex) on the bundled release.

The heaviest is `model_set_effect`: one win-rate recomputation per set of rivals (four sets at 67 models). Run alone
with `python -m bench.bench_critique`, or through `python -m bench.run`.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from bench.common import timed_ms as _timed  # noqa: E402


def bench(repeat: int) -> dict[str, float]:
    from helm_core import bibtex, content, critique, limits_evidence as le, references, studies
    from helm_core.data import load_release

    rel = load_release()
    models = tuple(rel.model_names)
    refs = references.load_references()
    return {
        "critique_blank_cells_67_ms": _timed(lambda: le.blank_cells_by_group(rel, models), repeat),
        "critique_model_set_effect_67_ms": _timed(
            lambda: le.model_set_effect(rel, "Cohere xlarge v20220609 (52.4B)", models), repeat),
        "critique_seed_ranges_67_ms": _timed(lambda: le.seed_ranges(rel, models), repeat),
        "critique_contamination_67_ms": _timed(lambda: le.contamination_cells(rel, models), repeat),
        "critique_load_content_ms": _timed(lambda: (critique.load_steps(), studies.load_studies(),
                                                    critique.load_threads(), references.load_references()), repeat),
        "critique_bibtex_ms": _timed(lambda: bibtex.bibtex(refs.references), repeat),
    }


if __name__ == "__main__":
    for k, v in bench(5).items():
        print(f"{k:40s} {v:8.2f} ms")
