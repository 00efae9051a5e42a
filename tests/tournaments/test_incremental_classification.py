"""Re-classifying after a director's change writes only the marks that changed
(``services.incremental``), and what it stores is exactly what a classification from
scratch stores: every board mark, ranking line and match, field for field.

The property test builds small Mitchells and Howells (a phantom's sit-outs are scored as
relays) scored in matchpoints, Butler or cross-IMPs, some only partly played, some with a
director's adjusted score already on them (A+ and A− follow the pair's own percentage on its
other boards), classifies them, makes one change (a corrected result, an adjusted score, a
removed result, a procedural penalty), and classifies again incrementally; then it forgets
what the process kept, classifies from scratch and compares.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from unittest import mock

import pytest
from django.db import transaction
from django.test import TestCase
from hypothesis import given, reject, settings
from hypothesis import strategies as st
from pair_sessions import pair_session_specs, seated_section

from tournaments import demo
from tournaments.models import (
    EntryStatus,
    Result,
    ResultStatus,
    Session,
    StoredMark,
    StoredMatch,
    StoredRanking,
)
from tournaments.services import (
    classification,
    corrections,
    incremental,
    plan,
    setup,
)
from tournaments.services.errors import InvalidResult

pytestmark = pytest.mark.django_db

ADJUSTMENTS = [{"kind": "artificial", "ns": "A+", "ew": "A-"},
               {"kind": "artificial", "ns": "A-", "ew": "A+"},
               {"kind": "artificial", "ns": 60, "ew": 40},
               {"kind": "artificial", "ns": 50, "ew": 50},
               {"kind": "split", "ns_score": 420, "ew_score": -50},
               {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]},
               {"kind": "not_played", "reason": "player_fault"},
               {"kind": "not_played", "reason": "organisation"}]
CONTRACTS = [("3NT", "N"), ("4S", "E"), ("2H", "S"), ("1NT", "W"), ("PASS", ""),
             ("6DX", "N")]


@st.composite
def sessions(draw):
    return draw(pair_session_specs()) | {
        "played_rounds": draw(st.none() | st.integers(min_value=1, max_value=3)),
        "adjusted": draw(st.lists(st.tuples(st.integers(min_value=0, max_value=99),
                                            st.sampled_from(ADJUSTMENTS)), max_size=3)),
    }


CHANGES = st.one_of(
    st.tuples(st.just("correct"), st.integers(min_value=0, max_value=99),
              st.sampled_from(CONTRACTS), st.integers(min_value=6, max_value=13)),
    st.tuples(st.just("adjust"), st.integers(min_value=0, max_value=99),
              st.sampled_from(ADJUSTMENTS)),
    st.tuples(st.just("remove"), st.integers(min_value=0, max_value=99)),
    st.tuples(st.just("penalty"), st.integers(min_value=0, max_value=99),
              st.sampled_from(["0.25", "0.5", "1"])),
)


def _build(spec: dict):
    rng = random.Random(spec["seed"])
    section = seated_section(spec, name="Incremental", licences="I")
    session = section.session
    setup.start_session(session)
    demo.play_rounds(section, rng, rounds=spec["played_rounds"])
    for index, adjustment in spec["adjusted"]:
        _adjust(section, index, adjustment)
    return section


def _slots(section):
    return [s for s in plan.slots(section.movement) if s.ns is not None and s.ew is not None]


def _adjust(section, index: int, adjustment: dict) -> None:
    slot = _slots(section)[index % len(_slots(section))]
    board = slot.boards[index % len(slot.boards)] + section.board_offset
    try:
        corrections.adjust_score(user=None, section=section, round=slot.round,
                                 table=slot.table, board=board, adjustment=adjustment,
                                 reason="Generated.", law="12C2")
    except InvalidResult:
        pass  # a shape this scoring refuses (a percentage in an IMP event): not awarded


def _change(section, change: tuple) -> None:
    kind, index = change[0], change[1]
    results = list(Result.objects.filter(section=section, status=ResultStatus.OK)
                   .order_by("pk"))
    if kind == "adjust":
        before = [(r.pk, r.adjustment) for r in results]
        _adjust(section, index, change[2])
        if [(r.pk, r.adjustment) for r in Result.objects.filter(
                section=section, status=ResultStatus.OK).order_by("pk")] == before:
            reject()
        return
    if kind == "penalty":
        corrections.add_penalty(user=None, entry=_entry(section, index), session=section.session,
                                fraction_of_top=change[2], reason="Generated.")
        return
    if not results:
        reject()
    result = results[index % len(results)]
    if kind == "remove":
        corrections.remove_result(result, user=None, reason="Generated.")
        return
    contract, declarer = change[2]
    corrections.correct_result(result, user=None, contract=contract, declarer=declarer,
                               tricks=change[3], reason="Generated.")


def _entry(section, index: int):
    seats = list(section.seatings.select_related("entry").order_by("entry_id"))
    return seats[index % len(seats)].entry


def stored(session: Session) -> dict[str, list]:
    """Every stored row of the session, without its id and version (compared apart)."""

    def rows(model, *fields):
        return sorted(model.objects.filter(session=session).values_list(*fields), key=repr)

    return {
        "marks": rows(StoredMark, "section_id", "board_number", "entry_id", "direction",
                      "opponent_id", "result_id", "mark", "percentage", "kind"),
        "rankings": rows(StoredRanking, "tournament_id", "section_id", "scope", "pool",
                         "direction", "entry_id", "number", "names", "place", "tied",
                         "decided_by", "points", "maximum", "percentage", "exact", "boards"),
        "matches": rows(StoredMatch, "section_id", "entry_id", "round", "opponent_id", "imps",
                        "boards", "vps"),
    }


def versions(session: Session) -> set[int]:
    return {v for model in (StoredMark, StoredRanking, StoredMatch)
            for v in model.objects.filter(session=session).values_list("version", flat=True)}


def classify(session: Session):
    """Classify as a committed request would: what the process keeps is recorded."""
    outcomes = []
    store_marks = incremental.store_marks

    def spy(*args, **kwargs):
        outcomes.append(store_marks(*args, **kwargs))
        return outcomes[-1]

    with mock.patch.object(incremental, "store_marks", spy), \
            TestCase.captureOnCommitCallbacks(execute=True):
        version = classification.classify_session(session)
    assert len(outcomes) == 1
    return version, outcomes[0]


@pytest.fixture(autouse=True)
def _nothing_kept():
    incremental.forget()
    yield
    incremental.forget()


@settings(max_examples=40, deadline=None)
@given(sessions(), CHANGES)
def test_incremental_classification_stores_exactly_what_a_full_one_does(spec, change):
    with transaction.atomic():
        section = _build(spec)
        session = section.session
        classify(session)
        _change(section, change)
        # every mark may be redone: the property is about the rows, not the share
        with mock.patch.object(incremental, "REWRITE_ALL_SHARE", 2):
            version, groups = classify(session)
        assert groups is not None, "the kept classification was not used"
        assert versions(session) == {version}
        full_version, full_groups = same_as_from_scratch(session)
        assert full_groups is None and full_version == version + 1
        transaction.set_rollback(True)


# --- the plain cases ------------------------------------------------------------------------


def same_as_from_scratch(session: Session):
    """Forget what the process kept and classify from scratch: every stored row must be what
    the classification before left. Returns that full classification's (version, groups)."""
    after = stored(session)
    incremental.forget()
    outcome = classify(session)
    assert stored(session) == after
    return outcome


def _played(mitchell_session):
    demo.play_rounds(mitchell_session, random.Random(5))
    return mitchell_session


def test_one_corrected_result_rewrites_only_its_board(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    result = Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk")[3]
    corrections.correct_result(result, user=None, contract="7NT", declarer="N", tricks=13,
                               reason="Wrong entry.")
    marks_before = dict(StoredMark.objects.filter(session=session).exclude(
        board_number=result.board.number).values_list("pk", "mark"))
    version, groups = classify(session)
    assert groups == [(section.pk, result.board.number)]
    # the other boards' rows are the same rows, moved to the new version
    assert dict(StoredMark.objects.filter(session=session, pk__in=marks_before)
                .values_list("pk", "mark")) == marks_before
    assert versions(session) == {version}
    same_as_from_scratch(session)


def test_nothing_kept_replaces_every_mark(mitchell_session):
    section = _played(mitchell_session)
    classify(section.session)
    incremental.forget(section.session_id)
    assert classify(section.session)[1] is None


def test_a_classification_stored_elsewhere_is_not_diffed_against(mitchell_session):
    """Another process (the worker) classified since: this process's memory is stale."""
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    with mock.patch.object(incremental, "_kept", OrderedDict()):  # as if in another process
        assert classify(session)[1] is None
    assert classify(session)[1] is None
    assert classify(session)[1] == []  # now it wrote the last one itself


def test_a_rolled_back_classification_is_not_remembered(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    result = Result.objects.filter(section=section, status=ResultStatus.OK).first()
    corrections.correct_result(result, user=None, contract="7NT", declarer="N", tricks=13,
                               reason="Wrong entry.")
    with pytest.raises(RuntimeError), transaction.atomic():
        classification.classify_session(session)
        raise RuntimeError("the request failed after the classification")
    assert classify(session)[1] is not None  # still diffed against the committed one
    same_as_from_scratch(session)


def test_a_withdrawn_pair_and_a_late_seat_change_give_the_full_rows(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    seat = section.seatings.select_related("entry").order_by("entry_id").first()
    seat.entry.status = EntryStatus.WITHDRAWN
    seat.entry.save(update_fields=["status"])
    classify(session)
    same_as_from_scratch(session)


def test_many_changed_boards_replace_every_mark(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    Result.objects.filter(section=section).update(ns_score=-100)
    assert classify(session)[1] is None
    same_as_from_scratch(session)


def test_an_unchanged_session_moves_every_mark_to_the_new_version(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    before = stored(session)
    version, groups = classify(session)
    assert groups == [] and versions(session) == {version}
    assert stored(session) == before
