"""A licence renewed with no category read "Requested · Fee: 0.00 · paid" and the page still
offered to renew (issue #35): the pages now ask for the category first, and never offer a
renewal that would change nothing."""

import pytest
from django.urls import reverse

from clubsite.members import services
from clubsite.models import Licence, LicenceStatus, Season

pytestmark = pytest.mark.django_db


def test_renewing_without_category_is_refused_with_a_reason(secretary_client, make_member):
    member = make_member("Sanz")
    url = reverse("clubsite:licence_renew", args=[member.pk])
    response = secretary_client.post(url, follow=True)
    html = response.content.decode()
    assert "Elige una categoría para Ana Sanz antes de renovar la licencia" in html
    assert not Licence.objects.filter(member=member).exists()
    page = secretary_client.get(member.get_absolute_url()).content.decode()
    assert 'id="renewal-refusal"' in page and url not in page


def test_bulk_renewal_skips_and_names_members_without_category(
    secretary_client, club_year, make_member
):
    season = Season.current()
    with_category = make_member("Ruiz", category=club_year.std)
    without = make_member("Sanz")
    response = secretary_client.post(
        reverse("clubsite:licences_renew"),
        {"season": season.pk, "member": [with_category.pk, without.pk]},
        follow=True,
    )
    assert "Ana Sanz" in response.content.decode()
    assert list(Licence.objects.values_list("member", flat=True)) == [with_category.pk]


def test_a_requested_licence_is_not_offered_again(secretary_client, club_year, make_member):
    member = make_member("Ruiz", category=club_year.std)
    url = reverse("clubsite:licence_renew", args=[member.pk])
    assert url in secretary_client.get(member.get_absolute_url()).content.decode()
    secretary_client.post(url)
    page = secretary_client.get(member.get_absolute_url()).content.decode()
    assert url not in page and "Solicitada" in page
    licence = Licence.objects.get(member=member)
    licence.status = LicenceStatus.EXPIRED
    licence.save()
    assert url in secretary_client.get(member.get_absolute_url()).content.decode()


def test_an_old_licence_without_category_does_not_read_paid(secretary_client, make_member):
    member = make_member("Sanz")
    services.renew_licence(member, Season.current())  # as the federation's batch may
    page = secretary_client.get(member.get_absolute_url()).content.decode()
    assert "Cuota: desconocida" in page and "pagada" not in page
