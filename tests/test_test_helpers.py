"""The tests' own helpers are written once: a helper two test files need lives in tests/helpers/ and is imported.

Every module-level function and class of a test file (tests/**/test_*.py) counts, except tests, fixtures and
private names; none may be defined in another test file, nor in tests/helpers/ or the sample game (tests/race_game/).
The helper modules themselves are namespaces, one a game, so tests.helpers.korona.table and
tests.helpers.crusader.table may share a name."""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).parent


def is_fixture(node: ast.AST) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in getattr(node, "decorator_list", ()))


def defined_names(path: Path) -> set[str]:
    """The module-level functions and classes of a file, leaving out tests, fixtures and private names."""
    return {node.name for node in ast.parse(path.read_text(), str(path)).body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and not node.name.startswith(("test_", "Test", "_")) and not is_fixture(node)}


def test_no_helper_is_defined_in_more_than_one_test_file():
    test_files = sorted(TESTS.rglob("test_*.py"))
    shared = sorted(set(TESTS.rglob("*.py")) - set(test_files) - set(TESTS.rglob("conftest.py")))
    assert len(test_files) > 50 and any(p.parent.name == "helpers" for p in shared)
    where = defaultdict(list)
    for path in test_files:
        for name in defined_names(path):
            where[name].append(str(path.relative_to(TESTS)))
    for path in shared:
        for name in defined_names(path):
            if name in where:
                where[name].append(str(path.relative_to(TESTS)))
    twice = {name: files for name, files in where.items() if len(files) > 1}
    assert not twice, f"defined in more than one test file (share it from tests/helpers/, or rename): {twice}"


def test_no_test_file_imports_another_test_file():
    """A helper one test file shares with another is in tests/helpers/, not imported from that test file."""
    imported = {f"{path.relative_to(TESTS)}: {node.module}" for path in sorted(TESTS.rglob("test_*.py"))
                for node in ast.walk(ast.parse(path.read_text(), str(path)))
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1].startswith("test_")}
    assert not imported, f"import these from tests/helpers/: {sorted(imported)}"
