"""The demo club's member list and its CSV export (the filter, the separator, the columns),
and the bulk renewal of its members' licences.

Apart from test_services.py, whose tests start from an empty club: these share the demo club,
built once for the module inside a transaction (tests/module_rows.py), each test in a
savepoint of it."""

import pytest
from django.urls import reverse

from clubsite.demo import build_club
from clubsite.members import services
from clubsite.models import Licence, LicenceStatus, Member, Season
from tests.module_rows import module_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _club_rows(django_db_setup, django_db_blocker):
    with module_rows(django_db_blocker):
        build_club()
        yield


@pytest.fixture
def demo_club(_club_rows, db):
    """The demo club as the module built it, never built again on top of its rows."""


def test_bulk_renewal_for_next_season(secretary_client, demo_club):
    season = Season.current().next()
    proposed = list(services.members_to_renew(season))
    assert proposed
    response = secretary_client.post(
        reverse("clubsite:licences_renew"),
        {"season": season.pk, "member": [m.pk for m in proposed]},
    )
    assert response.status_code == 302
    assert Licence.objects.filter(season=season, status=LicenceStatus.REQUESTED).count() == len(
        proposed
    )
    assert not services.members_to_renew(season).exists()


def test_export_follows_the_filter(secretary_client, demo_club):
    Member.objects.create(first_name="=cmd|' /C calc'!A0", last_name="Zzz", licence_number="X1")
    response = secretary_client.get(reverse("clubsite:member_export"), {"q": "zzz"})
    lines = response.content.decode("utf-8-sig").splitlines()
    assert len(lines) == 2
    assert lines[1].startswith("Zzz;'=cmd")


@pytest.mark.parametrize(
    ("language", "sep", "expected"),
    [
        ("es", None, ";"),
        ("pt", None, ";"),
        ("en", None, ","),
        ("es", "comma", ","),
        ("en", "semicolon", ";"),
        ("en", "tab", "\t"),
        ("es", "bogus", ";"),
    ],
)
def test_export_opens_in_a_spreadsheet(
    secretary_client, demo_club, settings, language, sep, expected
):
    """A UTF-8 byte order mark (Excel reads "Peña" right) and the locale's separator, or the
    one asked for with ?sep=."""
    Member.objects.create(first_name="Íñigo", last_name="Zzz Peña", licence_number="X2")
    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    params = {"q": "zzz"} | ({"sep": sep} if sep else {})
    response = secretary_client.get(reverse("clubsite:member_export"), params)
    assert response.status_code == 200
    assert response.content.startswith(b"\xef\xbb\xbf")
    header, row = response.content.decode("utf-8-sig").splitlines()
    assert row.split(expected)[:3] == ["Zzz Peña", "Íñigo", "X2"]
    assert len(header.split(expected)) == 9


def test_member_list_offers_the_other_separator(secretary_client, demo_club):
    page = secretary_client.get(reverse("clubsite:member_list"), {"q": "a"}).content.decode()
    assert "sep=comma" in page


@pytest.mark.parametrize("language", ["es", "pt", "en"])
def test_member_table_and_its_csv_read_one_column_list(
    secretary_client, demo_club, settings, language
):
    """The page's headings are the CSV's, in the same order: both read MEMBER_COLUMNS, and
    the CSV only adds the columns kept off the page (in_table=False) after them."""
    from django.utils import translation

    from clubsite.members.columns import MEMBER_COLUMNS
    from clubsite.members.tables import MemberTable

    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    content = secretary_client.get(reverse("clubsite:member_export"), {"sep": "comma"}).content
    csv_header = content.decode("utf-8-sig").splitlines()[0].split(",")
    with translation.override(language):
        from clubsite.web.collation import Collated

        table = MemberTable(
            Member.objects.annotate(  # as the list view sorts it
                last_name_sort=Collated("last_name"), first_name_sort=Collated("first_name")
            )
        )
        table_headers = [str(c.header) for c in table.columns if c.name != "select"]
        listed = [str(c.header) for c in MEMBER_COLUMNS]
        on_page = [str(c.header) for c in MEMBER_COLUMNS if c.in_table]
    assert csv_header == listed
    assert table_headers == on_page == csv_header[: len(table_headers)]
    assert [c.name for c in table.columns][1:] == [c.name for c in MEMBER_COLUMNS if c.in_table]
