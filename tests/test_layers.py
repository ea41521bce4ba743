"""Herald's layers, read from its source: which package may import which, no import cycle between modules, and
eventsourcing's internals reached from store/ alone (store/__init__.py says why)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("store", "domain", "projections", "service", "replays", "bench")
# what each package must not import
FORBIDDEN = {
    "store": {"domain", "projections", "service", "replays", "bench"},
    "domain": {"projections", "service", "replays", "bench"},
    "projections": {"service"},
}
# eventsourcing's internals Herald overrides: named nowhere but in store/
INTERNALS = re.compile(r"_notify|ProcessingEvent|repository\.cache|object\.__new__")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Herald's modules a module imports, anywhere in it (a function's import too): `from a import b` is module a.b
    where that is a module, else a."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's package, or one `level - 1` packages above it
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *([base] if base else [])])
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names)
    return {module for module in found if module.split(".")[0] in PACKAGES}


def graph() -> nx.DiGraph:
    known = modules()
    edges = nx.DiGraph()
    edges.add_nodes_from(known)
    edges.add_edges_from((name, imported) for name, path in known.items() for imported in imports(path, known))
    return edges


def test_the_reader_finds_the_imports_it_judges():
    """The rules below judge what this reader finds: the imports every layer is known to make."""
    edges = graph()
    assert edges.has_edge("domain.matches", "store.application")
    assert edges.has_edge("domain.match", "store.aggregates")
    assert edges.has_edge("service.app", "domain.matches")
    assert edges.has_edge("service.app", "projections.projector")
    assert edges.has_edge("store.application", "store.sqlite")


def test_each_package_imports_only_the_layers_below_it():
    """store/ imports no other part of Herald; domain/ none of projections/, service/, replays/ or bench/;
    projections/ nothing of service/."""
    wrong = sorted((a, b) for a, b in graph().edges if b.split(".")[0] in FORBIDDEN.get(a.split(".")[0], ()))
    assert wrong == []


def test_no_module_imports_one_that_imports_it_back():
    """No cycle of imports between Herald's modules, however long."""
    assert list(nx.simple_cycles(graph())) == []


def test_eventsourcings_internals_are_reached_from_store_alone():
    """The overrides of eventsourcing's internals are all in store/, where tests/test_store_eventsourcing.py pins
    them."""
    found = [f"{path.relative_to(ROOT)}:{number}"
             for name, path in modules().items() if not name.startswith("store")
             for number, line in enumerate(path.read_text().splitlines(), 1) if INTERNALS.search(line)]
    assert found == []
    assert any(INTERNALS.search(path.read_text()) for path in (ROOT / "store").glob("*.py"))


def test_the_console_calls_the_api_operations_not_a_client():
    """Issue 44: the console calls the functions the routes call (service/console/api.py), neither Flask's test
    client nor HTTP."""
    client = re.compile(r"test_client|test_request_context|urlopen|http\.client|HTTPConnection|import requests")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "service" / "console").glob("*.py"))
             for number, line in enumerate(path.read_text().splitlines(), 1) if client.search(line)]
    assert found == []
    assert "service.routes" in imports(ROOT / "service" / "console" / "match_pages.py", modules())
