"""Seasons, categories and a fee schedule at fixed dates, for the club's service tests.

The club's season starts in September (the default), so 2025-26 runs from 2025-09-01 to
2026-08-31. Tests name their days explicitly instead of depending on today's date.
"""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest

from clubsite.models import Category, Fee, FeeKind, Member, Season


def day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


@pytest.fixture
def today(monkeypatch):
    """Freeze the date the services read (``timezone.localdate``); call it with a day."""
    from django.utils import timezone

    def freeze(text: str) -> datetime.date:
        frozen = day(text)
        monkeypatch.setattr(timezone, "localdate", lambda *args, **kwargs: frozen)
        return frozen

    return freeze


@pytest.fixture
def club_year(db):
    """Three seasons, three categories (one free) and 2025-26's fee schedule."""
    seasons = SimpleNamespace(
        s2425=Season.for_date(day("2024-10-01")),
        s2526=Season.for_date(day("2025-10-01")),
        s2627=Season.for_date(day("2026-10-01")),
    )
    std = Category.objects.create(code="std", name="Standard")
    junior = Category.objects.create(code="junior", name="Junior")
    honorary = Category.objects.create(code="honorary", name="Honorary")
    for season in (seasons.s2425, seasons.s2526, seasons.s2627):
        Fee.objects.create(
            season=season, kind=FeeKind.MEMBERSHIP, category=std, amount=Decimal("100.00")
        )
        Fee.objects.create(
            season=season, kind=FeeKind.LICENCE, category=std, amount=Decimal("30.00")
        )
        Fee.objects.create(
            season=season, kind=FeeKind.MEMBERSHIP, category=junior, amount=Decimal("40.00")
        )
        # juniors' licence: no line in the schedule; honorary members pay nothing at all
        Fee.objects.create(
            season=season, kind=FeeKind.MEMBERSHIP, category=honorary, amount=Decimal("0.00")
        )
        Fee.objects.create(
            season=season, kind=FeeKind.LICENCE, category=honorary, amount=Decimal("0.00")
        )
    return SimpleNamespace(**vars(seasons), std=std, junior=junior, honorary=honorary)


@pytest.fixture
def make_member(db):
    counter = iter(range(1, 10_000))

    def make(last_name: str, first_name: str = "Ana", **fields) -> Member:
        fields.setdefault("licence_number", f"L{next(counter):04d}")
        return Member.objects.create(first_name=first_name, last_name=last_name, **fields)

    return make
