"""Re-classifying after a director's change reads the results changed since, scores their
boards again and writes only the rows that differ (``services.incremental``), and what it
stores is exactly what a classification from scratch stores: every board mark, ranking line
and match, field for field.

The property test builds small Mitchells and Howells (a phantom's sit-outs are scored as
relays) scored in matchpoints, Butler or cross-IMPs, some only partly played, some with a
director's adjusted score already on them (A+ and A− follow the pair's own percentage on its
other boards), classifies them, makes a few changes one after another (a corrected result,
an adjusted score, a removed result, a procedural penalty), each classified again
incrementally; then it forgets what the process kept, classifies from scratch and compares.
"""

from __future__ import annotations

import datetime
import random
from collections import OrderedDict
from unittest import mock

import pytest
from django.db import transaction
from django.test import TestCase
from django.utils import timezone
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from tests.tournaments.support.pair_sessions import pair_session_specs, seated_section
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
from tournaments.scoring import ScoringError
from tournaments.services.classification import classify as classification
from tournaments.services.classification import incremental
from tournaments.services.classification import rows as stored_rows
from tournaments.services.errors import InvalidResult
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan

pytestmark = pytest.mark.django_db

ADJUSTMENTS = [
    {"kind": "artificial", "ns": "A+", "ew": "A-"},
    {"kind": "artificial", "ns": "A-", "ew": "A+"},
    {"kind": "artificial", "ns": 60, "ew": 40},
    {"kind": "artificial", "ns": 50, "ew": 50},
    {"kind": "split", "ns_score": 420, "ew_score": -50},
    {"kind": "weighted", "outcomes": [[30, 420], [70, -50]]},
    {"kind": "not_played", "reason": "player_fault"},
    {"kind": "not_played", "reason": "organisation"},
]
CONTRACTS = [("3NT", "N"), ("4S", "E"), ("2H", "S"), ("1NT", "W"), ("PASS", ""), ("6DX", "N")]


@st.composite
def sessions(draw):
    return draw(pair_session_specs()) | {
        "played_rounds": draw(st.none() | st.integers(min_value=1, max_value=3)),
        "adjusted": draw(
            st.lists(
                st.tuples(st.integers(min_value=0, max_value=99), st.sampled_from(ADJUSTMENTS)),
                max_size=3,
            )
        ),
    }


CHANGES = st.one_of(
    st.tuples(
        st.just("correct"),
        st.integers(min_value=0, max_value=99),
        st.sampled_from(CONTRACTS),
        st.integers(min_value=6, max_value=13),
    ),
    st.tuples(
        st.just("adjust"), st.integers(min_value=0, max_value=99), st.sampled_from(ADJUSTMENTS)
    ),
    st.tuples(st.just("remove"), st.integers(min_value=0, max_value=99)),
    st.tuples(
        st.just("penalty"),
        st.integers(min_value=0, max_value=99),
        st.sampled_from(["0.25", "0.5", "1"]),
    ),
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
        corrections.adjust_score(
            user=None,
            section=section,
            round=slot.round,
            table=slot.table,
            board=board,
            adjustment=adjustment,
            reason="Generated.",
            law="12C2",
        )
    except InvalidResult:
        pass  # a shape this scoring refuses (a percentage in an IMP event): not awarded


def _change(section, change: tuple) -> None:
    kind, index = change[0], change[1]
    results = list(Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk"))
    if kind == "adjust":
        before = [(r.pk, r.adjustment) for r in results]
        _adjust(section, index, change[2])
        if [
            (r.pk, r.adjustment)
            for r in Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk")
        ] == before:
            reject()
        return
    if kind == "penalty":
        corrections.add_penalty(
            user=None,
            entry=_entry(section, index),
            session=section.session,
            fraction_of_top=change[2],
            reason="Generated.",
        )
        return
    if not results:
        reject()
    result = results[index % len(results)]
    if kind == "remove":
        corrections.remove_result(result, user=None, reason="Generated.")
        return
    contract, declarer = change[2]
    corrections.correct_result(
        result,
        user=None,
        contract=contract,
        declarer=declarer,
        tricks=change[3],
        reason="Generated.",
    )


def _entry(section, index: int):
    seats = list(section.seatings.select_related("entry").order_by("entry_id"))
    return seats[index % len(seats)].entry


def stored(session: Session) -> dict[str, list]:
    """Every stored row of the session, without its id and version (compared apart)."""

    def rows(model, *fields):
        return sorted(model.objects.filter(session=session).values_list(*fields), key=repr)

    return {
        "marks": rows(
            StoredMark,
            "section_id",
            "board_number",
            "entry_id",
            "direction",
            "opponent_id",
            "result_id",
            "mark",
            "percentage",
            "kind",
        ),
        "rankings": rows(
            StoredRanking,
            "tournament_id",
            "section_id",
            "scope",
            "pool",
            "direction",
            "entry_id",
            "number",
            "names",
            "place",
            "tied",
            "decided_by",
            "points",
            "maximum",
            "percentage",
            "exact",
            "boards",
        ),
        "matches": rows(
            StoredMatch, "section_id", "entry_id", "round", "opponent_id", "imps", "boards", "vps"
        ),
    }


def versions(session: Session) -> set[int]:
    return {
        v
        for model in (StoredMark, StoredRanking, StoredMatch)
        for v in model.objects.filter(session=session).values_list("version", flat=True)
    }


def written(session: Session, version: int) -> dict[str, list]:
    """The rows a classification under ``version`` wrote (others keep the version of the
    classification that last wrote them)."""

    def rows(model, *fields):
        return sorted(
            model.objects.filter(session=session, version=version).values_list(*fields), key=repr
        )

    return {
        "marks": rows(StoredMark, "section_id", "board_number", "entry_id", "direction"),
        "rankings": rows(StoredRanking, "entry_id"),
    }


def classify(session: Session):
    """Classify as a committed request would (what the process keeps is recorded); returns
    the version and what the kept state found to write (None: a full run)."""
    outcomes = []
    take = incremental.take

    def spy(*args, **kwargs):
        taken = take(*args, **kwargs)
        outcomes.append(None if taken is None else taken[1])
        return taken

    with (
        mock.patch.object(incremental, "take", spy),
        TestCase.captureOnCommitCallbacks(execute=True),
    ):
        version = classification.classify_session(session)
    assert len(outcomes) == 1
    return version, outcomes[0]


def changed_rows(before: dict[str, list], after: dict[str, list]) -> dict[str, set]:
    return {kind: set(after[kind]) - set(before[kind]) for kind in ("marks", "rankings")}


@pytest.fixture(autouse=True)
def _nothing_kept():
    incremental.forget()
    yield
    incremental.forget()


@settings(max_examples=40, deadline=None)
@given(sessions(), st.lists(CHANGES, min_size=1, max_size=3))
def test_incremental_classification_stores_exactly_what_a_full_one_does(spec, changes):
    with transaction.atomic():
        section = _build(spec)
        session = section.session
        try:
            classify(session)
        except ScoringError:
            reject()  # a board the method cannot score (Butler with no real result)
        for change in changes:
            before = stored(session)
            _change(section, change)
            # every row may be redone: the property is about the rows, not the share
            try:
                with mock.patch.object(stored_rows, "REWRITE_ALL_SHARE", 2):
                    version, kept = classify(session)
            except ScoringError:
                # a board the method cannot score (Butler with no real result): the same
                # from scratch
                incremental.forget()
                with pytest.raises(ScoringError):
                    classify(session)
                reject()
            assert kept is not None, "the kept classification was not used"
            assert max(versions(session), default=version) <= version
            # every row that differs from before was written by this classification
            new = written(session, version)
            moved = changed_rows(before, stored(session))
            assert {key[:4] for key in moved["marks"]} <= set(new["marks"])
            assert {(key[5],) for key in moved["rankings"]} <= set(new["rankings"])
        full_version, full = same_as_from_scratch(session)
        assert full is None and full_version == version + 1
        transaction.set_rollback(True)


# --- the plain cases ------------------------------------------------------------------------


def same_as_from_scratch(session: Session):
    """Forget what the process kept and classify from scratch: every stored row must be what
    the classification before left. Returns that full classification's (version, changes)."""
    after = stored(session)
    incremental.forget()
    outcome = classify(session)
    assert stored(session) == after
    return outcome


def _played(mitchell_session):
    demo.play_rounds(mitchell_session, random.Random(5))
    return mitchell_session


def test_one_corrected_result_rewrites_only_marks_of_its_board(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    result = Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk")[3]
    corrections.correct_result(
        result, user=None, contract="7NT", declarer="N", tricks=13, reason="Wrong entry."
    )
    marks_before = dict(
        StoredMark.objects.filter(session=session)
        .exclude(board_number=result.board.number)
        .values_list("pk", "mark")
    )
    version, changes = classify(session)
    assert changes is not None and changes.marks
    assert {board for _section, board, _entry, _line in changes.marks} == {result.board.number}
    # the other boards' rows are the same rows, left as they were
    assert (
        dict(
            StoredMark.objects.filter(session=session, pk__in=marks_before).values_list(
                "pk", "mark"
            )
        )
        == marks_before
    )
    assert {b for _s, b, _e, _d in written(session, version)["marks"]} == {result.board.number}
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
    assert classify(session)[1] is not None  # now it wrote the last one itself


def test_a_rolled_back_classification_is_not_remembered(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    result = Result.objects.filter(section=section, status=ResultStatus.OK).first()
    corrections.correct_result(
        result, user=None, contract="7NT", declarer="N", tricks=13, reason="Wrong entry."
    )
    with pytest.raises(RuntimeError), transaction.atomic():
        classification.classify_session(session)
        raise RuntimeError("the request failed after the classification")
    # the run had taken the kept state and changed it: the next one classifies in full
    assert classify(session)[1] is None
    assert classify(session)[1] is not None
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
    # every writer of a result stamps it (``modified_at``): that is how a run finds it
    Result.objects.filter(section=section).update(ns_score=-100, modified_at=timezone.now())
    version, changes = classify(session)
    assert changes is not None and changes.marks is None
    assert versions(session) == {version}
    same_as_from_scratch(session)


def test_an_unchanged_session_writes_nothing(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    before = stored(session)
    version, changes = classify(session)
    assert changes is not None and not changes.marks and not changes.rankings
    assert written(session, version) == {"marks": [], "rankings": []}
    assert stored(session) == before


def test_a_result_stamped_before_the_last_run_is_read_again(mitchell_session):
    """A result stamped before the last classification read, committed after it: the next
    run reads the results stamped since the newest it kept, less ``LOOKBACK``."""
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    stamp = session.classified_through - datetime.timedelta(seconds=30)
    result = Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk")[5]
    Result.objects.filter(pk=result.pk).update(ns_score=2220, modified_at=stamp)
    version, changes = classify(session)
    assert changes is not None and changes.marks
    same_as_from_scratch(session)


def test_a_deleted_result_gives_a_full_run(mitchell_session):
    section = _played(mitchell_session)
    session = section.session
    classify(session)
    Result.objects.filter(section=section, status=ResultStatus.OK).order_by("pk").first().delete()
    assert classify(session)[1] is None
    same_as_from_scratch(session)
