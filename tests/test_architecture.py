"""The house rules, checked on docgen's own source: imports run one way (top to bottom,
no circle, counting imports inside functions), modules stay small, long functions say why.

The layers, bottom first; a module may import its own layer and the layers below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import REPO

PACKAGE = REPO / "docgen"
LAYERS = [
    {"errors", "setting_values", "settings_file", "config", "discovery", "heap", "parallel"},
    {"io"},
    {"vllm"},
    {"registry"},
    {"navigation", "nav_regions", "nav_slugs", "redirects"},
    {"render"},
    {"changelog"},
    {
        "export",
        "overview",
        "nav_output",
        "provenance",
        "outputs",
        "prestage",
        "incremental",
        "inputs",
        "units",
        "plan",
        "changes",
        "sync",
        "cache",
        "outputs_check",
        "page_variants",
        "drift_diff",
        "blame",
        "stamps",
    },
    {"verbs", "report"},
    {"integrations", "terminal", "usage_errors"},
    {"cli"},
    {"console", "__main__"},
]
#: Generated from the schema by scripts/build_schema_check.py, not written by hand.
GENERATED = {"docgen/registry/_schema_check.py"}
MAX_MODULE_LINES = 350
MAX_FUNCTION_LINES = 40
#: What a longer function carries to say why it is long.
LONG_MARK = "# long:"


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name (``docgen.render.mdx``)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The docgen modules ``path`` imports when it runs (at the top or inside a function;
    imports only for type checkers are left out: they never run)."""
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:  # `from docgen.x import y`: y may be a module
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in known and m != name}


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {name: imports(path, name, known) for name, path in mods.items()}


def layer_of(name: str) -> int:
    """The layer of a module, by its first name below ``docgen``."""
    parts = name.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    for number, layer in enumerate(LAYERS):
        if top in layer:
            return number
    raise AssertionError(f"{name} is in no layer: add its package to LAYERS")


def test_every_module_is_in_a_layer():
    for name in modules():
        if name != "docgen":
            layer_of(name)


def test_imports_run_downward():
    upward = [
        f"{name} (layer {layer_of(name)}) imports {target} (layer {layer_of(target)})"
        for name, targets in graph().items()
        if name != "docgen"
        for target in sorted(targets)
        if target != "docgen" and layer_of(target) > layer_of(name)
    ]
    assert upward == []


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            connect(node)
    return found


def test_no_import_circle_counting_imports_inside_functions():
    assert cycles(graph()) == []


def test_the_circle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_import_reader_counts_imports_inside_functions(tmp_path):
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from docgen import b\n"
        "def f():\n    from docgen.c import x\n    import docgen.d\n"
    )
    known = {"docgen.b", "docgen.c", "docgen.d", "docgen.m"}
    assert imports(source, "docgen.m", known) == {"docgen.c", "docgen.d"}


@pytest.mark.parametrize("name", sorted(modules()))
def test_modules_are_small(name):
    path = modules()[name]
    if path.relative_to(REPO).as_posix() in GENERATED:
        return
    lines = len(path.read_text("utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(REPO)} has {lines} lines"


def long_functions(path: Path, base: Path = REPO) -> list[str]:
    """Functions over the limit that do not say why (a ``# long:`` comment in them)."""
    text = path.read_text("utf-8")
    lines = text.splitlines()
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            body = lines[first - 1 : node.end_lineno]
            if len(body) > MAX_FUNCTION_LINES and not any(LONG_MARK in ln for ln in body):
                found.append(f"{path.relative_to(base)}:{node.lineno} {node.name} ({len(body)})")
    return found


def test_long_functions_say_why():
    found = [
        f
        for path in modules().values()
        if path.relative_to(REPO).as_posix() not in GENERATED
        for f in long_functions(path)
    ]
    assert found == []


def test_the_function_length_rule_bites(tmp_path):
    source = tmp_path / "m.py"
    body = "\n".join(f"    x{n} = {n}" for n in range(45))
    short = "\n".join(f"    y{n} = {n}" for n in range(30))
    source.write_text(
        f"def f():\n{body}\n\ndef g():\n    # long: a table\n{body}\n\ndef h():\n{short}\n"
    )
    assert long_functions(source, tmp_path) == ["m.py:1 f (46)"]
