"""Who may reach each route: one decision per URL name, written out by hand.

The permission matrix (``test_permission_matrix.py``) walks the URL resolver and fails on a
route missing here ("route X has no permission decision"): adding a page means deciding who
may open it. Each decision names the declaration the view must wear
(``clubsite/accounts/permissions.py``: ``view.access``), how the route is used (a page read with
GET, or a POST-only action tried with an empty body) and, per role, what that role gets.

The roles (columns of every row): an anonymous visitor, a player (a member's account in
the Player group), the table device of table A1 of tonight's running session, the device
of table A2 of the same section, the secretary, the director, and a superuser.

Arguments always point at table A1's objects (its board, its result), so the A2 column
says what another table's device gets for them.
"""

from dataclasses import dataclass

from clubsite.accounts.permissions import AUTHENTICATED, OFFICER, PUBLIC, Role
from tournaments.views.table.device import TABLE_DEVICE


@dataclass(frozen=True)
class Outcome:
    """What a response must be: its status codes and, for redirects, where it goes."""

    label: str
    statuses: frozenset
    to: str | None = None  # "login" or "table sign-in": the redirect's target must be it

    def __str__(self) -> str:
        return self.label


OK = Outcome("200", frozenset({200}))
# An allowed role's POST with an empty body: done, redirected, or told the form is wrong.
ACTED = Outcome("2xx/3xx/400", frozenset({200, 201, 302, 303, 400}))
MOVED = Outcome("302", frozenset({302}))  # a public redirect (language, sign-in by QR, ...)
LOGIN = Outcome("302 to login", frozenset({302}), to="login")
SIGN_IN = Outcome("302 to the table sign-in", frozenset({302}), to="table sign-in")
DENIED = Outcome("403", frozenset({403}))
MISSING = Outcome("404", frozenset({404}))

# What refusing looks like (the gate's answers): never a page, never a change.
REFUSALS = (LOGIN, SIGN_IN, DENIED)

ANONYMOUS, PLAYER, DEVICE_A, DEVICE_OTHER, SECRETARY, DIRECTOR, ADMIN = ROLES = (
    "anonymous",
    "player",
    "table device A1",
    "table device A2",
    "secretary",
    "director",
    "admin",
)


def row(anonymous, player, device_a, device_other, secretary, director, admin) -> dict:
    return dict(
        zip(
            ROLES,
            (anonymous, player, device_a, device_other, secretary, director, admin),
            strict=True,
        )
    )


def allowed(base: dict, outcome: Outcome) -> dict:
    """``base`` with every role it lets in answering ``outcome`` instead of 200."""
    return {role: outcome if got is OK else got for role, got in base.items()}


# --- the audiences ---------------------------------------------------------------------------
#                 anonymous  player   device A1  device A2  secretary  director  admin
EVERYONE = row(OK, OK, OK, OK, OK, OK, OK)
LOGGED_IN = row(LOGIN, OK, LOGIN, LOGIN, OK, OK, OK)
SECRETARY_ONLY = row(LOGIN, DENIED, LOGIN, LOGIN, OK, DENIED, OK)
DIRECTOR_ONLY = row(LOGIN, DENIED, LOGIN, LOGIN, DENIED, OK, OK)
RESULTS_OFFICE = row(LOGIN, DENIED, LOGIN, LOGIN, OK, OK, OK)
# A federation's officers (above the clubs; the matrix's superuser is one of every federation).
OFFICER_ONLY = row(LOGIN, DENIED, LOGIN, LOGIN, DENIED, DENIED, OK)
# A table's own screens: each device sees its own table, nobody else is a device.
EACH_DEVICE = row(SIGN_IN, SIGN_IN, OK, OK, SIGN_IN, SIGN_IN, SIGN_IN)
# Table A1's board: A2's device is refused it.
DEVICE_A_ONLY = row(SIGN_IN, SIGN_IN, OK, DENIED, SIGN_IN, SIGN_IN, SIGN_IN)
# Line-ups are for a teams match's table; tonight's pairs tables have none.
NO_DEVICE = row(SIGN_IN, SIGN_IN, DENIED, DENIED, SIGN_IN, SIGN_IN, SIGN_IN)
# POST-only table actions: without a device the guard answers 403 (JSON or page).
EACH_DEVICE_ACTION = row(DENIED, DENIED, ACTED, ACTED, DENIED, DENIED, DENIED)
DEVICE_A_ACTION = row(DENIED, DENIED, ACTED, DENIED, DENIED, DENIED, DENIED)
EVERYONE_MOVED = row(MOVED, MOVED, MOVED, MOVED, MOVED, MOVED, MOVED)
SIGNED_IN_MOVED = row(LOGIN, MOVED, LOGIN, LOGIN, MOVED, MOVED, MOVED)
# The player's own results page: their member page (and their other clubs'); an account
# linked to no member gets the "no member" page (404).
MY_RESULTS = row(LOGIN, OK, LOGIN, LOGIN, MISSING, MISSING, MISSING)

# Finding a partner: for accounts linked to a club member (only the player's is); other
# accounts are refused (403), table devices and visitors sent to sign in.
MEMBERS_ONLY = row(LOGIN, OK, LOGIN, LOGIN, DENIED, DENIED, DENIED)

# Someone else's online entry or "partner wanted" line: every account is let in and refused
# (403, nothing changed) unless it is in it; nobody in the matrix is.
NOT_YOURS = row(LOGIN, DENIED, LOGIN, LOGIN, DENIED, DENIED, DENIED)
SECRETARY_ACTION = allowed(SECRETARY_ONLY, ACTED)
DIRECTOR_ACTION = allowed(DIRECTOR_ONLY, ACTED)
RESULTS_OFFICE_ACTION = allowed(RESULTS_OFFICE, ACTED)
# ``uploads:send`` with an empty body names no endpoint: 404 for those let in.
SEND_WITHOUT_ENDPOINT = allowed(SECRETARY_ONLY, MISSING)

# --- the declarations ------------------------------------------------------------------------
PUBLIC_VIEW = (PUBLIC,)
AUTHENTICATED_VIEW = (AUTHENTICATED,)
SECRETARY_VIEW = (Role.SECRETARY,)
DIRECTOR_VIEW = (Role.DIRECTOR,)
OFFICE_VIEW = (Role.SECRETARY, Role.DIRECTOR)
DEVICE_VIEW = (TABLE_DEVICE,)
OFFICER_VIEW = (OFFICER,)

GET, POST = "GET", "POST"


@dataclass(frozen=True)
class Decision:
    access: tuple  # what the view declares (``view.access``)
    method: str  # GET: a page (and POSTing to it is tried too); POST: a POST-only action
    outcomes: dict  # role -> Outcome


def page(access, outcomes) -> Decision:
    return Decision(access, GET, outcomes)


def action(access, outcomes) -> Decision:
    return Decision(access, POST, outcomes)


def _secretary_pages(*names) -> dict:
    return {f"clubsite:{n}": page(SECRETARY_VIEW, SECRETARY_ONLY) for n in names}


def _director_pages(*names) -> dict:
    return {f"director:{n}": page(DIRECTOR_VIEW, DIRECTOR_ONLY) for n in names}


def _director_actions(*names) -> dict:
    return {f"director:{n}": action(DIRECTOR_VIEW, DIRECTOR_ACTION) for n in names}


DECISIONS: dict[str, Decision] = {
    "home": page(PUBLIC_VIEW, EVERYONE),
    # the secretary's club
    **_secretary_pages(
        "member_list",
        "member_create",
        "member_export",
        "member_detail",
        "member_edit",
        "payment_create",
        "categories",
        "licences_renew",
        "roster_import",
        "arrears",
        "fee_schedule",
        "club_settings",
        "audit_log",
        "arrears_preview",
        "arrears_sent",
    ),
    **{
        f"clubsite:{n}": action(SECRETARY_VIEW, SECRETARY_ACTION)
        for n in (
            "licence_renew",
            "account_open",
            "account_link_resend",
            "roster_confirm",
            "arrears_remind",
        )
    },
    "clubsite:profile": page(AUTHENTICATED_VIEW, LOGGED_IN),
    # the owner's answer to a club asking to link their account (the link mailed to them):
    # any account signs in to it, only the one it was mailed to may see or answer it; the
    # matrix's link is for an account none of its roles is (403, nothing changed)
    "clubsite:account_link": page(AUTHENTICATED_VIEW, NOT_YOURS),
    # table money: the door list and the cash sheet are the results office's (the director
    # marks fees paid at the door, the secretary too); only the secretary closes or reopens
    # a cash sheet, tops up balances and reads the reports; a player sees their own account.
    "director:table_fees": page(OFFICE_VIEW, RESULTS_OFFICE),
    "director:cash_sheet": page(OFFICE_VIEW, RESULTS_OFFICE),
    "director:fee_pay": action(OFFICE_VIEW, RESULTS_OFFICE_ACTION),
    "director:table_fees_update": action(OFFICE_VIEW, RESULTS_OFFICE_ACTION),
    "director:fee_refund": action(OFFICE_VIEW, RESULTS_OFFICE_ACTION),
    "director:cash_close": action(SECRETARY_VIEW, SECRETARY_ACTION),
    "director:cash_reopen": action(SECRETARY_VIEW, SECRETARY_ACTION),
    **{
        f"money:{n}": page(SECRETARY_VIEW, SECRETARY_ONLY)
        for n in (
            "report",
            "report_csv",
            "report_xlsx",
            "unpaid",
            "unpaid_csv",
            "unpaid_xlsx",
            "rates",
            "balances",
            "balance",
        )
    },
    "money:mine": page(AUTHENTICATED_VIEW, LOGGED_IN),
    # the master points scale (the secretary's; the director awards from the tournament page)
    "points:scale": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "director:points_award": action(DIRECTOR_VIEW, DIRECTOR_ACTION),
    # federation uploads (secretary), result imports (director), the results office (both)
    "uploads:index": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "uploads:endpoint_new": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "uploads:endpoint_edit": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "uploads:send": action(SECRETARY_VIEW, SEND_WITHOUT_ENDPOINT),
    "uploads:licences": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "uploads:retry": action(SECRETARY_VIEW, SECRETARY_ACTION),
    "uploads:manual": action(SECRETARY_VIEW, SECRETARY_ACTION),
    "uploads:download": page(SECRETARY_VIEW, SECRETARY_ONLY),
    "uploads:imports": page(OFFICE_VIEW, RESULTS_OFFICE),
    "uploads:import": page(OFFICE_VIEW, RESULTS_OFFICE),
    "uploads:import_record": action(DIRECTOR_VIEW, DIRECTOR_ACTION),
    "uploads:pdf": page(OFFICE_VIEW, RESULTS_OFFICE),
    "uploads:publish": action(OFFICE_VIEW, RESULTS_OFFICE_ACTION),
    "uploads:pdf_download": page(OFFICE_VIEW, RESULTS_OFFICE),
    # the laws: anyone
    **{
        f"laws:{n}": page(PUBLIC_VIEW, EVERYONE)
        for n in ("index", "search", "compare", "toc", "definitions", "law")
    },
    # the director
    # secretaries too where the club allows it (not in the matrix's club: refused)
    "director:tournament_create": page(OFFICE_VIEW, DIRECTOR_ONLY),
    **_director_pages(
        "index",
        "tournament",
        "tournament_edit",
        "entries",
        "handicaps",
        "member_search",
        "audit",
        "audit_csv",
        "entry_substitute",
        "session",
        "seat_from_previous",
        "movement",
        "individual_movement",
        "individual_tables",
        "individual_players",
        "seating",
        "boards",
        "print_tables",
        "print_pairs",
        "print_boards",
        "print_sheet",
        "console",
        "penalties",
        "line",
        "law_hint",
        "teams",
        "teams_lineups",
        "results_mail",
    ),
    # the console's "open a line" box answers with a redirect to the line
    "director:find_line": page(DIRECTOR_VIEW, allowed(DIRECTOR_ONLY, MOVED)),
    # table mode: a table's call answered, the PIN that lets a device leave its table
    **_director_actions("answer_call", "table_pin"),
    # the room screen: its controls are the director's; the screen opens by its secret link
    **_director_pages("room"),
    **_director_actions("room_clock", "room_settings"),
    "results:room": page(PUBLIC_VIEW, EVERYONE),
    **_director_actions(
        "publish_provisional",
        "publish_final",
        "entry_withdraw",
        "entry_reinstate",
        "section_add",
        "session_start",
        "session_finish",
        "analyse",
        "late_entry",
        "change_rounds",
        "board_conditions",
        "pbn_import",
        "deal",
        "resolve",
        "confirm",
        "keep_disputed",
        "teams_start",
        "teams_draw",
        "knockout_draw",
        "knockout_seeds",
        "knockout_carry",
        "knockout_tie",
        "results_mail_send",
    ),
    # the calendar: anyone reads it; entering needs an account (the services refuse what is
    # not the member's own)
    "calendar:index": page(PUBLIC_VIEW, EVERYONE),
    "calendar:feed": page(PUBLIC_VIEW, EVERYONE),
    "calendar:event": page(PUBLIC_VIEW, EVERYONE),
    "calendar:enter": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "calendar:partner_wanted": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "calendar:partner_search": page(AUTHENTICATED_VIEW, MEMBERS_ONLY),
    "calendar:cancel": action(AUTHENTICATED_VIEW, NOT_YOURS),
    "calendar:partner_withdraw": action(AUTHENTICATED_VIEW, NOT_YOURS),
    **_director_pages("registrations"),
    **_director_actions("registrations_take", "registration_cancel"),
    # the table devices
    "table:index": page(PUBLIC_VIEW, EVERYONE),
    "table:enter": page(PUBLIC_VIEW, EVERYONE),
    "table:service_worker": page(PUBLIC_VIEW, EVERYONE),  # the offline worker: no table's data
    "table:offline": page(PUBLIC_VIEW, EVERYONE),  # the worker's "no connection" page
    "table:manifest": page(
        PUBLIC_VIEW, EVERYONE
    ),  # the web app manifest  # the QR link asks; only its button signs in
    "table:leave": action(PUBLIC_VIEW, EVERYONE_MOVED),
    "table:home": page(DEVICE_VIEW, EACH_DEVICE),
    "table:call": page(DEVICE_VIEW, EACH_DEVICE),  # its state; a POST calls the director
    "table:match": page(DEVICE_VIEW, EACH_DEVICE),
    "table:lineups": page(DEVICE_VIEW, NO_DEVICE),
    "table:board": page(DEVICE_VIEW, DEVICE_A_ONLY),
    "table:preview": action(DEVICE_VIEW, EACH_DEVICE_ACTION),
    "table:result": action(DEVICE_VIEW, EACH_DEVICE_ACTION),
    "table:confirm": action(DEVICE_VIEW, DEVICE_A_ACTION),
    "table:correct": action(DEVICE_VIEW, DEVICE_A_ACTION),  # its own table's line only
    "table:dispute": action(DEVICE_VIEW, DEVICE_A_ACTION),
    # published results: anyone
    **{
        f"results:{n}": page(PUBLIC_VIEW, EVERYONE)
        for n in (
            "index",
            "season",
            "season_for",
            "player",
            "tournament",
            "pdf",
            "event",
            "teams",
            "teams_schedule",
            "teams_round",
            "teams_match",
            "teams_bracket",
            "section",
            "pool",
            "scorecard",
            "board",
            "hands",
        )
    },
    "results:mine": page(AUTHENTICATED_VIEW, MY_RESULTS),
    # a federation's officers, on any club's host: its clubs, their published results,
    # licences and uploads, its ranking; a club added, its secretary named, its archive
    # prepared (POST; GET: its card, polled) and downloaded (an archive of the federation's,
    # outliving its club), the club deleted (the matrix's club is the default one: never
    # deleted)
    **{
        f"federation:{n}": page(OFFICER_VIEW, OFFICER_ONLY)
        for n in (
            "index",  # the federations served (one: straight to its clubs)
            "clubs",
            "results",
            "licences",
            "ranking",
            "club_new",
            "club_secretary",
            "club_archive",
            "archive_download",
            "club_licences",  # a club's licence batch, as its secretary sends it
            "club_leave",
        )
    },
    # accounts
    "login": page(PUBLIC_VIEW, EVERYONE),
    "logout": action(PUBLIC_VIEW, EVERYONE_MOVED),
    "password_reset": page(PUBLIC_VIEW, EVERYONE),
    "password_reset_done": page(PUBLIC_VIEW, EVERYONE),
    # a valid link moves on to the set-password form (the token leaves the URL)
    "password_reset_confirm": page(PUBLIC_VIEW, EVERYONE_MOVED),
    "password_reset_complete": page(PUBLIC_VIEW, EVERYONE),
    "password_change": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "password_change_done": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "set_language": page(PUBLIC_VIEW, EVERYONE_MOVED),
    # two-factor sign-in: everyone in the matrix has already given the second factor, so
    # the second step and the page of fresh codes (none fresh) send them on
    "two_factor_verify": page(AUTHENTICATED_VIEW, SIGNED_IN_MOVED),
    "two_factor_setup": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "two_factor_qr": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "two_factor_codes": page(AUTHENTICATED_VIEW, SIGNED_IN_MOVED),
    "two_factor_manage": page(AUTHENTICATED_VIEW, LOGGED_IN),
    "two_factor_off": action(AUTHENTICATED_VIEW, allowed(LOGGED_IN, ACTED)),
}


def admitted(access: tuple, role: str) -> bool:
    """Whether ``access`` lets ``role`` past the gate (what the row must agree with)."""
    if PUBLIC in access:
        return True
    if TABLE_DEVICE in access:
        return role in (DEVICE_A, DEVICE_OTHER)
    if role in (ANONYMOUS, DEVICE_A, DEVICE_OTHER):
        return False  # a table device is no user: it signs in with a code, not a login
    if AUTHENTICATED in access or role == ADMIN:
        return True
    held = {PLAYER: Role.PLAYER, SECRETARY: Role.SECRETARY, DIRECTOR: Role.DIRECTOR}[role]
    return held in access


def gate(access: tuple, role: str, method: str) -> Outcome:
    """What the declaration answers a role it does not let in."""
    if TABLE_DEVICE in access:
        return SIGN_IN if method == GET else DENIED
    if role in (ANONYMOUS, DEVICE_A, DEVICE_OTHER):
        return LOGIN
    return DENIED


# --- results of one tournament that is not for everyone --------------------------------------
# Every results route of one tournament (its URL takes the tournament's slug) is tried again
# with that tournament hidden: its results shown to members only, or not published yet
# (only the director follows a session being played). Hidden means not found (404).
HIDDEN_RESULTS = {
    #                                       anonymous player  device A1 device A2 secretary director admin
    "members only": ({"public_results": False}, row(MISSING, OK, MISSING, MISSING, OK, OK, OK)),
    "unpublished": (
        {"status": "running"},
        row(MISSING, MISSING, MISSING, MISSING, MISSING, OK, OK),
    ),
}
# Not even the director downloads a PDF of results that are not published.
HIDDEN_RESULTS_EXCEPTIONS = {
    ("unpublished", "results:pdf"): row(
        MISSING, MISSING, MISSING, MISSING, MISSING, MISSING, MISSING
    ),
}
