"""A believable demo club, built idempotently (running it twice changes nothing).

Other apps add their own demo data by registering a builder with ``demo_builder``; the
``demo`` command runs the club first, then every registered builder in order.
"""

import datetime
import random
from collections.abc import Callable
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.module_loading import autodiscover_modules

from clubsite.accounts.permissions import Role, grant
from clubsite.members import services
from clubsite.tenancy import club_scope, default_club_id

from .models import (
    Category,
    Club,
    Federation,
    Fee,
    FeeKind,
    Licence,
    LicenceStatus,
    Member,
    MemberStatus,
    PaymentMethod,
    Season,
)

DEMO_PASSWORD = "demo1234"
DEMO_USERS = (
    # username, first name, last name, roles, licence number of the linked member
    ("secretaria", "Carmen", "Ruiz Peña", (Role.SECRETARY, Role.PLAYER), "AEB-10001"),
    ("director", "Jorge", "Álvarez Soto", (Role.DIRECTOR, Role.PLAYER), "AEB-10002"),
    ("jugador", "Lucía", "Fernández Ibáñez", (Role.PLAYER,), "AEB-10003"),
)
FIRST_NAMES = [
    ("Antonio", "M"),
    ("María", "F"),
    ("José", "M"),
    ("Isabel", "F"),
    ("Manuel", "M"),
    ("Pilar", "F"),
    ("Francisco", "M"),
    ("Dolores", "F"),
    ("Javier", "M"),
    ("Teresa", "F"),
    ("Miguel", "M"),
    ("Rosa", "F"),
    ("Rafael", "M"),
    ("Mercedes", "F"),
    ("Ángel", "M"),
    ("Concepción", "F"),
    ("Fernando", "M"),
    ("Begoña", "F"),
    ("Luis", "M"),
    ("Inés", "F"),
    ("João", "M"),
    ("Conceição", "F"),
    ("Gonçalo", "M"),
    ("Inês", "F"),
    ("Nuno", "M"),
]
LAST_NAMES = [
    "García",
    "Martínez",
    "López",
    "Sánchez",
    "Pérez",
    "Gómez",
    "Martín",
    "Jiménez",
    "Hernández",
    "Muñoz",
    "Díaz",
    "Moreno",
    "Álvarez",
    "Romero",
    "Navarro",
    "Torres",
    "Domínguez",
    "Vázquez",
    "Ramos",
    "Gil",
    "Serrano",
    "Blanco",
    "Castaño",
    "Ortega",
    "Rubio",
    "Molina",
    "Delgado",
    "Morales",
    "Ortiz",
    "Núñez",
    "Sousa",
    "Gonçalves",
    "Magalhães",
    "Araújo",
    "Peña",
    "Ibáñez",
]
CATEGORIES = (("standard", "Estándar"), ("junior", "Junior"), ("senior", "Sénior"))
FEES = {  # category: (membership, licence)
    "standard": (Decimal("120.00"), Decimal("35.00")),
    "junior": (Decimal("40.00"), Decimal("10.00")),
    "senior": (Decimal("90.00"), Decimal("35.00")),
}
MEMBER_COUNT = 60

_builders: list[tuple[str, Callable[[], str]]] = []


def demo_builder(name: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register ``function`` (returning a one-line report) to run after the club is built."""

    def register(function: Callable[[], str]) -> Callable[[], str]:
        if name not in {n for n, _f in _builders}:
            _builders.append((name, function))
        return function

    return register


def registered_builders() -> list[tuple[str, Callable[[], str]]]:
    return list(_builders)


@transaction.atomic
def build_club() -> str:
    club = Club.current()
    if club.name in ("", "Club de Bridge"):
        club.name = "Club de Bridge Mediterráneo"
        club.federation = Federation.AEB
        club.federation_club_id = "AEB-0427"
        club.address = "Calle del Mar 12\n46001 Valencia"
        club.season_start_month = 9
        club.contact_email = "secretaria@bridge-mediterraneo.example"
        club.contact_phone = "+34 960 000 427"
        club.save()
    current = Season.current()
    previous = current.previous()
    following = current.next()
    categories = {}
    for code, name in CATEGORIES:
        categories[code], _created = Category.objects.get_or_create(
            code=code, defaults={"name": name}
        )
    for season in (previous, current, following):
        for code, (membership, licence) in FEES.items():
            Fee.objects.get_or_create(
                season=season,
                kind=FeeKind.MEMBERSHIP,
                category=categories[code],
                defaults={"amount": membership},
            )
            Fee.objects.get_or_create(
                season=season,
                kind=FeeKind.LICENCE,
                category=categories[code],
                defaults={"amount": licence},
            )

    rng = random.Random(427)
    members = []
    for index in range(MEMBER_COUNT):
        number = f"AEB-{10001 + index}"
        if index < len(DEMO_USERS):
            _user, first, last, _roles, _number = DEMO_USERS[index]
            gender = "F" if first in ("Carmen", "Lucía") else "M"
        else:
            first, gender = rng.choice(FIRST_NAMES)
            last = f"{rng.choice(LAST_NAMES)} {rng.choice(LAST_NAMES)}"
        category = rng.choices(["standard", "junior", "senior"], weights=[6, 1, 3])[0]
        is_guest = index >= MEMBER_COUNT - 6
        status = MemberStatus.ACTIVE
        if index % 17 == 16:
            status = MemberStatus.LAPSED
        elif index == 30:
            status = MemberStatus.RESIGNED
        member, created = Member.objects.get_or_create(
            licence_number=number,
            defaults={
                "first_name": first,
                "last_name": last,
                "gender": gender,
                "category": categories[category],
                "status": status,
                "is_guest": is_guest,
                "home_club": "Club de Bridge Alicante" if is_guest else "",
                "email": f"socio{index + 1}@bridge-mediterraneo.example" if index % 5 else "",
                "phone": f"+34 6{rng.randrange(10**7, 10**8)}",
                "birth_date": datetime.date(
                    rng.randint(1940, 2005), rng.randint(1, 12), rng.randint(1, 28)
                ),
                "joined_on": datetime.date(rng.randint(2000, current.start.year), 9, 15),
                "privacy_consent_on": datetime.date(current.start.year, 9, 20)
                if index % 4
                else None,
            },
        )
        members.append(member)
        if created and not is_guest:
            _licences_for(member, index, previous, current, club)

    for username, first, last, roles, number in DEMO_USERS:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={
                "first_name": first,
                "last_name": last,
                "email": f"{username}@bridge-mediterraneo.example",
            },
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        grant(user, *roles)
        Member.objects.filter(licence_number=number, user__isnull=True).update(user=user)
    return f"club “{club.name}”: {Member.objects.count()} members, seasons {previous}–{following}"


def _licences_for(member: Member, index: int, previous: Season, current: Season, club) -> None:
    """Licence histories in every state the secretary meets: valid, requested, expired,
    cancelled, never licensed; with some payments, so arrears show up."""
    pattern = index % 10
    if pattern == 9:
        return  # never licensed
    Licence.objects.create(
        member=member,
        season=previous,
        federation=club.federation,
        number=member.licence_number,
        category=member.category,
        status=LicenceStatus.EXPIRED,
        valid_from=previous.start,
        valid_until=previous.end,
        fee=services.fee_for(previous, FeeKind.LICENCE, member.category),
        paid=True,
    )
    if pattern in (7, 8) or member.status != MemberStatus.ACTIVE:
        return  # licence expired: not renewed this season
    status = {5: LicenceStatus.REQUESTED, 6: LicenceStatus.CANCELLED}.get(
        pattern, LicenceStatus.ACTIVE
    )
    licence = Licence.objects.create(
        member=member,
        season=current,
        federation=club.federation,
        number=member.licence_number,
        category=member.category,
        status=status,
        valid_from=current.start,
        valid_until=current.end,
        fee=services.fee_for(current, FeeKind.LICENCE, member.category),
    )
    if pattern in (0, 1, 2, 3):
        services.record_payment(
            member=member,
            season=current,
            kind=FeeKind.LICENCE,
            amount=licence.fee,
            method=PaymentMethod.TRANSFER,
            paid_on=current.start + datetime.timedelta(days=20),
        )
    if pattern in (0, 1, 4):
        membership = services.fee_for(current, FeeKind.MEMBERSHIP, member.category)
        services.record_payment(
            member=member,
            season=current,
            kind=FeeKind.MEMBERSHIP,
            amount=membership,
            method=PaymentMethod.DIRECT_DEBIT,
            paid_on=current.start + datetime.timedelta(days=5),
        )


# A demo federation (``manage.py demo --federation``): three clubs on one installation, each
# at its own sub-domain. The same three people are members of each (one licence number,
# one account each): the player's own pages show each club's results at its address.
DEMO_CLUBS = (
    # short name, club name, city
    ("mediterraneo", "Club de Bridge Mediterráneo", "Calle del Mar 12\n46001 Valencia"),
    ("atlantico", "Club de Bridge Atlántico", "Rúa do Porto 3\n36202 Vigo"),
    ("cantabrico", "Club de Bridge Cantábrico", "Paseo de Pereda 20\n39004 Santander"),
)


def build_federation() -> list[str]:
    """The three demo clubs, each built as ``build_demo`` builds the one club."""
    reports = []
    for index, (slug, name, address) in enumerate(DEMO_CLUBS):
        club = (
            Club.objects.filter(pk=default_club_id()).first()
            if index == 0
            else Club.objects.filter(slug=slug).first()
        )
        if club is None:
            club = Club.objects.create(name=name)
        if club.slug != slug:
            club.slug, club.name, club.address = slug, name, address
            club.federation, club.federation_club_id = Federation.AEB, f"AEB-{427 + index}"
            club.save()
        with club_scope(club):
            reports += [f"{slug}: {line}" for line in build_demo()]
    reports.append(_demo_officer())
    return reports


DEMO_OFFICER = "federacion"  # the demo federation's officer (AEB): /federation/ on any club


def _demo_officer() -> str:
    from django.contrib.auth.models import User

    from clubsite.accounts.permissions import appoint_officer

    user, made = User.objects.get_or_create(
        username=DEMO_OFFICER, defaults={"first_name": "Elena", "last_name": "Marín Gil"}
    )
    if made:
        user.set_password(DEMO_PASSWORD)
        user.save()
    appoint_officer(user, Federation.AEB)
    return f"federation officer: {DEMO_OFFICER} (AEB)"


def build_demo() -> list[str]:
    autodiscover_modules("demo")
    reports = [build_club()]
    for _name, builder in registered_builders():
        reports.append(builder())
    return reports
