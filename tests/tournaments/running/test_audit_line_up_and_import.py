"""The audit trail of a teams event's line-up change and of a USEBIO import: one row each
(who, before, after); from a club without test_audit_trail.py's shared Mitchell."""

import pytest

from clubsite.models import Member
from tests.tournaments.imports.test_usebio_import import flat_file
from tests.tournaments.running.test_audit_trail import one_new_row
from tests.tournaments.support.team_lineups import seat, teams_of_six
from tournaments.imports import usebio
from tournaments.models import AuditAction, AuditEntry

pytestmark = pytest.mark.django_db


def test_line_up_change_is_audited(members, director):
    match, home, _away = teams_of_six(members)
    seat(match, match.home, 1, home[:4])
    # the same four players, rooms swapped: a change of line-up and nothing else
    changed = one_new_row(
        AuditAction.LINEUP,
        lambda: seat(match, match.home, 1, [home[2], home[3], home[0], home[1]], user=director),
    )
    assert changed.user == director
    assert (changed.before["open"], changed.before["closed"]) == (
        changed.after["closed"],
        changed.after["open"],
    )


def test_usebio_import_is_audited_with_what_it_brought(db):
    for first, last, number in (("Ana", "Pérez", "L-1"), ("Luis", "Gil", "L-2")):
        Member.objects.create(first_name=first, last_name=last, licence_number=number)
    record = usebio.import_file(flat_file(), file_name="antiguo.xml")
    row = AuditEntry.objects.get(tournament=record.tournament)
    assert row.action == AuditAction.PUBLISHED
    assert row.before == {"results": 0}
    assert row.after["results"] == 6 and row.after["imported"] == "antiguo.xml"
