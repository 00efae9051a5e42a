"""A federation's officer across its clubs: what they read (services, without HTTP), a club
added and its secretary named, a club's data exported whole and the club deleted, and the
pages kept to the officer's own federation.

Three clubs, each with the demo's members (the same people: the same licence numbers) and a
published, final pairs tournament with its master points: Norte (the default club, whichever
club that is) and Sur of the AEB, Lisboa of the FPB.
"""

import datetime
import io
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.test import Client, TestCase, override_settings
from django.urls import reverse
from django.utils import timezone
from django_scopes import scopes_disabled

from clubsite.accounts.permissions import Role, appoint_officer, grant, roles_of
from clubsite.models import Club, ClubRole, Federation, Member, Season
from clubsite.tenancy import club_scope
from federation import services
from tests.federation.conftest import LISBOA_HOST, SUR_HOST
from tests.signed_in import sign_in_verified
from tournaments.exports.licences import licence_batch
from tournaments.models import Result, Tournament
from tournaments.models.points import PointsAward
from tournaments.models.uploads import ResultsPdf

pytestmark = pytest.mark.django_db


def _names(tournaments):
    return {t.club.name for t in tournaments}


def test_published_results_are_the_federations_clubs_only(clubs):
    assert _names(services.published_results(Federation.AEB)) == {"Club Norte", "Club Sur"}
    assert _names(services.published_results(Federation.FPB)) == {"Clube Lisboa"}
    assert services.published_results(Federation.ABA) == []


def test_the_ranking_sums_a_licence_number_across_the_federations_clubs(clubs):
    with scopes_disabled():
        award = (
            PointsAward.objects.filter(tournament__club=clubs["sur"], member__licence_number__gt="")
            .select_related("member")
            .first()
        )
        number = award.member.licence_number
        at = {
            key: sum(
                a.points
                for a in PointsAward.objects.filter(
                    tournament__club=club, member__licence_number=number
                )
            )
            for key, club in clubs.items()
        }
    ranked = {p.licence_number: p for p in services.ranking(Federation.AEB)}
    assert ranked[number].points == at["norte"] + at["sur"]  # Lisboa's not counted
    assert ranked[number].clubs == 2
    assert {p.licence_number: p for p in services.ranking(Federation.FPB)}[number].points == (
        at["lisboa"]
    )
    places = [p.place for p in services.ranking(Federation.AEB)]
    assert places == sorted(places) and places[0] == 1


def _points_of(number, federation):
    """{tournament date: points} of the licence number at the federation's clubs."""
    with scopes_disabled():
        awards = PointsAward.objects.filter(
            tournament__club__federation=federation, member__licence_number=number
        ).select_related("tournament")
        return [(a.tournament.date, a.points) for a in awards]


def test_the_ranking_of_a_season_leaves_out_the_points_won_outside_it(clubs):
    current = services.season_of(timezone.localdate())
    last = services.season_of(current.start - datetime.timedelta(days=1))
    assert (current.start.month, current.start.day, current.end.month, current.end.day) == (
        9,
        1,
        8,
        31,
    )
    assert current.key == f"{current.start.year}-{current.end.year}"
    with scopes_disabled():
        award = (
            PointsAward.objects.filter(tournament__club=clubs["sur"], member__licence_number__gt="")
            .select_related("member")
            .first()
        )
        # Sur's tournament played on the last day of last season; Norte's on the first of
        # this one (the bounds belong to their own season)
        Tournament.objects.filter(pk=award.tournament_id).update(date=last.end)
        Tournament.objects.filter(club=clubs["norte"]).update(date=current.start)
    number = award.member.licence_number
    won = _points_of(number, Federation.AEB)
    assert {day for day, _points in won} == {last.end, current.start}

    def points(period):
        ranked = services.ranking(Federation.AEB, since=period.start, until=period.end)
        return {p.licence_number: p.points for p in ranked}.get(number)

    assert points(current) == sum(p for day, p in won if day >= current.start)
    assert points(last) == sum(p for day, p in won if day <= last.end)
    assert points(services.ALL_SEASONS) == sum(p for _day, p in won)
    assert points(current) + points(last) == points(services.ALL_SEASONS)
    periods = services.ranking_periods(Federation.AEB)
    assert [p.key for p in periods] == [current.key, last.key, "all"]

    client = _officer(Federation.AEB)
    url = reverse("federation:ranking", args=["AEB"])
    for query, period in (
        ({}, current),
        ({"season": last.key}, last),
        ({"season": "all"}, services.ALL_SEASONS),
        ({"season": "1999-2000"}, current),  # a season with no points: the default
        ({"season": "<script>"}, current),
    ):
        page = client.get(url, query)
        assert page.status_code == 200, query
        assert page.context["period"] == period, query
        shown = {p.licence_number: p.points for p in page.context["players"]}
        assert shown.get(number) == points(period), query
        assert f'<option value="{period.key}" selected>' in _main(page), query
    assert "&lt;script&gt;" not in _main(client.get(url, {"season": "<script>"}))


@override_settings(ALLOWED_HOSTS=["testserver", SUR_HOST])
def test_the_officer_downloads_a_clubs_licence_batch(clubs):
    sur = clubs["sur"]
    with club_scope(sur):
        season = Season.objects.containing(timezone.localdate()).get()
        name, text = licence_batch(season)
        older = Season.objects.create(name="2001-02", start="2001-09-01", end="2002-08-31")
    assert text.count("\r\n") > 1  # the demo requested licences this season
    client = _officer(Federation.AEB)
    url = reverse("federation:club_licences", args=["AEB", sur.pk])
    got = client.get(url)
    assert got.status_code == 200 and got["Content-Type"] == "text/csv; charset=utf-8"
    assert got.content.decode() == text  # the very file the club's secretary sends
    assert got["Content-Disposition"] == f'attachment; filename="sur-{name}"'
    got = client.get(url, {"season": older.pk})
    assert got.content.decode().count("\r\n") == 1  # that season's: the header only
    with club_scope(clubs["norte"]):
        norte_season = Season.objects.containing(timezone.localdate()).get()
    assert client.get(url, {"season": norte_season.pk}).status_code == 404  # not Sur's
    assert client.get(url, {"season": "abc"}).content.decode() == text
    page = client.get(reverse("federation:licences", args=["AEB"]))
    assert url in _main(page)
    # an officer of another federation, and the club's own secretary
    other = _officer(Federation.FPB)
    assert other.get(url).status_code == 403  # not an AEB officer
    fpb_url = reverse("federation:club_licences", args=["FPB", sur.pk])
    assert other.get(fpb_url).status_code == 404  # Sur is no club of the FPB
    secretary = User.objects.create_user("sur-secretario", password="pass-1234-word-long")
    with club_scope(sur):
        grant(secretary, Role.SECRETARY)
    assert sign_in_verified(Client(), secretary).get(url, HTTP_HOST=SUR_HOST).status_code == 403


def test_licences_and_uploads_list_the_federations_clubs(clubs):
    rows = services.licences_and_uploads(Federation.AEB)
    assert [r.club.name for r in rows] == ["Club Norte", "Club Sur"]


def test_a_club_added_with_its_secretary(clubs):
    user = User.objects.create_user("nueva-secretaria", email="nueva@example.org")
    club = services.add_club(Federation.AEB, Club(name="Club Este", slug="este"))
    assert club.federation == Federation.AEB
    assert services.name_secretary(club, "NUEVA@example.org") == user
    with club_scope(club):
        assert roles_of(User.objects.get(pk=user.pk)) == {Role.SECRETARY}
    with club_scope(clubs["norte"]):
        assert roles_of(User.objects.get(pk=user.pk)) == frozenset()
    with pytest.raises(services.FederationError):
        services.name_secretary(club, "nobody-here")


def test_a_clubs_archive_holds_its_members_and_every_tournament(clubs):
    data = services.club_archive(clubs["sur"])
    archive = zipfile.ZipFile(io.BytesIO(data))
    names = archive.namelist()
    assert {"members.csv", "README.txt"} <= set(names)
    with club_scope(clubs["sur"]):
        tournaments = list(Tournament.objects.all())
        member = Member.objects.order_by("pk").first()
    for tournament in tournaments:
        assert any(n.endswith(f"{tournament.slug}.xml") for n in names), names
        assert any(n.endswith(f"{tournament.slug}.pbn") for n in names), names
    assert member.last_name in archive.read("members.csv").decode("utf-8-sig")
    xml = next(n for n in names if n.endswith(".xml"))
    assert "<USEBIO" in archive.read(xml).decode()


def _counts(club):
    with club_scope(club):
        return (
            Member.objects.count(),
            Tournament.objects.count(),
            Result.objects.count(),
            PointsAward.objects.count(),
        )


def test_deleting_a_club_removes_its_rows_only(clubs):
    norte, lisboa = _counts(clubs["norte"]), _counts(clubs["lisboa"])
    sur = clubs["sur"]
    with club_scope(sur):
        grant(User.objects.create_user("sur-secretaria"), Role.SECRETARY)
    assert all(_counts(sur))
    deleted = services.delete_club(sur, without_archive=True)
    assert deleted["clubsite.Club"] == 1
    assert not Club.objects.filter(pk=sur.pk).exists()
    assert _counts(sur) == (0, 0, 0, 0)
    assert _counts(clubs["norte"]) == norte and _counts(clubs["lisboa"]) == lisboa
    with scopes_disabled():
        assert not ClubRole.objects.filter(club_id=sur.pk).exists()
        assert not Member.history.filter(club_id=sur.pk).exists()
        assert Member.history.filter(club_id=clubs["norte"].pk).exists()
    assert User.objects.filter(username="sur-secretaria").exists()  # accounts stay


def _stored_pdf(club, name, version):
    with club_scope(club):
        pdf = ResultsPdf(tournament=Tournament.objects.order_by("pk").first(), version=version)
        pdf.file.save(name, ContentFile(b"%PDF-1.7 results"), save=False)
        pdf.language = "es"
        pdf.save()
        return pdf.file.name


def test_a_club_leaving_takes_its_stored_files_once_committed(
    clubs, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    sur, norte = clubs["sur"], clubs["norte"]
    surs = [_stored_pdf(sur, "sur.pdf", "v1"), _stored_pdf(sur, "sur-2.pdf", "v2")]
    nortes = _stored_pdf(norte, "norte.pdf", "v1")
    assert all(default_storage.exists(name) for name in [*surs, nortes])
    assert str(tmp_path) in default_storage.path(nortes)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.delete_club(sur, without_archive=True)
        assert all(default_storage.exists(name) for name in surs)  # not before the commit
    assert callbacks
    assert not any(default_storage.exists(name) for name in surs)
    assert default_storage.exists(nortes)  # another club's files stay
    with club_scope(norte):
        assert ResultsPdf.objects.get(file=nortes).file.read() == b"%PDF-1.7 results"


def test_a_file_another_club_still_names_is_kept(clubs, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    name = _stored_pdf(clubs["sur"], "shared.pdf", "v1")
    with club_scope(clubs["norte"]):
        ResultsPdf.objects.create(
            tournament=Tournament.objects.order_by("pk").first(),
            version="v1",
            language="es",
            file=name,
        )
    files = services.stored_files(clubs["sur"])
    assert [n for _field, n in files] == [name]
    with scopes_disabled():
        ResultsPdf.objects.filter(tournament__club=clubs["sur"]).delete()
    services.remove_files(files)
    assert default_storage.exists(name)


def test_the_default_club_cannot_be_deleted(clubs):
    with pytest.raises(services.FederationError):
        services.delete_club(clubs["norte"])
    assert Club.objects.filter(pk=clubs["norte"].pk).exists()


# --- the pages ------------------------------------------------------------------------------


def _main(page) -> str:
    """The page's own content, without the header and footer of the host's club."""
    text = page.content.decode()
    return text[text.index("<main") : text.index("</main>")]


def _officer(federation):
    user = User.objects.create_user(f"officer-{federation}", password="pass-1234-word-long")
    appoint_officer(user, federation)
    return sign_in_verified(Client(), user)


@override_settings(ALLOWED_HOSTS=["testserver", SUR_HOST, LISBOA_HOST])
def test_an_fpb_officer_sees_nothing_of_an_aeb_club(clubs):
    client = _officer(Federation.FPB)
    sur = clubs["sur"]
    for host in ("testserver", SUR_HOST, LISBOA_HOST):  # on any club's host
        for name in ("clubs", "results", "licences", "ranking"):
            page = client.get(reverse(f"federation:{name}", args=["FPB"]), HTTP_HOST=host)
            assert page.status_code == 200, (name, host)
            text = _main(page)
            assert "Club Sur" not in text and "Club Norte" not in text, (name, host)
        assert "Clube Lisboa" in _main(
            client.get(reverse("federation:results", args=["FPB"]), HTTP_HOST=host)
        )
        for name in ("clubs", "results", "licences", "ranking", "club_new"):
            url = reverse(f"federation:{name}", args=["AEB"])
            assert client.get(url, HTTP_HOST=host).status_code == 403, name
        for name in ("club_secretary", "club_archive", "club_licences", "club_leave"):  # AEB
            url = reverse(f"federation:{name}", args=["FPB", sur.pk])
            assert client.get(url, HTTP_HOST=host).status_code == 404, name
            assert client.post(url, {"confirm": "sur"}, HTTP_HOST=host).status_code == 404
    assert Club.objects.filter(pk=sur.pk).exists()


def test_a_club_secretary_cannot_reach_the_officer_pages(clubs):
    user = User.objects.create_user("norte-secretaria", password="pass-1234-word-long")
    grant(user, Role.SECRETARY)
    client = sign_in_verified(Client(), user)
    norte = clubs["norte"]
    for name in ("clubs", "results", "licences", "ranking", "club_new"):
        assert client.get(reverse(f"federation:{name}", args=["AEB"])).status_code == 403
    for name in ("club_secretary", "club_archive", "club_licences", "club_leave"):
        url = reverse(f"federation:{name}", args=["AEB", norte.pk])
        assert client.get(url).status_code == 403
    assert client.get(reverse("federation:index")).status_code == 403


def test_the_officer_adds_a_club_and_lets_another_leave(clubs, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path  # the archive's file
    client = _officer(Federation.AEB)
    made = client.post(
        reverse("federation:club_new", args=["AEB"]),
        {"name": "Club Oeste", "slug": "oeste", "host": "", "address": "Plaza 1"},
    )
    oeste = Club.objects.get(slug="oeste")
    assert made.status_code == 302 and oeste.federation == Federation.AEB
    leave = reverse("federation:club_leave", args=["AEB", clubs["sur"].pk])
    assert client.post(leave, {"confirm": "norte"}).status_code == 200  # the wrong name
    refused = client.post(leave, {"confirm": "sur"})  # no archive yet
    assert refused.status_code == 200 and "Prepare antes el archivo" in _main(refused)
    assert Club.objects.filter(pk=clubs["sur"].pk).exists()
    with TestCase.captureOnCommitCallbacks(execute=True):  # no broker: made in-process
        client.post(reverse("federation:club_archive", args=["AEB", clubs["sur"].pk]))
    assert Club.objects.filter(pk=clubs["sur"].pk).exists()
    assert client.post(leave, {"confirm": "sur"}).status_code == 302
    assert not Club.objects.filter(pk=clubs["sur"].pk).exists()
    default = reverse("federation:club_leave", args=["AEB", clubs["norte"].pk])
    assert client.post(default, {"confirm": "norte"}).status_code == 200
    assert Club.objects.filter(pk=clubs["norte"].pk).exists()


def test_the_demo_federation_has_an_officer():
    from clubsite.accounts.permissions import federations_of
    from clubsite.demo import DEMO_OFFICER, DEMO_PASSWORD, _demo_officer

    _demo_officer()
    _demo_officer()  # built twice, one office
    officer = User.objects.get(username=DEMO_OFFICER)
    assert officer.check_password(DEMO_PASSWORD)
    assert federations_of(officer) == {Federation.AEB}
