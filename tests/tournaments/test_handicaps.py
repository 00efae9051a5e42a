"""A handicap event of our own: the director turns it on, types every pair's handicap (a bad
value names itself, keeps what was typed and saves nothing), and the ranking shows the
scratch order and the handicapped one (percentage + handicap / 2) side by side."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tournaments.models import AuditAction, AuditEntry, RankingScope, StoredRanking
from tournaments.services import publish
from tournaments.services.classification import classify_tournament

pytestmark = pytest.mark.django_db


def _rows(tournament):
    return list(StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION)
                .order_by("place", "number"))


def test_the_director_sets_handicaps_and_both_rankings_show(director_client, played_howell):
    tournament = played_howell
    classify_tournament(tournament)
    edit = director_client.get(reverse("director:tournament_edit", args=[tournament.pk]))
    data = {k: v for k, v in edit.context["form"].initial.items()
            if v is not None and v is not False}
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    data.update(date=tournament.date.isoformat(), handicap_ranking="on")
    response = director_client.post(reverse("director:tournament_edit", args=[tournament.pk]),
                                    data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.handicap_ranking

    entries = list(tournament.entries.order_by("id"))
    url = reverse("director:handicaps", args=[tournament.pk])
    typed = {f"handicap-{e.pk}": "" for e in entries}
    typed[f"handicap-{entries[0].pk}"] = "abc"
    typed[f"handicap-{entries[1].pk}"] = "-4,5"
    refused = director_client.post(url, typed)
    page = refused.content.decode()
    assert refused.status_code == 400
    assert 'value="abc"' in page and 'value="-4,5"' in page and "errorlist" in page
    assert not tournament.entries.exclude(handicap=None).exists()

    last = _rows(tournament)[-1]  # the last pair gets a big handicap: it climbs
    weakest = next(e for e in entries if e.pk == last.entry_id)
    typed = {f"handicap-{e.pk}": "" for e in entries}
    typed[f"handicap-{weakest.pk}"] = "60"
    typed[f"handicap-{entries[1].pk}"] = "-4,5"
    assert director_client.post(url, typed).status_code == 302
    assert AuditEntry.objects.filter(tournament=tournament,
                                     action=AuditAction.HANDICAPS).count() == 1
    rows = {r.entry_id: r for r in _rows(tournament)}
    for r in rows.values():
        assert r.handicap_percentage == r.percentage + (r.handicap or Decimal(0)) / 2
    assert rows[weakest.pk].handicap == Decimal(60)
    assert rows[weakest.pk].handicap_place == 1 and rows[weakest.pk].place == len(rows)

    publish.publish_final(tournament, user=None)
    section = tournament.sessions.get().sections.get()
    public = director_client.get(reverse("results:section",
                                         args=[tournament.slug, 1, section.letter]))
    html = public.content.decode()
    assert 'class="num handicap_percentage"' in html and 'class="num handicap_place"' in html


def test_a_handicap_event_exported_imports_back_with_both_rankings(played_howell, director):
    from tournaments import documents
    from tournaments.imports import usebio
    from tournaments.services import handicaps, setup

    tournament = played_howell
    setup.update_tournament(tournament, {"handicap_ranking": True})
    entries = list(tournament.entries.order_by("id"))
    handicaps.set_handicaps(tournament, {e.pk: str(4 * i - 10) for i, e in enumerate(entries)},
                            director)
    classify_tournament(tournament)
    publish.publish_final(tournament, user=director)
    text = documents.export_text(tournament, "usebio")
    assert text.count("<HANDICAP>") == len(entries)
    record = usebio.import_file(text, file_name="hcp.xml")
    assert record.differences == [], record.differences[:3]
    copy = record.tournament
    copy.refresh_from_db()
    assert copy.handicap_ranking and copy.conventions["places_by"] == "handicap"

    def figures(t):
        return sorted((r.number, r.percentage, r.place, r.handicap, r.handicap_percentage,
                       r.handicap_place) for r in _rows(t))

    assert figures(copy) == figures(tournament)
    again = documents.export_text(copy, "usebio")
    assert again.count("<HANDICAP>") == len(entries)


def test_a_form_sent_after_an_entry_withdrew_saves_nothing(director_client, played_howell):
    from tournaments.models import EntryStatus

    tournament = played_howell
    entries = list(tournament.entries.order_by("id"))
    typed = {f"handicap-{e.pk}": "2" for e in entries}
    entries[0].status = EntryStatus.WITHDRAWN
    entries[0].save(update_fields=["status"])
    response = director_client.post(reverse("director:handicaps", args=[tournament.pk]), typed)
    assert response.status_code == 400
    assert not tournament.entries.exclude(handicap=None).exists()
