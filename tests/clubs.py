"""The club the tests work as: the installation's default club (``DEFAULT_CLUB_ID``), which
need not be club 1; the suite passes at any default club (`.ci/run` smokes it at club 2)."""

from django.conf import settings

from clubsite.models import Club


def default_club() -> Club:
    """The default club's row: the club a host naming no club reaches, and the one
    ``tests/conftest.py`` opens its scope on."""
    return Club.objects.get(pk=settings.DEFAULT_CLUB_ID)
