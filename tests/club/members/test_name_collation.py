"""Names sort as the reader's language does (issue #35): accents and case are not letters.

Runs on SQLite (a collation registered on each connection) and on PostgreSQL (ICU) alike;
``DATABASE_URL=postgres://…`` runs the same tests there.
"""

import pytest
from django.urls import reverse
from django.utils import translation

from clubsite.models import Member
from clubsite.web.collation import Collated, collated, collation_key, collation_name
from tournaments.tables import ranking_table

pytestmark = pytest.mark.django_db

SURNAMES = [
    "Domínguez",
    "Díaz",
    "álvarez",
    "Zapata",
    "Álvarez",
    "Núñez",
    "Nuño",
    "Oliva",
    "Ortega",
    "Navas",
]
EXPECTED = [
    "álvarez",
    "Álvarez",
    "Díaz",
    "Domínguez",
    "Navas",
    "Núñez",
    "Nuño",
    "Oliva",
    "Ortega",
    "Zapata",
]


def _members():
    for name in SURNAMES:
        Member.objects.create(first_name="X", last_name=name)


def test_the_key_folds_accents_and_case_and_keeps_enye_a_letter():
    assert sorted(["José", "Ángel", "Íñigo"], key=collation_key) == ["Ángel", "Íñigo", "José"]
    assert sorted(["Ñu", "Nz", "Oa"], key=collation_key) == ["Nz", "Ñu", "Oa"]
    assert sorted(["Ñu", "Nz"], key=lambda t: collation_key(t, "pt")) == ["Ñu", "Nz"]
    assert collation_name("pt-br") == "pt-x-icu" and collation_name("de") == "es-x-icu"


def test_members_default_ordering_follows_the_language():
    _members()
    with translation.override("es"):
        got = [m.last_name for m in Member.objects.all()]
    # the tie "álvarez"/"Álvarez" is broken by the text itself, differently per engine
    assert [n.casefold() for n in got] == [n.casefold() for n in EXPECTED]
    assert got.index("Díaz") < got.index("Domínguez") < got.index("Navas")


def test_first_names_sort_with_accents():
    for first in ("José", "Ángel", "Óscar", "Ana"):
        Member.objects.create(first_name=first, last_name="García")
    with translation.override("es"):
        got = list(
            Member.objects.order_by(*collated("first_name")).values_list("first_name", flat=True)
        )
    assert got == ["Ana", "Ángel", "José", "Óscar"]


def test_descending_collated_order():
    _members()
    got = list(
        Member.objects.order_by(Collated("last_name").desc()).values_list("last_name", flat=True)
    )
    assert got[0] == "Zapata" and got[-1].casefold() == "álvarez"


def test_member_list_sorted_by_last_name_both_ways(secretary_client):
    _members()
    url = reverse("clubsite:member_list")
    html = secretary_client.get(url).content.decode()
    positions = [html.index(f">{n}<") for n in ("Álvarez", "Díaz", "Domínguez", "Zapata")]
    assert positions == sorted(positions)
    html = secretary_client.get(url, {"sort": "-last_name"}).content.decode()
    positions = [html.index(f">{n}<") for n in ("Zapata", "Domínguez", "Díaz", "Álvarez")]
    assert positions == sorted(positions)


def test_ranking_and_season_tables_sort_names_by_collation(rf):
    rows = [
        {
            "place": i,
            "place_label": str(i),
            "number": i,
            "names": name,
            "points": 0,
            "percentage": 50,
        }
        for i, name in enumerate(
            ["José Ruiz - Ana Paz", "Ángel Díaz - Eva Sanz", "Zoe Gil - Luis Ros"], 1
        )
    ]
    table = ranking_table(rows, imps=False)
    table.order_by = "names"
    assert [r.record["names"][:5] for r in table.rows] == ["Ángel", "José ", "Zoe G"]
    season = [
        {
            "place": i,
            "place_label": str(i),
            "name": n,
            "member_id": i,
            "url": "/",
            "score": 1,
            "counted": 1,
            "played": 1,
            "average": None,
            "average_sort": -1,
        }
        for i, n in enumerate(["Domínguez", "Díaz", "Álvarez"], 1)
    ]
    from tournaments.views.public.results import _season_rows

    assert [r["name"] for r in _season_rows(season, "name")] == ["Álvarez", "Díaz", "Domínguez"]


def test_the_balances_page_lists_names_in_order(secretary_client):
    """A grouped query (balances summed) ordered by the collation, on both engines."""
    from tournaments.services.money import table_fees

    for name in ("Domínguez", "Álvarez", "Díaz"):
        table_fees.top_up(Member.objects.create(first_name="X", last_name=name), "5", "cash")
    html = secretary_client.get(reverse("money:balances")).content.decode()
    positions = [html.index(n) for n in ("Álvarez", "Díaz", "Domínguez")]
    assert positions == sorted(positions)
