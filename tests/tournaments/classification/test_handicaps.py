"""A handicap event of our own: the director turns it on, types every pair's handicap (a bad
value names itself, keeps what was typed and saves nothing), and the ranking shows the
scratch order and the handicapped one (percentage + handicap / 2) side by side.

The played Howell they start from is built once for the module (tests/module_rows.py), each
test in a savepoint of it."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.module_rows import module_rows
from tests.tournaments.conftest import build_played_howell, make_members
from tournaments.models import AuditAction, AuditEntry, RankingScope, StoredRanking, Tournament
from tournaments.services.classification.classify import classify_tournament
from tournaments.services.results import publish

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _howell_rows(django_db_setup, django_db_blocker):
    """``members`` and ``played_howell`` on them, built once for the module."""
    with module_rows(django_db_blocker):
        yield build_played_howell(make_members()).pk


@pytest.fixture
def played_howell(_howell_rows, db):
    """The module's played Howell (``played_howell``), read afresh."""
    return Tournament.objects.get(pk=_howell_rows)


def _rows(tournament):
    return list(
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION).order_by(
            "place", "number"
        )
    )


def test_the_director_sets_handicaps_and_both_rankings_show(director_client, played_howell):
    tournament = played_howell
    classify_tournament(tournament)
    edit = director_client.get(reverse("director:tournament_edit", args=[tournament.pk]))
    data = {
        k: v for k, v in edit.context["form"].initial.items() if v is not None and v is not False
    }
    data = {k: ("on" if v is True else v) for k, v in data.items()}
    data.update(date=tournament.date.isoformat(), handicap_ranking="on")
    response = director_client.post(reverse("director:tournament_edit", args=[tournament.pk]), data)
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
    assert (
        AuditEntry.objects.filter(tournament=tournament, action=AuditAction.HANDICAPS).count() == 1
    )
    rows = {r.entry_id: r for r in _rows(tournament)}
    for r in rows.values():
        assert r.handicap_percentage == r.percentage + (r.handicap or Decimal(0)) / 2
    assert rows[weakest.pk].handicap == Decimal(60)
    assert rows[weakest.pk].handicap_place == 1 and rows[weakest.pk].place == len(rows)

    publish.publish_final(tournament, user=None)
    section = tournament.sessions.get().sections.get()
    public = director_client.get(
        reverse("results:section", args=[tournament.slug, 1, section.letter])
    )
    html = public.content.decode()
    assert 'class="num handicap_percentage"' in html and 'class="num handicap_place"' in html


def test_a_handicap_event_exported_imports_back_with_both_rankings(played_howell, director):
    from tournaments import documents
    from tournaments.imports import usebio
    from tournaments.services.classification import handicaps
    from tournaments.services.setup import events as setup

    tournament = played_howell
    setup.update_tournament(tournament, {"handicap_ranking": True})
    entries = list(tournament.entries.order_by("id"))
    handicaps.set_handicaps(
        tournament, {e.pk: str(4 * i - 10) for i, e in enumerate(entries)}, director
    )
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
        return sorted(
            (r.number, r.percentage, r.place, r.handicap, r.handicap_percentage, r.handicap_place)
            for r in _rows(t)
        )

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


def test_each_players_handicap_makes_the_pairs(director_client, played_howell):
    """The director types each player's handicap: the pair's is their sum (the scoring
    core's rule); a pair's typed otherwise than its players' sum is refused, nothing saved."""
    from tournaments.models import EntryPlayer

    tournament = played_howell
    entries = list(tournament.entries.order_by("id"))
    url = reverse("director:handicaps", args=[tournament.pk])
    page = director_client.get(url).content.decode()
    first, second = EntryPlayer.objects.filter(entry=entries[0], active=True).order_by("seat")
    assert f'name="player-handicap-{first.pk}"' in page and 'id="handicaps-per-player"' in page
    typed = {f"handicap-{e.pk}": "" for e in entries}
    typed |= {
        f"player-handicap-{ep.pk}": ""
        for ep in EntryPlayer.objects.filter(entry__tournament=tournament, active=True)
    }
    typed |= {
        f"player-handicap-{first.pk}": "3,5",
        f"player-handicap-{second.pk}": "-1",
        f"handicap-{entries[0].pk}": "7",
    }
    refused = director_client.post(url, typed)
    assert refused.status_code == 400 and 'value="3,5"' in refused.content.decode()
    assert not tournament.entries.exclude(handicap=None).exists()
    assert (
        not EntryPlayer.objects.filter(entry__tournament=tournament).exclude(handicap=None).exists()
    )

    typed[f"handicap-{entries[0].pk}"] = ""
    typed[f"handicap-{entries[1].pk}"] = "4"  # a pair whose players have none: the pair's
    assert director_client.post(url, typed).status_code == 302
    entries[0].refresh_from_db()
    entries[1].refresh_from_db()
    assert entries[0].handicap == Decimal("2.5") and entries[1].handicap == Decimal(4)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.handicap, second.handicap) == (Decimal("3.5"), Decimal(-1))
    # shown again: the players' and the pair's sum; sent back unchanged, nothing changes
    page = director_client.get(url).content.decode()
    assert 'value="3,50"' in page and 'value="2,50"' in page
    again = {k: v for k, v in typed.items()} | {f"handicap-{entries[0].pk}": "2,5"}
    assert director_client.post(url, again).status_code == 302
    assert (
        AuditEntry.objects.filter(tournament=tournament, action=AuditAction.HANDICAPS).count() == 1
    )


def test_players_handicaps_export_per_player_and_import_back_byte_stable(played_howell, director):
    """Entered per player, the USEBIO file writes each player's HANDICAP (not the pair's);
    imported, they are kept per player, and the copy exports the same bytes."""
    from tournaments import documents
    from tournaments.imports import usebio
    from tournaments.models import EntryPlayer
    from tournaments.services.classification import handicaps
    from tournaments.services.setup import events as setup

    tournament = played_howell
    setup.update_tournament(tournament, {"handicap_ranking": True})
    entries = list(tournament.entries.order_by("id"))
    seats = EntryPlayer.objects.filter(entry__tournament=tournament, active=True)
    per_player = {ep.pk: str((ep.pk * 7) % 9 - 4) for ep in seats if ep.entry_id != entries[0].pk}
    handicaps.set_handicaps(
        tournament, {e.pk: "" for e in entries} | {entries[0].pk: "5"}, director, players=per_player
    )
    classify_tournament(tournament)
    text = documents.export_text(tournament, "usebio")
    assert text.count("<HANDICAP>") == len(per_player) + 1  # each player's, one pair's
    record = usebio.import_file(text, file_name="hcp-players.xml")
    assert record.differences == [], record.differences[:3]
    copy = record.tournament
    copy.refresh_from_db()
    assert sorted(
        EntryPlayer.objects.filter(entry__tournament=copy)
        .exclude(handicap=None)
        .values_list("handicap", flat=True)
    ) == sorted(Decimal(v) for v in per_player.values())
    assert sorted(r.handicap for r in _rows(copy)) == sorted(r.handicap for r in _rows(tournament))
    assert documents.export_text(copy, "usebio") == text
