"""Real arguments for every route, from the permission matrix's world (``conftest.World``).

Keyed by URL name; a route that takes no arguments is absent. Each value gives the
``reverse`` arguments (and, where the page reads them, a query string).
"""


def _running_session(w):
    return w.section.session


def _registration(w):
    """Someone else's online entry (two members not linked to any account) of the published
    tournament: a member cancelling it is refused; the director may."""
    from django.utils import timezone

    from clubsite.models import Member
    from tournaments.models import Registration, RegistrationPlayer

    registration = Registration.objects.filter(
        tournament=w.published, status="entered", entry__isnull=True
    ).first()
    if registration is None:
        registration = Registration.objects.create(tournament=w.published, queued_at=timezone.now())
        for seat, member in enumerate(
            Member.objects.filter(user__isnull=True).exclude(registrations__live=True)[:2], start=1
        ):
            RegistrationPlayer.objects.create(
                registration=registration, member=member, tournament=w.published, seat=seat
            )
    return registration


def _partner_request(w):
    """Someone else's "partner wanted" line: only its member takes it off the list."""
    from clubsite.models import Member
    from tournaments.models import PartnerRequest

    member = Member.objects.filter(user__isnull=True).first()
    return PartnerRequest.objects.get_or_create(tournament=w.published, member=member, open=True)[0]


def _table_fee(w):
    """A player's table fee in tonight's running session (charged on first need)."""
    from tournaments.services.money import table_fees

    return table_fees.charge_session(_running_session(w))[0]


def _director_call(w):
    """Table A1's open call for the director."""
    from tournaments.models import TableCode
    from tournaments.services.table import director_calls

    code = TableCode.objects.filter(section=w.section, active=True).order_by("table").first()
    return director_calls.call_director(code)


def _room_token(w):
    """The secret link of tonight's running session's room screen."""
    from tournaments.models import RoomScreen

    return RoomScreen.objects.get_or_create(session=_running_session(w))[0].token


def _account_link(w):
    """The link mailed to someone else's account (no role of the matrix): a club member
    not linked to any account, asked to join it. Signed in as anyone else: refused."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from clubsite.accounts import account_links
    from clubsite.models import AccountLink, Member

    owner = User.objects.get_or_create(
        username="matrix-elsewhere", defaults={"email": "elsewhere@example.org"}
    )[0]
    link = AccountLink.objects.filter(user=owner, state="pending").first()
    if link is None:
        member = Member.objects.filter(user__isnull=True).order_by("pk").first()
        link = AccountLink.objects.create(
            member=member, user=owner, nonce="matrix", sent_at=timezone.now()
        )
    return account_links.token_for(link)


def _federation(w):
    from clubsite.models import Club

    return Club.current().federation


def _club(w):
    from clubsite.models import Club

    return Club.current().pk


def _archive(w):
    """A made archive of the matrix's club (stored in the world's media folder)."""
    from django.core.files.base import ContentFile
    from django.utils import timezone

    from clubsite.models import ArchiveState, Club, ClubArchive

    club = Club.current()
    archive = ClubArchive.objects.filter(club=club, state=ArchiveState.DONE).first()
    if archive is None:
        archive = ClubArchive(
            federation=club.federation,
            club=club,
            club_name=club.name,
            state=ArchiveState.DONE,
            started_at=timezone.now(),
            finished_at=timezone.now(),
        )
        archive.file.save("matrix-archive.zip", ContentFile(b"PK\x05\x06" + bytes(18)))
    return archive.pk


ARGS = {
    "federation:archive_download": lambda w: [_federation(w), _archive(w)],
    **{
        f"federation:{n}": lambda w: [_federation(w)]
        for n in ("clubs", "results", "licences", "ranking", "club_new")
    },
    **{
        f"federation:{n}": lambda w: [_federation(w), _club(w)]
        for n in ("club_secretary", "club_archive", "club_licences", "club_leave")
    },
    "results:room": lambda w: [_room_token(w)],
    "director:room": lambda w: [_running_session(w).pk],
    "director:room_clock": lambda w: [_running_session(w).pk],
    "director:room_settings": lambda w: [_running_session(w).pk],
    "director:answer_call": lambda w: [_director_call(w).pk],
    "director:table_pin": lambda w: [_running_session(w).pk],
    "director:table_fees": lambda w: [_running_session(w).pk],
    "director:table_fees_update": lambda w: [_running_session(w).pk],
    "director:cash_sheet": lambda w: [_running_session(w).pk],
    "director:cash_close": lambda w: [_running_session(w).pk],
    "director:cash_reopen": lambda w: [_running_session(w).pk],
    "director:fee_pay": lambda w: [_table_fee(w).pk],
    "director:fee_refund": lambda w: [_table_fee(w).pk],
    "money:balance": lambda w: [w.member.pk],
    "clubsite:member_detail": lambda w: [w.member.pk],
    "clubsite:member_edit": lambda w: [w.member.pk],
    "clubsite:licence_renew": lambda w: [w.member.pk],
    "clubsite:payment_create": lambda w: [w.member.pk],
    "clubsite:account_open": lambda w: [w.member.pk],
    "clubsite:account_link_resend": lambda w: [w.member.pk],
    "clubsite:account_link": lambda w: [_account_link(w)],
    "uploads:endpoint_edit": lambda w: [w.endpoint.pk],
    "uploads:retry": lambda w: [w.upload.upload_id],
    "uploads:manual": lambda w: [w.upload.upload_id],
    "uploads:download": lambda w: [w.upload.upload_id],
    "uploads:import": lambda w: [w.result_import.pk],
    "uploads:import_record": lambda w: [w.result_import.pk],
    "uploads:pdf": lambda w: [w.published.slug],
    "uploads:publish": lambda w: [w.published.slug],
    "uploads:pdf_download": lambda w: [w.pdf.pk],
    "laws:compare": lambda w: [12],
    "laws:toc": lambda w: [w.edition.code],
    "laws:definitions": lambda w: [w.edition.code],
    "laws:law": lambda w: [w.edition.code, 12],
    "director:tournament": lambda w: [w.running.pk],
    "director:tournament_edit": lambda w: [w.running.pk],
    "director:entries": lambda w: [w.running.pk],
    "director:handicaps": lambda w: [w.running.pk],
    "director:member_search": lambda w: ([w.running.pk], "q1=a&slot=1"),
    "director:audit": lambda w: [w.running.pk],
    "director:audit_csv": lambda w: ([w.running.pk], f"session={_running_session(w).pk}"),
    "director:publish_provisional": lambda w: [w.running.pk],
    "director:publish_final": lambda w: [w.running.pk],
    "director:points_award": lambda w: [w.running.pk],
    "director:results_mail": lambda w: [w.running.pk],
    "director:results_mail_send": lambda w: [w.running.pk],
    "director:entry_withdraw": lambda w: [w.published_entry.pk],
    "director:entry_reinstate": lambda w: [w.published_entry.pk],
    "director:entry_substitute": lambda w: [w.published_entry.pk],
    "director:session": lambda w: [_running_session(w).pk],
    "director:section_add": lambda w: [_running_session(w).pk],
    "director:session_start": lambda w: [_running_session(w).pk],
    "director:session_finish": lambda w: [_running_session(w).pk],
    "director:analyse": lambda w: [_running_session(w).pk],
    "director:seat_from_previous": lambda w: [w.two_sessions.sessions.get(number=2).pk],
    "director:movement": lambda w: [w.section.pk],
    "director:individual_movement": lambda w: [w.individual_section.pk],
    "director:individual_tables": lambda w: [w.individual_section.pk],
    "director:individual_players": lambda w: [w.individual_section.pk],
    "director:seating": lambda w: [w.section.pk],
    "director:late_entry": lambda w: [w.section.pk],
    "director:change_rounds": lambda w: [w.section.pk],
    "director:boards": lambda w: [w.section.pk],
    "director:board_conditions": lambda w: [w.section.pk, w.result_a.board.pk],
    "director:pbn_import": lambda w: [w.section.pk],
    "director:deal": lambda w: [w.section.pk],
    "director:print_tables": lambda w: [w.section.pk],
    "director:print_pairs": lambda w: [w.section.pk],
    "director:print_boards": lambda w: [w.section.pk],
    "director:print_sheet": lambda w: [_running_session(w).pk],
    "director:console": lambda w: [_running_session(w).pk],
    "director:find_line": lambda w: (
        [_running_session(w).pk],
        f"section={w.section.pk}&round=1&table=1&board=1",
    ),
    "director:penalties": lambda w: [_running_session(w).pk],
    "director:line": lambda w: [
        w.section.pk,
        w.result_a.round,
        w.result_a.table,
        w.result_a.board.number,
    ],
    "director:resolve": lambda w: [w.result_a.pk],
    "director:confirm": lambda w: [w.result_a.pk],
    "director:keep_disputed": lambda w: [w.result_a.pk],
    "director:teams": lambda w: [w.swiss.pk],
    "director:teams_start": lambda w: [w.swiss.pk],
    "director:teams_draw": lambda w: [w.swiss.pk],
    "director:teams_lineups": lambda w: [w.swiss.pk, w.swiss_match.pk],
    "director:knockout_draw": lambda w: [w.knockout.pk],
    "director:knockout_seeds": lambda w: [w.knockout.pk],
    "director:knockout_carry": lambda w: [w.knockout.pk, w.knockout_match.pk],
    "director:knockout_tie": lambda w: [w.knockout.pk, w.knockout_match.pk],
    # table A1's own board and result: the other table's device must be refused them
    "table:board": lambda w: [w.result_a.round, w.result_a.board.number],
    "table:confirm": lambda w: [w.result_a.pk],
    "table:correct": lambda w: [w.result_a.pk],
    "table:dispute": lambda w: [w.result_a.pk],
    "table:enter": lambda w: [w.code_a.token],
    "results:season_for": lambda w: [w.season.pk],
    "results:player": lambda w: [w.member.pk],
    "results:tournament": lambda w: [w.published.slug],
    "results:pdf": lambda w: [w.published.slug],
    "results:event": lambda w: [w.two_sessions.slug],
    "results:teams": lambda w: [w.swiss.slug],
    "results:teams_schedule": lambda w: [w.swiss.slug],
    "results:teams_round": lambda w: [w.swiss.slug, 1],
    "results:teams_match": lambda w: [w.swiss.slug, w.swiss_match.pk],
    "results:teams_bracket": lambda w: [w.knockout.slug],
    "results:section": lambda w: [w.published.slug, 1, w.published_section.letter],
    "results:pool": lambda w: [w.published.slug, 1, w.published_section.pool],
    "results:scorecard": lambda w: [w.published.slug, 1, w.published_entry.pk],
    "results:board": lambda w: [w.published.slug, 1, w.published_section.pool, 1],
    "results:hands": lambda w: [w.published.slug, 1],
    "password_reset_confirm": lambda w: [w.reset_uid, w.reset_token],
    "calendar:event": lambda w: [w.published.slug],
    "calendar:enter": lambda w: [w.published.slug],
    "calendar:partner_wanted": lambda w: [w.published.slug],
    # a search that finds somebody, so the answer with names is what is checked
    "calendar:partner_search": lambda w: ([w.published.slug], "q=a"),
    "calendar:cancel": lambda w: [_registration(w).pk],
    "calendar:partner_withdraw": lambda w: [_partner_request(w).pk],
    "director:registrations": lambda w: [w.running.pk],
    "director:registrations_take": lambda w: [w.running.pk],
    "director:registration_cancel": lambda w: [_registration(w).pk],
}


def url_of(name: str, world) -> str:
    from django.urls import NoReverseMatch, reverse

    built = ARGS[name](world) if name in ARGS else []
    args, query = built if isinstance(built, tuple) else (built, "")
    try:
        url = reverse(name, args=args)
    except NoReverseMatch as exc:
        raise AssertionError(
            f"{name}: give its arguments in tests/security/route_args.py ({exc})"
        ) from exc
    return f"{url}?{query}" if query else url
