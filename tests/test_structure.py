"""The house rules a newcomer relies on: no source file over 600 lines, and no import circle among the app's own
modules (counting the imports made inside functions, which hide a circle from Python but not from a reader).

The live-room layer sits above the presenter layer: ui.rooms and ui.showtime may import ui.presenter, never the
other way round, and the shared page pieces (ui.components) import neither.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("app_pages", "ui", "helm_core", "bench", "scripts")
MAX_LINES = 600


def _sources() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")) + [ROOT / "Home.py"]


def _module_name(path: Path, root: Path = ROOT) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, known: set[str], root: Path) -> set[str]:
    """The project modules `path` imports anywhere in its body (top level or inside a function)."""
    name = _module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)] if package else []
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        else:
            continue
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    known = {_module_name(p, root) for p in paths}
    graph = {_module_name(p, root): _imports(p, known, root) for p in paths}
    # a package itself is not an edge of interest: `from ui import x` names the module x, not ui
    packages = {m for m in known if any(k.startswith(m + ".") for k in known)}
    return {m: deps - packages for m, deps in graph.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted, as a list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


@pytest.mark.parametrize("graph, expected", [
    ({"a": {"b"}, "b": set()}, []),
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set(), "x": {"y"}, "y": {"x"}}, [["x", "y"]]),
])
def test_cycles_finds_each_circle(graph, expected):
    assert cycles(graph) == expected


def test_the_import_graph_sees_imports_inside_functions(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("from . import b\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from . import a\n    return a\n")
    graph = import_graph(sorted((tmp_path / "pkg").glob("*.py")), root=tmp_path)
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.a"}}
    assert cycles(graph) == [["pkg.a", "pkg.b"]]


def test_no_source_file_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in _sources()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these by responsibility (at most {MAX_LINES} lines each): {long}"


def test_no_import_circle():
    assert cycles(import_graph(_sources())) == []


def test_the_live_room_layer_sits_above_the_presenter_layer():
    graph = import_graph(_sources())
    live = {"ui.rooms", "ui.room_protocol", "ui.showtime"}
    assert "ui.presenter" in graph["ui.showtime"]  # the direction that is allowed, so the check below means something
    for lower in ("ui.presenter", "ui.components", "ui.layout", "ui.slides", "ui.cache", "ui.viewport"):
        assert not graph[lower] & live, f"{lower} imports the live-room layer: {sorted(graph[lower] & live)}"
    assert "ui.presenter" not in graph["ui.components"]
