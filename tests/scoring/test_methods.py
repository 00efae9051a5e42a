"""The scoring methods have one source of truth: ``tournaments.scoring.methods``.

The model's choices list exactly the registry's codes (in its order, with its default); each
method's USEBIO and PBN names are unique and read back as the method the writers wrote them
for; and no module outside the registry (and the migrations) spells a method's code or file
name as a bare string, so a new method is added in the registry and nowhere else but its
translated label. Needs no database.
"""

from __future__ import annotations

import ast
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import pytest

from tournaments.exports import pbn, usebio
from tournaments.imports.usebio_parse import pairs_method
from tournaments.imports.usebio_rows import MARK_TAGS
from tournaments.imports.usebio_teams_parse import match_method
from tournaments.models import EventType, ScoringMethod, Tournament
from tournaments.scoring import methods

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = ROOT / "tournaments" / "scoring" / "methods.py"


def _info(m: methods.Method) -> SimpleNamespace:
    """What the writers read of a tournament (``snapshot.EventInfo``), for method ``m``."""
    return SimpleNamespace(
        scoring_method=m.code,
        is_swiss=False,
        event_type=EventType.TEAMS if m.is_teams else EventType.PAIRS,
    )


def test_the_choices_are_the_registry():
    assert [value for value, _label in ScoringMethod.choices] == list(methods.codes())
    assert all(str(label) for _value, label in ScoringMethod.choices)
    assert Tournament._meta.get_field("scoring_method").default == methods.DEFAULT.code
    assert methods.BY_CODE == {m.code: m for m in methods.METHODS}


def test_each_tournament_reads_its_method_from_the_registry():
    for code in methods.codes():
        assert Tournament(scoring_method=code).method is methods.BY_CODE[code]
    assert methods.method("no such method") is methods.DEFAULT


def test_the_facts_agree_with_each_other():
    for m in methods.METHODS:
        assert m.is_pair_imps == (not m.is_teams and m.board_scoring == "imps"), m.code
        assert (m.ranked_by == "matchpoints") == m.is_matchpoints, m.code
        assert bool(m.usebio_event_type) == bool(m.usebio_mark_tag) == (not m.is_teams), m.code
        assert m.usebio_scoring in m.usebio_scoring_words, m.code
        if m.usebio_event_type:
            assert m.usebio_event_type in m.usebio_event_types, m.code


@pytest.mark.parametrize(
    "names",
    [
        lambda m: [m.code],
        lambda m: [m.pbn_scoring],
        lambda m: list(m.usebio_event_types),
        lambda m: [m.usebio_mark_tag] if m.usebio_mark_tag else [],
    ],
)
def test_names_are_unique(names):
    every = [name for m in methods.METHODS for name in names(m)]
    assert len(every) == len(set(every)), every


def test_usebio_scoring_words_are_unique_per_kind_of_event():
    for players in ("pairs", "teams"):
        every = [w for m in methods.METHODS if m.players == players for w in m.usebio_scoring_words]
        assert len(every) == len(set(every)), every


@pytest.mark.parametrize("m", methods.METHODS, ids=lambda m: m.code)
def test_each_method_round_trips_through_usebio(m):
    """What the USEBIO writer names a method is read back as that method."""
    event = ET.Element("EVENT")
    if m.is_teams:
        ET.SubElement(event, "MATCH_SCORING_METHOD").text = usebio.usebio_scoring(_info(m))
        assert match_method(event) == m.code
        return
    kind = usebio.event_type(_info(m))
    assert kind == m.usebio_event_type
    assert pairs_method(event, kind) == m.code  # by EVENT_TYPE alone
    ET.SubElement(event, "BOARD_SCORING_METHOD").text = usebio.usebio_scoring(_info(m))
    assert pairs_method(event, "PAIRS") == m.code  # by the scoring method, over the type
    assert m.usebio_mark_tag in MARK_TAGS


@pytest.mark.parametrize("m", methods.METHODS, ids=lambda m: m.code)
def test_each_method_has_its_pbn_name(m):
    assert pbn.pbn_scoring(_info(m), "?") == m.pbn_scoring
    assert pbn.pbn_scoring(SimpleNamespace(scoring_method="no such method"), "?") == "?"


# --- no bare method codes or file names outside the registry --------------------------------

# Every string that names a method: its code, its pairs-IMP form and its USEBIO/PBN names.
METHOD_WORDS = {
    word
    for m in methods.METHODS
    for word in (
        m.code,
        m.pbn_scoring,
        m.usebio_event_type,
        m.usebio_scoring,
        m.usebio_mark_tag,
        *m.usebio_event_types,
        *m.usebio_scoring_words,
    )
    if word and word != "PAIRS"  # USEBIO's type of any pairs file, not a method's name
} | {methods.BUTLER_FORM}

# The same spelling meaning something else, file by file (each with what it is).
OTHER_MEANINGS: dict[str, set[str]] = {
    # TeamScoring: how a team match is scored, a column of its own
    "tournaments/models/teams.py": {"vps", "imps"},
    # a movement's kind (the Butler movement), not a scoring method
    "tournaments/movements/__init__.py": {"butler"},
    "tournaments/movements/howell.py": {"butler"},
    "tournaments/movements/teams.py": {"butler"},
    # the names the scoring package exports (functions matchpoints, imps, cross_imps)
    "tournaments/scoring/__init__.py": {"matchpoints", "imps", "cross_imps"},
    # the memo's tag for a board's IMP marks; the imported file's convention "cross_imps"
    # (how its cross-IMP marks are formed: averaged, summed or factored)
    "tournaments/services/classification/session_scores.py": {"imps", "cross_imps"},
    # the columns of a pair's matches (PairMatch rows): IMPs and VPs won
    "tournaments/services/results/scorecards.py": {"imps", "vps"},
    # how a knockout match was decided (on IMPs, or a tie-break)
    "tournaments/services/teams/knockout_bracket.py": {"imps"},
}


def _exempt_nodes(tree: ast.AST) -> set[int]:
    """Strings that are names, not values: dict keys, subscripts, ``__all__`` and the
    translated labels (``_("Butler")``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            out.update(id(k) for k in node.keys if k is not None)
        elif isinstance(node, ast.Subscript):
            out.add(id(node.slice))
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            out.update(id(n) for n in ast.walk(node.value))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"_", "gettext", "gettext_lazy", "pgettext", "ngettext"}
        ):
            out.update(id(n) for n in ast.walk(node))
    return out


def bare_method_words(text: str, where: str) -> list[str]:
    """The method words ``text`` (the module ``where``, relative to the root) spells bare."""
    tree = ast.parse(text, where)
    exempt = _exempt_nodes(tree)
    allowed = OTHER_MEANINGS.get(where, set())
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in METHOD_WORDS
        and node.value not in allowed
        and id(node) not in exempt
    ]
    return [
        f"{where}:{node.lineno}: {node.value!r}"
        for node in sorted(found, key=lambda n: (n.lineno, n.col_offset))
    ]


def _sources():
    for package in ("tournaments", "clubsite"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts and path != REGISTRY:
                yield path


def test_no_bare_method_codes_outside_the_registry():
    found = [
        hit
        for path in _sources()
        for hit in bare_method_words(path.read_text(), path.relative_to(ROOT).as_posix())
    ]
    assert not found, (
        "read these from tournaments.scoring.methods (or, if the word means "
        "something else there, add it to OTHER_MEANINGS):\n" + "\n".join(found)
    )


def test_the_search_finds_a_bare_code():
    """The measure itself: a comparison with a code and a file name written out are caught,
    a dict key and a translated label are not, nor a word a file says means something else."""
    text = 'IS_IMP = method == "butler"\nLABELS = {"butler": _("Butler")}\nWRITE = "IMP;Cross"\n'
    assert bare_method_words(text, "x.py") == ["x.py:1: 'butler'", "x.py:3: 'IMP;Cross'"]
    assert bare_method_words('KIND = "butler"\n', "tournaments/movements/howell.py") == []
