"""An imported event shows the club's published result, never our re-score in its place.

The files come from ``usebio_writer`` and are then altered the way a club's program differs
from us (a percentage or place we would not give, ties written without "="): the public
ranking, the travellers' marks and the scorecard show the file's figures, the report lists
where our scoring differs, and a director may re-score with the club's rules (audited) and
go back. A correction made after the import is scored with our rules, and the page says so.
"""

import random
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.signed_in import sign_in_verified
from tests.tournaments.imports.test_usebio_conventions import mitchell_sitout
from tests.tournaments.imports.usebio_writer import write
from tournaments.imports import usebio
from tournaments.models import (
    AuditAction,
    AuditEntry,
    RankingScope,
    Result,
    StoredMark,
    StoredRanking,
)
from tournaments.models.uploads import ImportState
from tournaments.services.classification import file_record
from tournaments.services.classification.classify import classify_session

pytestmark = pytest.mark.django_db


def _first_pair_figure(text: str, tag: str) -> str:
    return re.search(rf"<{tag}>([^<]*)</{tag}>", text).group(1)


def _altered(text: str, tag: str, value: str) -> str:
    """The file with its first pair's ``tag`` (pair 1 EW) changed to ``value``."""
    return re.sub(rf"<{tag}>[^<]*</{tag}>", f"<{tag}>{value}</{tag}>", text, count=1)


def _ranking(tournament, number=1, direction="EW") -> StoredRanking:
    return StoredRanking.objects.get(
        tournament=tournament, scope=RankingScope.SECTION, number=number, direction=direction
    )


def _import(text: str):
    record = usebio.import_file(text, file_name="club.xml")
    assert record.state == ImportState.DONE
    record.tournament.refresh_from_db()
    return record


def test_the_files_percentage_and_place_are_the_ranking_where_ours_differ(client):
    text = write(mitchell_sitout(random.Random(7)))
    ours_pct = _first_pair_figure(text, "PERCENTAGE")
    published = "63.89" if ours_pct != "63.89" else "61.11"
    record = _import(_altered(_altered(text, "PERCENTAGE", published), "PLACE", "1"))
    tournament = record.tournament
    # the report is our check: it names the figure with both values
    [diff] = [d for d in record.differences if d["what"] == "percentage"]
    assert (diff["file"], diff["ours"]) == (published, ours_pct)
    # the pages show the club's figures
    row = _ranking(tournament)
    assert row.percentage == Decimal(published) and row.place == 1
    with translation.override("es"):
        section = client.get(
            reverse("results:section", args=[tournament.slug, 1, "A"]), HTTP_ACCEPT_LANGUAGE="es"
        ).content.decode()
        page = client.get(
            reverse("results:tournament", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="es"
        ).content.decode()
    assert published.replace(".", ",") in section
    assert 'id="file-record" data-status="file"' in page
    assert file_record.note(tournament)["differences"] == len(record.differences)
    with translation.override("es"):  # the report's words in the reader's language
        report = usebio.report_text(record)
    assert "fichero 63.89" in report.replace(published, "63.89") and " ours " not in report
    assert "nuestro" in report and "reglas probadas" in report


def test_the_files_marks_are_the_travellers_even_where_ours_differ():
    text = write(mitchell_sitout(random.Random(7)))
    marker = "<NS_MATCH_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    wrong = "5.5" if value != "5.5" else "0.5"
    record = _import(head + marker + wrong + "<" + rest)
    assert [d["file"] for d in record.differences if d["what"] == "mark NS"] == [wrong]
    result = (
        Result.objects.filter(section__session__tournament=record.tournament)
        .order_by("board__number", "round", "table")
        .first()
    )
    marks = StoredMark.objects.filter(
        result__section__session__tournament=record.tournament, direction="NS", mark=Decimal(wrong)
    )
    assert marks.count() >= 1 and result is not None


def test_ties_written_without_equals_share_the_place():
    event = mitchell_sitout(random.Random(1))
    for ln in event.sections[0].lines:
        ln.score = 420
    text = write(event).replace("=</PLACE>", "</PLACE>")
    assert "=</PLACE>" not in text
    record = _import(text)
    assert [d for d in record.differences if d["what"] == "place"] == []
    rows = StoredRanking.objects.filter(
        tournament=record.tournament, scope=RankingScope.SECTION, direction="NS"
    )
    assert {(r.place, r.tied) for r in rows} == {(1, True)}


def test_a_director_rescores_with_the_clubs_rules_then_restores_the_file(client, director):
    text = write(mitchell_sitout(random.Random(7)))
    ours_pct = Decimal(_first_pair_figure(text, "PERCENTAGE"))
    published = Decimal("63.89") if ours_pct != Decimal("63.89") else Decimal("61.11")
    record = _import(_altered(text, "PERCENTAGE", str(published)))
    tournament = record.tournament
    sign_in_verified(client, director)
    url = reverse("uploads:import_record", args=[record.pk])
    page = client.get(reverse("uploads:import", args=[record.pk])).content.decode()
    assert 'id="rescore"' in page
    client.post(url, {"results": "ours", "reason": "Las reglas del club"})
    assert _ranking(tournament).percentage == ours_pct
    entry = AuditEntry.objects.get(tournament=tournament, action=AuditAction.RESCORED)
    assert entry.user == director and entry.reason == "Las reglas del club"
    tournament.refresh_from_db()
    assert file_record.note(tournament)["status"] == "ours"
    assert (
        'id="restore-file"'
        in client.get(reverse("uploads:import", args=[record.pk])).content.decode()
    )
    client.post(url, {"results": "file"})
    assert _ranking(tournament).percentage == published
    assert (
        AuditEntry.objects.filter(tournament=tournament, action=AuditAction.RESCORED).count() == 2
    )


def test_a_result_corrected_after_the_import_is_scored_with_our_rules(client):
    text = write(mitchell_sitout(random.Random(7)))
    ours_pct = Decimal(_first_pair_figure(text, "PERCENTAGE"))
    published = Decimal("63.89") if ours_pct != Decimal("63.89") else Decimal("61.11")
    record = _import(_altered(text, "PERCENTAGE", str(published)))
    tournament = record.tournament
    assert _ranking(tournament).percentage == published
    result = Result.objects.filter(section__session__tournament=tournament).first()
    Result.objects.filter(pk=result.pk).update(modified_at=timezone.now())
    classify_session(result.section.session)
    assert _ranking(tournament).percentage == ours_pct
    assert file_record.note(tournament)["status"] == "changed"
    page = client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    assert 'data-status="changed"' in page
