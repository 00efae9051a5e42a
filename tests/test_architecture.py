"""The layers only look down: views → services → models → pure cores, with no import circles.

The import graph of clubsite/, tournaments/ and laws/ is read with ``ast`` (no import runs):
every ``import`` and ``from … import`` counts, at module level and inside functions, because
an import moved into a function is how a circle is usually hidden, and it still ties the two
modules together. Only imports under ``if TYPE_CHECKING:`` are left out (they never run).

A failure names the circle or the arrow pointing up; docs/architecture.md says where each
kind of code belongs. Needs no database.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("clubsite", "tournaments", "laws")

# exports, imports and PDFs read an event through the snapshot and write through these
# services only; everything else of services is out of their reach.
OUTER_SERVICES_ALLOWED = {
    "tournaments.services.snapshot",  # the one read of an event (frozen dataclasses)
    "tournaments.services.errors",  # the error type a service raises
    "tournaments.services.boards",  # dealer files check their boards as PBN imports do
    "tournaments.services.setup",  # imports create the tournament and its sessions
    "tournaments.services.registration",  # … and register its entries
    "tournaments.services.entry",  # imports write results the way a table does
    "tournaments.services.result_checks",  # … checked and scored as a table's are
    "tournaments.services.board_states",  # … and settle each one's board state as writers do
    "tournaments.services.classification",  # imports classify what they wrote
    "tournaments.services.file_record",  # … and keep the file's figures as of record
    "tournaments.services.team_events",  # imports start a teams event
    "tournaments.services.team_schedule",  # … lay out its rounds and matches
    "tournaments.services.team_matches",  # … and compare both rooms of a board
    "tournaments.services.printing",  # set-up cards: what a table card shows
    "tournaments.services.individual",  # set-up cards of an individual event
    "tournaments.services.board_visibility",  # the results PDF hides unplayed boards
    "tournaments.services.bridge_words",  # seats and lines in the reader's language
    "tournaments.services.board_words",  # contracts, leads and deals as shown (pure)
    "tournaments.services.adjustments",  # an adjusted score described as the pages do
}


# Debt being paid off: the circles and upward arrows that existed when this test was written.
# The tests fail on any circle or arrow not listed here, and on a listed one that is gone (so
# the list only shrinks). Empty means the layers hold.
KNOWN_CYCLES: list[set[str]] = []
KNOWN_UPWARD: set[str] = {
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _source_files():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield path


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every import statement of the module, at any depth, but not under TYPE_CHECKING."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


@cache
def import_graph() -> dict[str, set[str]]:
    """Module → the project modules it imports (the submodule when one is named)."""
    files = {_module_name(path): path for path in _source_files()}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in _imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                bases = [alias.name for alias in node.names]
                for base in bases:
                    while base and base not in files:
                        base = base.rpartition(".")[0]
                    if base:
                        targets.add(base)
                continue
            if node.level:
                package = name if is_package else name.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{node.module}" if node.module else package
            else:
                base = node.module or ""
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in files:
                    targets.add(submodule)
                elif base in files:
                    targets.add(base)
        targets.discard(name)
        graph[name] = targets
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0

    def visit(root: str) -> None:
        nonlocal counter
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(components)


def _layer(module: str) -> str | None:
    """The layer of a tournaments module: its first sub-package or top-level module name."""
    parts = module.split(".")
    if parts[0] != "tournaments" or len(parts) < 2:
        return None
    return parts[1]


def _all_violations(rule) -> list[str]:
    graph = import_graph()
    return sorted(
        f"{source} → {target}"
        for source, targets in graph.items()
        for target in targets
        if rule(source, target)
    )


def _violations(rule) -> list[str]:
    """The arrows breaking ``rule`` that are not known debt, and known debt now gone."""
    found = _all_violations(rule)
    return [a for a in found if a not in KNOWN_UPWARD]


def test_the_graph_sees_function_level_imports():
    """The measure itself: an import inside a function is an edge like any other."""
    graph = import_graph()
    assert "tournaments.models" in graph["tournaments.services.classification"]
    assert len(graph) > 100


def test_no_import_circles():
    cycles = find_cycles(import_graph())
    new = [c for c in cycles if set(c) not in KNOWN_CYCLES]
    assert not new, "import circles (each a set of modules reaching each other):\n" + "\n".join(
        " ↔ ".join(cycle) for cycle in new
    )
    gone = [sorted(k) for k in KNOWN_CYCLES if sorted(k) not in cycles]
    assert not gone, f"no longer circles, remove from KNOWN_CYCLES: {gone}"


def test_known_upward_arrows_still_exist():
    """The debt list only shrinks: an arrow fixed is taken off it."""
    graph = import_graph()
    gone = [a for a in KNOWN_UPWARD if a.split(" → ")[1] not in graph.get(a.split(" → ")[0], ())]
    assert not gone, f"fixed, remove from KNOWN_UPWARD: {gone}"


def test_pure_cores_import_only_themselves():
    """scoring and movements import neither Django nor any other project package."""
    cores = ("tournaments.scoring", "tournaments.movements")

    def rule(source, target):
        core = next((c for c in cores if source == c or source.startswith(c + ".")), None)
        return core is not None and not (target == core or target.startswith(core + "."))

    assert not _violations(rule)
    for source in _source_files():
        name = _module_name(source)
        if not name.startswith(cores):
            continue
        for node in _imports(ast.parse(source.read_text())):
            modules = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""] if not node.level else []
            )
            assert not any(m.split(".")[0] == "django" for m in modules), f"{name} imports django"


def test_models_look_only_down():
    """Models never import services, views, forms, files in or out, PDFs, jobs or tasks."""
    upper = {"services", "views", "forms", "exports", "imports", "pdf", "jobs", "tasks",
             "documents"}
    assert not _violations(
        lambda s, t: _layer(s) == "models" and _layer(t) in upper
    ), _violations(lambda s, t: _layer(s) == "models" and _layer(t) in upper)


def test_services_never_import_views_or_forms():
    def rule(source, target):
        return _layer(source) == "services" and _layer(target) in {"views", "forms", "urls"}

    assert not _violations(rule), _violations(rule)


def test_services_never_import_files_in_or_out_or_pdfs():
    """Services sit under exports, imports, PDFs and jobs: they never call them back."""

    def rule(source, target):
        return _layer(source) == "services" and _layer(target) in {
            "exports", "imports", "pdf", "jobs", "tasks",
            "documents",
        }

    assert not _violations(rule), _violations(rule)


def test_exports_imports_and_pdfs_use_services_only_through_the_allow_list():
    outer = {"exports", "imports", "pdf"}

    def rule(source, target):
        return (
            _layer(source) in outer
            and _layer(target) == "services"
            and target not in OUTER_SERVICES_ALLOWED
        )

    assert not _violations(rule), _violations(rule)


def test_files_out_never_import_the_jobs_that_run_them():
    """Writers and renderers take the event's snapshot; the jobs (and ``documents``) build it
    and call them, never the other way round."""

    def rule(source, target):
        return _layer(source) in {"exports", "pdf",
                                  "notation"} and _layer(
            target) in {"jobs", "tasks", "documents"}

    assert not _violations(rule), _violations(rule)


def test_the_snapshot_is_plain_data():
    """``services.snapshot`` imports no service (only the models' choices), so whatever reads
    it reaches no service through it; only ``services.snapshot_build`` makes one."""
    graph = import_graph()
    assert {t for t in graph["tournaments.services.snapshot"]
            if t.startswith("tournaments.services")} == set()
    builders = {s for s, targets in graph.items() if "tournaments.services.snapshot_build"
                in targets}
    assert builders <= {"tournaments.documents", "tournaments.jobs"}, builders


def test_files_out_stand_outside_every_circle():
    """Exporting results or making their PDF cannot lead back to itself: no writer, renderer,
    job or snapshot module is part of an import circle."""
    outer = {"exports", "pdf", "documents", "jobs", "tasks"}
    caught = [m for cycle in find_cycles(import_graph()) for m in cycle
              if _layer(m) in outer or m.startswith("tournaments.services.snapshot")]
    assert not caught, caught


def test_nothing_below_views_imports_views():
    def rule(source, target):
        return source.split(".")[0] == "tournaments" and _layer(source) != "views" and (
            _layer(target) == "views" and _layer(source) not in {"urls", None}
        )

    assert not _violations(rule), _violations(rule)


MAX_MODULE_LINES = 400


def test_no_module_grows_over_400_lines():
    """A module a person can read in one sitting: none of clubsite/, tournaments/ or laws/
    (migrations aside, which Django writes) is longer than 400 lines; a longer one is split
    by what it is about, as docs/architecture.md describes."""
    long = {str(path.relative_to(ROOT)): lines for path in _source_files()
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not long, f"over {MAX_MODULE_LINES} lines, split them: {long}"


if __name__ == "__main__":  # python tests/test_architecture.py: today's circles and arrows
    for cycle in find_cycles(import_graph()):
        print("CYCLE:", " ↔ ".join(cycle))
