"""The layers only look down: views → services → models → pure cores, with no import circles.

The import graph of clubsite/, tournaments/, laws/ and federation/ is read with ``ast`` (no import runs):
every ``import`` and ``from … import`` counts, at module level and inside functions, because
an import moved into a function is how a circle is usually hidden, and it still ties the two
modules together. Importing a module runs its packages' ``__init__`` first, so a module also
imports every package it sits in. Only imports under ``if TYPE_CHECKING:`` are left out (they never run).

A failure names the circle or the arrow pointing up; docs/architecture.md says where each
kind of code belongs. Needs no database.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("clubsite", "tournaments", "laws", "federation")

# exports, imports and PDFs read an event through the snapshot and write through these
# services only; everything else of services is out of their reach.
OUTER_SERVICES_ALLOWED = {
    "tournaments.services.results.snapshot",  # the one read of an event (frozen dataclasses)
    "tournaments.services.errors",  # the error type a service raises
    "tournaments.services.boards.deals",  # dealer files check their boards as PBN imports do
    "tournaments.services.setup.events",  # imports create the tournament and its sessions
    "tournaments.services.entries.registration",  # … and register its entries
    "tournaments.services.table.entry",  # imports write results the way a table does
    "tournaments.services.table.result_checks",  # … checked and scored as a table's are
    "tournaments.services.table.board_states",  # … and settle each one's board state as writers do
    "tournaments.services.classification.classify",  # imports classify what they wrote
    "tournaments.services.classification.file_record",  # … and keep the file's figures as of record
    "tournaments.services.teams.team_events",  # imports start a teams event
    "tournaments.services.teams.team_schedule",  # … lay out its rounds and matches
    "tournaments.services.teams.team_matches",  # … and compare both rooms of a board
    "tournaments.services.setup.printing",  # set-up cards: what a table card shows
    "tournaments.services.setup.individual",  # set-up cards of an individual event
    "tournaments.services.results.board_visibility",  # the results PDF hides unplayed boards
    "tournaments.services.boards.bridge_words",  # seats and lines in the reader's language
    "tournaments.services.boards.board_words",  # contracts, leads and deals as shown (pure)
    "tournaments.services.running.adjustments",  # an adjusted score described as the pages do
}

# Services ask for background work by calling the one queueing module, which looks the task
# up by name and imports nothing of tournaments (so it leads back to no service); the tasks
# and jobs themselves stay out of their reach.
SERVICES_MAY_QUEUE = {"tournaments.queueing"}


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
    """The arrows breaking ``rule``, as "source → target"."""
    return _all_violations(rule)


def test_the_graph_sees_function_level_imports():
    """The measure itself: an import inside a function is an edge like any other."""
    graph = import_graph()
    assert "tournaments.models" in graph["tournaments.services.classification.classify"]
    assert len(graph) > 100


def test_no_import_circles():
    cycles = find_cycles(import_graph())
    assert not cycles, "import circles (each a set of modules reaching each other):\n" + "\n".join(
        " ↔ ".join(cycle) for cycle in cycles
    )


def test_the_circle_finder_finds_circles():
    """The measure itself, on a made-up graph: a circle of three and a lone arrow."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]


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
                else [node.module or ""]
                if not node.level
                else []
            )
            assert not any(m.split(".")[0] == "django" for m in modules), f"{name} imports django"


# The import contract of tournaments/, read from its folders: each layer (a sub-package or a
# top-level module) and the layers it may import; ``clubsite`` and ``laws`` are the other apps.
# A new folder or top-level module is on no line until it is added here, and the test fails
# until then, so every module is guarded from the day it exists.
CORES = {"scoring", "movements", "charts"}
CONTRACT: dict[str, set[str]] = {
    "scoring": set(),
    "movements": set(),
    "charts": set(),
    "models": {"clubsite", "scoring", "movements"},
    "services": {"clubsite", "laws", "models", "scoring", "movements", "queueing"},
    # the tasks services ask for, found by name: through SERVICES_MAY_QUEUE, importing nothing
    "queueing": {"clubsite"},
    # files in and out and the results PDF: through OUTER_SERVICES_ALLOWED only
    "exports": {"clubsite", "models", "scoring", "services"},
    "imports": {"clubsite", "models", "scoring", "services"},
    "pdf": {"clubsite", "models", "charts", "services"},
    # a tournament's documents: each file and PDF made from one snapshot
    "documents": {"models", "services", "exports", "pdf"},
    # background work calls everything below it; nothing below calls it back
    "jobs": {
        "clubsite",
        "models",
        "services",
        "documents",
        "exports",
        "imports",
        "pdf",
        "queueing",
    },
    "tasks": {"models", "services", "jobs"},
    "forms": {"clubsite", "models", "scoring", "services", "exports", "imports"},
    "filters": {"models", "services"},
    "tables": {"models", "services"},
    "templatetags": {"services", "pdf"},
    "views": {
        "clubsite",
        "laws",
        "models",
        "scoring",
        "movements",
        "charts",
        "services",
        "forms",
        "filters",
        "tables",
        "templatetags",
        "exports",
        "imports",
        "documents",
        "jobs",
        "tasks",
        "queueing",
    },
    "urls": {"views"},
    "admin": {"models"},
    "apps": {"tasks"},
    "management": {"models", "services", "documents", "imports"},
    "demo": {"clubsite", "models", "scoring", "movements", "services"},
}
APPS: dict[str, set[str]] = {
    "laws": {"clubsite"},
    "clubsite": set(),  # the project's urls include the other apps' by name, not by import
    "tournaments": {"clubsite", "laws"},
    # a federation's pages, above the clubs: they read every club's rows
    "federation": {"clubsite", "tournaments"},
}


def _target_layer(target: str) -> str:
    return _layer(target) or target.split(".")[0]


def test_every_layer_is_in_the_contract():
    layers = {_layer(m) for m in import_graph() if _layer(m)}
    assert layers - set(CONTRACT) == set(), "add these to CONTRACT: " + ", ".join(
        sorted(layers - set(CONTRACT))
    )
    assert set(CONTRACT) - layers == set(), f"gone, remove from CONTRACT: {set(CONTRACT) - layers}"


def test_every_import_keeps_the_contract():
    def rule(source, target):
        app, target_app = source.split(".")[0], target.split(".")[0]
        if app != target_app:
            return target_app not in APPS[app]
        layer = _layer(source)
        if layer is None:
            return False
        return _target_layer(target) != layer and _target_layer(target) not in CONTRACT[layer]

    assert not _violations(rule), _violations(rule)


def test_the_contract_is_read_from_the_graph():
    """The measure itself: an arrow the contract forbids is caught (a view imported by a
    service would be), and one it allows is not."""
    graph = import_graph()
    assert any(_layer(t) == "models" for t in graph["tournaments.services.table.entry"])
    assert "views" not in CONTRACT["services"]
    assert "tournaments.views" not in APPS["laws"]


def test_the_snapshot_is_plain_data():
    """``services.snapshot`` imports no service (only the models' choices), so whatever reads
    it reaches no service through it; only ``services.snapshot_build`` makes one."""
    graph = import_graph()
    assert {
        t
        for t in graph["tournaments.services.results.snapshot"]
        if t.startswith("tournaments.services")
    } == set()
    builders = {
        s
        for s, targets in graph.items()
        if "tournaments.services.results.snapshot_build" in targets
    }
    assert builders <= {"tournaments.documents", "tournaments.jobs"}, builders


def test_files_out_stand_outside_every_circle():
    """Exporting results or making their PDF cannot lead back to itself: no writer, renderer,
    job or snapshot module is part of an import circle."""
    outer = {"exports", "pdf", "documents", "jobs", "tasks"}
    caught = [
        m
        for cycle in find_cycles(import_graph())
        for m in cycle
        if _layer(m) in outer or m.startswith("tournaments.services.results.snapshot")
    ]
    assert not caught, caught


def test_services_queue_work_only_through_the_queueing_module():
    """A service reaches the background layer through ``SERVICES_MAY_QUEUE`` alone (never
    ``tasks`` or ``jobs``), and that module imports no tournaments module at all, so calling
    it can lead back to no service. It sits at the app's top level: a module inside a
    package runs the package's ``__init__`` first (``tournaments.jobs`` imports services), an
    import this graph does not draw."""
    graph = import_graph()

    def rule(source, target):
        return (
            _layer(source) == "services"
            and _layer(target) == "queueing"
            and target not in SERVICES_MAY_QUEUE
        ) or (_layer(source) == "services" and _layer(target) in {"jobs", "tasks"})

    assert not _violations(rule), _violations(rule)
    for module in SERVICES_MAY_QUEUE:
        assert {t for t in graph[module] if t.startswith("tournaments")} == set(), graph[module]
        assert module.count(".") == 1, f"{module} runs a package's __init__ first"


def test_the_queued_tasks_are_registered_under_their_names():
    """``queueing`` finds each task by the name Celery registered it under: a task renamed or
    moved fails here, not in a post or a correction."""
    from clubsite.celery import app
    from tournaments import queueing

    assert set(queueing.TASK_NAMES) <= set(app.tasks), set(queueing.TASK_NAMES) - set(app.tasks)


def test_exports_imports_and_pdfs_use_services_only_through_the_allow_list():
    outer = {"exports", "imports", "pdf"}

    def rule(source, target):
        return (
            _layer(source) in outer
            and _layer(target) == "services"
            and target not in OUTER_SERVICES_ALLOWED
        )

    assert not _violations(rule), _violations(rule)


MAX_FOLDER_MODULES = 20
MAX_APP_TOP_MODULES = 12


def _modules_by_folder() -> dict[Path, list[str]]:
    folders: dict[Path, list[str]] = {}
    for path in _source_files():
        if path.name != "__init__.py":
            folders.setdefault(path.parent, []).append(path.name)
    return folders


def test_no_folder_is_crowded():
    """A newcomer finds the room for a task at the first try: no folder holds more than 20
    modules and no app's top level more than 12; a crowded one is split by subject, as
    docs/architecture.md describes (never by a module's length)."""
    crowded = {
        str(folder.relative_to(ROOT)): len(names)
        for folder, names in _modules_by_folder().items()
        if len(names) > (MAX_APP_TOP_MODULES if folder.parent == ROOT else MAX_FOLDER_MODULES)
    }
    assert not crowded, f"split these folders by subject: {crowded}"
    assert len(_modules_by_folder()[ROOT / "tournaments" / "services"]) < 6


if __name__ == "__main__":  # python tests/test_architecture.py: today's circles and arrows
    for cycle in find_cycles(import_graph()):
        print("CYCLE:", " ↔ ".join(cycle))
