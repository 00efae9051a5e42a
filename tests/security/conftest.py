"""One world of real objects for the permission matrix, built once per module.

Every route is reversed with the pks and slugs of these objects, so each role meets the
page as it is in use (a running session, published results, a teams match, a knockout,
a federation upload...), not an empty 404. The world is built inside a transaction that
is rolled back when the module ends; each test runs in its own savepoint inside it, so
what an allowed role's POST changes is undone before the next test.
"""

import time
import uuid
from dataclasses import dataclass, field
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.base import UpdateError
from django.core.files.base import ContentFile
from django.db import connection, transaction
from django.test import Client, override_settings

from clubsite.accounts.permissions import Role
from clubsite.accounts.staff_sessions import LAST_SEEN
from tests.conftest import make_user
from tests.security import worlds
from tests.security.permission_expectations import (
    ADMIN,
    ANONYMOUS,
    DEVICE_A,
    DEVICE_OTHER,
    DIRECTOR,
    PLAYER,
    SECRETARY,
)
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import (  # noqa: F401 (fixtures used by name)
    members,
    mitchell_session,
    movements,
    pairs,
)
from tournaments.views.table.device import SESSION_KEY


@dataclass
class World:
    users: dict
    member: object
    season: object
    running: object  # the tournament being played tonight (table devices sign in here)
    section: object  # its section A
    code_a: object  # table A1's code
    code_other: object  # table A2's code
    result_a: object  # a result of table A1
    result_other: object  # a result of table A2
    published: object  # a finished, published pairs tournament
    published_section: object
    published_entry: object
    individual_section: object
    two_sessions: object  # a published two-session pairs tournament (its overall ranking)
    swiss: object
    swiss_match: object
    knockout: object
    knockout_match: object
    endpoint: object
    upload: object
    result_import: object
    pdf: object
    edition: object
    reset_uid: str
    reset_token: str
    sessions: dict = field(default_factory=dict)  # role → (session key, its signed-in data)

    def client(self, role: str) -> Client:
        """A fresh client in ``role``: a logged-in user, a table device, or nobody.

        Each role is signed in once, with the world: a sign-in for every request was a
        tenth of the matrix. The role's session row is written back to its signed-in state
        first, so nothing a request before did to it (a sign-out, a new key, a note kept)
        reaches this client, and a staff session is as freshly active as after a sign-in."""
        client = Client()
        if role != ANONYMOUS:
            key, data = self.sessions[role]
            _restore_session(key, data)
            client.cookies[settings.SESSION_COOKIE_NAME] = key
        return client


def _signed_in(client: Client) -> tuple[str, dict]:
    """The key and the data of ``client``'s session, to hand to the clients of its role."""
    session = client.session
    return session.session_key, dict(session.items())


def _restore_session(key: str, data: dict) -> None:
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key=key)
    store.clear()  # the signed-in data, not what the row holds now
    store.update(data)
    if LAST_SEEN in data:
        store[LAST_SEEN] = time.time()  # what ``stamp_sign_in`` writes at a sign-in
    try:
        store.save()
    except UpdateError:  # signed out, or moved to a new key: the row is gone
        store.save(must_create=True)


def _build(media_root) -> World:
    from clubsite.demo import build_club
    from clubsite.models import Member, Season
    from laws.importer import parse_all
    from laws.models import Edition
    from laws.services import store
    from tournaments.demo import build_tournaments
    from tournaments.documents import current_version
    from tournaments.models import (
        EventType,
        Result,
        ResultStatus,
        TableCode,
        TeamMatch,
        Tournament,
    )
    from tournaments.models.uploads import (
        FederationEndpoint,
        FileFormat,
        PdfKind,
        PdfState,
        ResultImport,
        ResultsPdf,
    )

    build_club()
    build_tournaments(only=("martes", "tarde", "otono"))  # not the Howell: nothing needs it
    store(parse_all())
    users = {
        SECRETARY: make_user("matrix-secretary", Role.SECRETARY),
        DIRECTOR: make_user("matrix-director", Role.DIRECTOR),
        PLAYER: make_user("matrix-player", Role.PLAYER),
        ADMIN: User.objects.create_superuser("matrix-admin", password="pass-1234-word"),
    }
    sessions = {  # each with an authenticator app, before any state is read
        role: _signed_in(sign_in_verified(Client(), user)) for role, user in users.items()
    }
    published = Tournament.objects.get(slug__endswith="torneo-de-los-martes")
    published_section = published.sessions.get().sections.get(letter="A")
    published_entry = published.entries.first()
    member = published_entry.entry_players.first().member
    member.user = users[PLAYER]
    member.save(update_fields=["user"])

    running = Tournament.objects.get(slug__endswith="torneo-de-la-tarde")
    section = running.sessions.get().sections.get(letter="A")
    code_a = TableCode.objects.get(section=section, table=1, active=True)
    code_other = TableCode.objects.get(section=section, table=2, active=True)
    for role, code in ((DEVICE_A, code_a), (DEVICE_OTHER, code_other)):
        device = Client()
        session = device.session
        session[SESSION_KEY] = code.pk
        session.save()
        sessions[role] = _signed_in(device)
    played = Result.objects.filter(section=section, status=ResultStatus.OK, round=1)
    # Not yet agreed by the opponents: a confirmation that got through would show.
    played.filter(table__in=(1, 2)).update(confirmed=False)

    swiss = Tournament.objects.get(slug__endswith="swiss-de-equipos-de-otono")
    club_members = list(Member.objects.order_by("licence_number"))
    knockout, knockout_match = worlds.knockout(club_members)
    two_sessions = worlds.two_sessions(club_members)
    endpoint = FederationEndpoint.objects.create(name="AEB", url="https://federation.example/")
    upload = endpoint.uploads.create(
        tournament=published,
        file_format=FileFormat.USEBIO,
        file_name="martes.xml",
        content="<USEBIO/>",
        content_hash=uuid.uuid4().hex,
    )
    with override_settings(MEDIA_ROOT=media_root):
        pdf = ResultsPdf.objects.create(
            tournament=published,
            kind=PdfKind.RESULTS,
            language="es",
            version=current_version(published),
            state=PdfState.DONE,
            file=ContentFile(b"%PDF-1.4 matrix", name="martes.pdf"),
        )
    # A password-reset link of a user no client logs in as (a login would spoil the token).
    reset_uid, reset_token = worlds.reset_link(User.objects.get(username="jugador"))
    return World(
        users=users,
        member=member,
        season=Season.current(),
        running=running,
        section=section,
        code_a=code_a,
        code_other=code_other,
        result_a=played.get(table=1, board__number=1),
        result_other=played.filter(table=2).first(),
        published=published,
        published_section=published_section,
        published_entry=published_entry,
        individual_section=Tournament.objects.get(event_type=EventType.INDIVIDUAL)
        .sessions.get()
        .sections.get(),
        two_sessions=two_sessions,
        swiss=swiss,
        swiss_match=TeamMatch.objects.filter(session__tournament=swiss).first(),
        knockout=knockout,
        knockout_match=knockout_match,
        endpoint=endpoint,
        upload=upload,
        result_import=ResultImport.objects.create(
            file_name="club.xml", state="done", tournament=published
        ),
        pdf=pdf,
        edition=Edition.objects.order_by("position").first(),
        reset_uid=reset_uid,
        reset_token=reset_token,
        sessions=sessions,
    )


def checked(world: World) -> World:
    """``world`` with its foreign keys checked now, once. PostgreSQL defers the checks of
    the rows inserted to the end of the transaction; a test's teardown checks them
    (``SET CONSTRAINTS ALL IMMEDIATE``), and rolling back its savepoint marks the world's
    unchecked again: every test of a module paid for checking the whole world's rows."""
    connection.check_constraints()
    return world


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The world, rolled back at the end of the module (never committed)."""
    media_root = tmp_path_factory.mktemp("matrix-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media_root):
        with transaction.atomic():
            yield checked(_build(media_root))
            transaction.set_rollback(True)
