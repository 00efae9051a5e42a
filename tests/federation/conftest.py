"""The federation tests' clubs: Norte (the default club, whichever club that is) and Sur of the AEB, Lisboa of the
FPB, each with the demo's members and a published, final pairs tournament with its master
points; made once for the package (both modules read the same three clubs, a build of
twenty seconds each) and rolled back after it, each test in a savepoint of it."""

import pytest
from django.db import transaction

from clubsite.models import Club, Federation
from clubsite.tenancy import club_scope
from tests.clubs import default_club

SUR_HOST = "sur.example.org"
LISBOA_HOST = "lisboa.example.pt"


@pytest.fixture(scope="package")
def clubs(django_db_setup, django_db_blocker):
    from clubsite.demo import build_club
    from tournaments.demo import build_master_points, build_tournaments

    with django_db_blocker.unblock(), transaction.atomic():
        norte = default_club()
        norte.name, norte.slug, norte.federation = "Club Norte", "norte", Federation.AEB
        norte.save()
        # any other club already there (at a default club other than 1, the empty club 1
        # the migrations made) is of neither federation here
        Club.objects.exclude(pk=norte.pk).update(federation=Federation.OTHER)
        sur = Club.objects.create(
            name="Club Sur", slug="sur", host=SUR_HOST, federation=Federation.AEB
        )
        lisboa = Club.objects.create(
            name="Clube Lisboa", slug="lisboa", host=LISBOA_HOST, federation=Federation.FPB
        )
        for club in (norte, sur, lisboa):
            with club_scope(club):
                build_club()
                build_tournaments(only=("martes",))
                build_master_points()
        yield {"norte": norte, "sur": sur, "lisboa": lisboa}
        transaction.set_rollback(True)
