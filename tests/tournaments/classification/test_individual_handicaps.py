"""An individual ranked with handicaps: one handicap per player (an individual entry is one
player), typed on the director's page; the public ranking, the PDF's and the USEBIO file
carry both rankings (scratch, and percentage + handicap / 2), and the file imports back
with both and exports the same bytes."""

import datetime
import random
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from tournaments import demo, documents
from tournaments.imports import usebio
from tournaments.models import EntryPlayer, EventType, RankingScope, StoredRanking
from tournaments.pdf.rankings import section_ranking
from tournaments.services.classification import handicaps
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.results import publish
from tournaments.services.results.snapshot_build import build_event_snapshot
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture
def individual(demo_club):
    players = list(Member.objects.filter(status="active").order_by("licence_number"))
    tournament = demo._individual(players, random.Random(demo.SEED), datetime.date(2026, 10, 5))
    setup.update_tournament(tournament, {"handicap_ranking": True})
    return tournament


def _rows(tournament):
    return list(
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION).order_by(
            "place", "number"
        )
    )


def _unversioned(text: str) -> str:
    return re.sub(r"<RESULTS_VERSION>[^<]*</RESULTS_VERSION>", "", text)


def _figures(tournament):
    return sorted(
        (r.number, r.percentage, r.place, r.handicap, r.handicap_percentage, r.handicap_place)
        for r in _rows(tournament)
    )


def test_an_individual_is_ranked_with_each_players_handicap(director_client, individual):
    tournament = individual
    classify_tournament(tournament)
    entries = list(tournament.entries.order_by("id"))
    url = reverse("director:handicaps", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    # one handicap a player: no per-player column, one field an entry, headed "Player"
    assert 'id="handicaps-per-player"' not in page and "player-handicap-" not in page
    assert all(f'name="handicap-{e.pk}"' in page for e in entries)
    assert '<th id="handicap-who">Jugador</th>' in page

    last = _rows(tournament)[-1]  # the last player gets a big handicap: they climb
    typed = {f"handicap-{e.pk}": "" for e in entries}
    typed[f"handicap-{last.entry_id}"] = "60"
    typed[f"handicap-{entries[0].pk}"] = "-4,5"
    assert director_client.post(url, typed).status_code == 302
    rows = {r.entry_id: r for r in _rows(tournament)}
    for r in rows.values():
        assert r.handicap_percentage == r.percentage + (r.handicap or Decimal(0)) / 2
    assert rows[last.entry_id].handicap_place == 1 and rows[last.entry_id].place == len(rows)
    assert not EntryPlayer.objects.filter(entry__tournament=tournament).exclude(handicap=None)

    publish.publish_final(tournament, user=None)
    section = tournament.sessions.get().sections.get()
    html = director_client.get(
        reverse("results:section", args=[tournament.slug, 1, section.letter])
    ).content.decode()
    assert 'class="num handicap_percentage"' in html and 'class="num handicap_place"' in html
    assert 'id="handicap-note"' in html

    # the PDF's section ranking prints both rankings too
    snapshot = build_event_snapshot(tournament)
    people = snapshot.sessions[0].sections[0].participants
    assert all(p.handicap_percentage is not None for p in people)
    with translation.override("en"):
        block = section_ranking(list(people), imps=False, vps=False)
    assert "Handicap" in " ".join(block.head)  # the headers wrap over lines
    top = next(p for p in people if p.handicap_place == 1)
    assert any(
        row.split()[-3:] == [str(top.handicap), str(top.handicap_percentage), "1"]
        for row in block.rows
    )


def test_an_individual_with_handicaps_exports_and_imports_back_byte_stable(individual, director):
    tournament = individual
    entries = list(tournament.entries.order_by("id"))
    handicaps.set_handicaps(
        tournament, {e.pk: str(3 * i - 20) for i, e in enumerate(entries)}, director
    )
    classify_tournament(tournament)
    text = documents.export_text(tournament, "usebio")
    assert text.count("<HANDICAP>") == len(entries)
    record = usebio.import_file(text, file_name="individual-hcp.xml")
    assert record.differences == [], record.differences[:3]
    copy = record.tournament
    copy.refresh_from_db()
    assert copy.event_type == EventType.INDIVIDUAL
    assert copy.handicap_ranking and copy.conventions["places_by"] == "handicap"
    assert sorted(copy.entries.values_list("handicap", flat=True)) == sorted(
        tournament.entries.values_list("handicap", flat=True)
    )
    assert _figures(copy) == _figures(tournament)
    # the same bytes but for RESULTS_VERSION, which counts our own re-rankings (the demo's,
    # the handicaps', this test's: 3; the copy's one)
    again = documents.export_text(copy, "usebio")
    assert _unversioned(again) == _unversioned(text)
