"""Every form and JSON endpoint against a fixed corpus of hostile values, as the role that
may use it: no 5xx, and nothing half-saved.

The forms are found, not listed: each role's pages are crawled from its start pages and
every ``<form>`` on them is submitted with its own field names, a few fields at a time
replaced by values of ``hostile_corpus`` (over-long text, control characters, NUL, lone
surrogates, nested JSON, huge numbers, NaN, markup, formula prefixes, RTL overrides,
SQL-ish text), the others kept as the page filled them, so the hostile value reaches the
checks behind the first field. The URL resolver then says which POST-handling views the
crawl reached (``test_every_post_view_is_driven``).

A refused submission (4xx, or the form shown again) must leave every table's row count as
it was; an accepted one must have stored each hostile text as it was typed (Django strips
surrounding spaces and turns a textarea's CRLF into LF). Runs on SQLite and PostgreSQL
alike (PostgreSQL refuses NUL and lone surrogates; the forms must refuse them first).
"""

import datetime
import inspect
import itertools
import json
import random
import re
import uuid
from decimal import Decimal
from html.parser import HTMLParser
from urllib.parse import quote, urljoin, urlsplit

import pytest
from django.apps import apps
from django.contrib import messages
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, models
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from clubsite.models import Member, Season
from tests.conftest import make_user
from tests.row_counts import row_counts
from tests.security import worlds
from tests.security.hostile_corpus import SEED, corpus
from tests.signed_in import sign_in_verified
from tests.tournaments.conftest import mitchell_dict
from tournaments.models import EventType, ScoringMethod, TableCode, TeamMatch
from tournaments.models.uploads import FederationEndpoint, FileFormat, UploadState
from tournaments.services.entries import registration
from tournaments.services.money import cash_sheet, table_fees
from tournaments.services.setup import events as setup
from tournaments.services.table import entry, table_corrections
from tournaments.views.table.device import SESSION_KEY

pytestmark = pytest.mark.django_db

APPS = ("clubsite", "tournaments", "laws", "auth")
SKIP_ACTIONS = ("/admin/", "/accounts/logout/", "/table/leave/")
SKIP_LINKS = re.compile(
    r"/admin/|logout|\.csv|/file/|/pdf/file/|download|/print/|\.pdf|"
    r"export|/table/leave/|/i18n/"
)
MAX_PAGES = 48  # every page a role reaches, the room screen's included
SUBMISSIONS_PER_FORM = 5
# Request headers a client chooses, one or two of them hostile on every submission (the
# values made header-safe: Latin-1, no line breaks or NUL, as a server hands them on).
HOSTILE_HEADERS = (
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_USER_AGENT",
    "HTTP_REFERER",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_HX_CURRENT_URL",
    "HTTP_HX_TARGET",
    "HTTP_HX_TRIGGER",
    "HTTP_ACCEPT",
    "HTTP_COOKIE",
)


# --- reading pages ----------------------------------------------------------------------------


class PageForms(HTMLParser):
    """The links and forms of one page (fields with the value the page gives them)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.forms = [], []
        self._form, self._select, self._textarea = None, None, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        elif tag == "form":
            self._form = {
                "method": (a.get("method") or "get").lower(),
                "action": a.get("action") or "",
                "multipart": "multipart" in (a.get("enctype") or ""),
                "fields": {},
                "kinds": {},
            }
            self.forms.append(self._form)
        elif self._form is None or not a.get("name"):
            return
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image", "reset"):
                if kind == "submit":
                    self._form["fields"].setdefault(a["name"], a.get("value") or "")
                    self._form["kinds"].setdefault(a["name"], "submit")
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                self._form["kinds"].setdefault(a["name"], kind)
                self._form["fields"].setdefault(
                    a["name"], "" if kind == "checkbox" else a.get("value") or ""
                )
                return
            self._form["fields"].setdefault(a["name"], a.get("value") or "")
            self._form["kinds"].setdefault(a["name"], kind)
        elif tag == "button" and (a.get("type") or "submit") == "submit":
            self._form["fields"].setdefault(a["name"], a.get("value") or "")
            self._form["kinds"].setdefault(a["name"], "submit")
        elif tag == "select":
            self._select = a["name"]
            self._form["fields"].setdefault(a["name"], "")
            self._form["kinds"][a["name"]] = "select"
        elif tag == "textarea":
            self._textarea = a["name"]
            self._form["fields"][a["name"]] = ""
            self._form["kinds"][a["name"]] = "textarea"
        if tag == "option" and self._form is not None and self._select:
            if "selected" in a or not self._form["fields"].get(self._select):
                self._form["fields"][self._select] = a.get("value", "")

    def handle_data(self, data):
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None


def crawl(client, starts, prefixes):
    """The forms on the pages reachable from ``starts`` (links under ``prefixes`` only)."""
    seen, queue, forms = set(), list(starts), {}
    while queue and len(seen) < MAX_PAGES:
        url = queue.pop(0)
        path = urlsplit(url).path
        if path in seen:
            continue
        seen.add(path)
        response = client.get(url)
        assert response.status_code < 500, url
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = PageForms()
        parser.feed(response.content.decode())
        for form in parser.forms:
            action = urljoin(url, form["action"] or url)
            if any(skip in action for skip in SKIP_ACTIONS) or not action.startswith("/"):
                continue
            form["action"], form["page"] = action, url
            forms.setdefault(
                (form["method"], urlsplit(action).path, tuple(sorted(form["fields"]))), form
            )
        for href in parser.links:
            link = urljoin(url, href)
            if link.startswith("/") and link.startswith(prefixes) and not SKIP_LINKS.search(link):
                queue.append(link.split("#")[0])
    return list(forms.values())


# --- what the database holds ------------------------------------------------------------------


def app_models():
    return [m for m in apps.get_models() if m._meta.app_label in APPS]


def counts():
    return row_counts(app_models())


def text_columns():
    return [
        (m, f)
        for m in app_models()
        for f in m._meta.get_fields()
        if isinstance(f, (models.CharField, models.TextField)) and f.concrete
    ]


def stored(value: str) -> bool:
    """Whether some text column holds ``value`` exactly (one statement for all of them)."""
    quote = connection.ops.quote_name
    columns = text_columns()
    sql = " OR ".join(
        f"EXISTS (SELECT 1 FROM {quote(m._meta.db_table)} WHERE {quote(f.column)} = %s)"
        for m, f in columns
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {sql}", [value] * len(columns))
        return bool(cursor.fetchone()[0])


# --- sending ----------------------------------------------------------------------------------


def raw(value: str) -> str:
    return quote(value, safe="", errors="surrogatepass")


def clean(value: str) -> str:
    """What a server decodes from a value sent as UTF-8 (lone surrogates become U+FFFD)."""
    return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


class Driver:
    """Submits forms with hostile values and checks each answer."""

    def __init__(self, values):
        self.values = itertools.cycle(values)
        self.used = set()
        self.rng = random.Random(SEED)
        self.requests = 0
        self.driven = set()  # url names reached with a POST or a GET form
        self.header_inputs = 0

    def next_value(self):
        value = next(self.values)
        self.used.add(value)
        return value

    def headers(self, client) -> dict[str, str]:
        """One or two hostile request headers (counted among the inputs)."""
        out = {}
        for name in self.rng.sample(HOSTILE_HEADERS, k=self.rng.randint(1, 2)):
            value = self.next_value().encode("latin-1", "ignore").decode("latin-1")
            out[name] = "".join(c for c in value if c == "\t" or " " <= c != "\x7f")[:4000]
            self.header_inputs += 1
        if "HTTP_COOKIE" in out:  # the client's own cookies kept, a hostile one beside them
            own = "; ".join(f"{k}={m.value}" for k, m in client.cookies.items())
            out["HTTP_COOKIE"] = f"{own}; hostile={quote(out['HTTP_COOKIE'], safe='')}"
        return out

    def submit(self, client, form, before):
        fields = {k: v for k, v in form["fields"].items() if k != "csrfmiddlewaretoken"}
        fillable = list(fields) or ["q"]
        chosen = self.rng.sample(fillable, k=min(len(fillable), self.rng.randint(1, 4)))
        for name in chosen:
            fields[name] = self.next_value()
        path = form["action"]
        self.driven.add(resolve(urlsplit(path).path).view_name)
        self.requests += 1
        headers = self.headers(client)
        if form["method"] == "get":
            # A page may bring its data in line when read (the door list charges the
            # players seated since): the hostile query must write nothing more than that.
            client.get(urlsplit(path).path)
            before = counts()
            query = "&".join(f"{raw(k)}={raw(v)}" for k, v in fields.items())
            response = client.get(urlsplit(path).path + "?" + query, **headers)
        elif form["multipart"]:
            data = {k: clean(v) for k, v in fields.items() if form["kinds"].get(k) != "file"}
            for name, kind in form["kinds"].items():
                if kind == "file":
                    content = fields.get(name) or self.next_value()
                    data[name] = SimpleUploadedFile(
                        "hostile.xml", content.encode("utf-8", "surrogatepass")
                    )
            response = client.post(path, data, **headers)
        else:
            body = "&".join(f"{raw(k)}={raw(v)}" for k, v in fields.items())
            response = client.post(
                path, body, content_type="application/x-www-form-urlencoded", **headers
            )
        return self.check(response, path, fields, chosen, form["kinds"], before)

    def check(self, response, path, fields, chosen, kinds, before):
        shown = {k: fields[k][:60] for k in chosen}
        assert response.status_code < 500, (path, shown)
        after = counts()
        redirected = response.status_code in (201, 301, 302, 303)
        # This request's own messages (earlier ones wait unread in the session): an error
        # message on a redirect is a refusal.
        queued = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
        refused = not redirected or any(m.level >= messages.ERROR for m in queued)
        if refused:
            assert after == before, (
                "half-saved",
                path,
                shown,
                {k: (before[k], after[k]) for k in after if after[k] != before[k]},
            )
        else:
            for name in chosen:
                value = clean(fields[name])
                if (
                    kinds.get(name) in ("text", "textarea", "email", None)
                    and len(value.strip()) >= 4
                    and name not in NOT_STORED
                ):
                    expected = value.strip().replace("\r\n", "\n")
                    # a one-line input keeps a CRLF it was sent (no browser sends one there)
                    assert stored(expected) or stored(value.strip()), (
                        "saved differently",
                        path,
                        name,
                        expected[:60],
                    )
        return after


# Fields a form reads but does not store as typed (a search, a reason kept in the audit as
# JSON, a confirmation word).
NOT_STORED = {
    "q",
    "next",
    "action",
    "language",
    "code",
    "password",
    "username",
    "old_password",
    "new_password1",
    "new_password2",
    "email",
    "override",
}


# --- the world --------------------------------------------------------------------------------


@pytest.fixture
def world(demo_club, mitchell_session, members):
    secretary = make_user("hostile-sec", "Secretary")
    director = make_user("hostile-dir", "Director")
    player = make_user("hostile-pla", "Player")
    Member.objects.filter(pk=Member.objects.filter(is_guest=False, user=None).first().pk).update(
        user=player
    )
    section = mitchell_session
    # A tournament being set up (its forms differ from the running one's)
    planned = setup.create_tournament(name="Planned", date=datetime.date(2025, 5, 6))
    planned_section = setup.add_section(planned.sessions.get())
    setup.seat_section(
        planned_section,
        mitchell_dict(4, 4, 2),
        [registration.register_entry(planned, members[30 + 2 * i : 32 + 2 * i]) for i in range(8)],
    )
    # Teams: a Swiss and a knockout before their start (settings, seeds, start), a running
    # Swiss (its draw, a match's line-ups), knockouts with a tied match and a decided stage.
    swiss = worlds.teams_event(members, name="Swiss")
    knockouts = {
        "draft": worlds.teams_event(
            members, format="knockout", name="KO draft", start=False, scoring=ScoringMethod.IMPS
        ),
        "tied": worlds.knockout(
            members, name="KO tied", played=(worlds.DECIDED, worlds.TIED), director=director
        )[0],
        "decided": worlds.knockout(
            members, name="KO decided", played=(worlds.DECIDED, worlds.DECIDED), director=director
        )[0],
    }
    # An individual event whose players are registered, not seated yet
    individual = setup.create_tournament(
        name="Individual", date=datetime.date(2025, 10, 7), event_type=EventType.INDIVIDUAL
    )
    individual_section = setup.add_section(individual.sessions.get())
    for m in members[:16]:
        registration.register_entry(individual, [m])
    # Session 2 of a two-session event waits for its seating; a finished event waits for its
    # final publication.
    seating = worlds.two_sessions(members, second_played=False, name="Seating")
    finished = worlds.two_sessions(members, publish_final=False, name="Finished")
    # A final event the director may award master points for.
    final = worlds.two_sessions(members, name="Final")
    # Published final results whose players have addresses: the results mail's send form.
    mailed = worlds.two_sessions(members, name="Mailed")
    for m in members[:6]:
        m.email = f"{m.licence_number.lower()}@example.org"
        m.save(update_fields=["email"])
    # Table 1's result of its second board waits for the opponents' tap; table 3's first
    # board has a conflict for the director.
    round_one = section.movement["rounds"][0]["tables"]
    code = TableCode.objects.get(section=section, table=1, active=True)
    entry.submit_result(
        table_code=code,
        round=1,
        board=round_one[0]["boards"][1],
        contract="3NT",
        declarer="S",
        tricks=9,
        idempotency_key="to-confirm",
    )
    table3 = next(t for t in round_one if int(t["table"]) == 3)
    clash = worlds.conflict(section, 3, 1, table3["boards"][0])
    # Table 2's first board was rejected by the opponents: the director keeps or corrects it.
    table2 = next(t for t in round_one if int(t["table"]) == 2)
    code2 = TableCode.objects.get(section=section, table=2, active=True)
    disputed = entry.submit_result(
        table_code=code2,
        round=1,
        board=table2["boards"][0],
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key="disputed",
    ).result
    table_corrections.dispute_at_table(disputed, table_code=code2, reason="Fueron 11")
    # A pair of the planned event withdrew: the director may undo it.
    registration.withdraw_entry(planned.entries.first(), user=director, reason="Enfermo")
    # Table money: tonight's fees charged, one paid in cash (its refund form shows); the
    # finished event's cash sheet closed (its reopen form shows).
    rates = table_fees.rates_for(Season.for_date(section.session.tournament.date))
    rates.member_fee = rates.guest_fee = Decimal("5.00")
    rates.save()
    table_fees.pay(table_fees.charge_session(section.session)[0], "cash", user=director)
    closed = finished.sessions.get(number=1)
    table_fees.charge_session(closed)
    cash_sheet.close(
        closed,
        counted={m: Decimal("0") for m in cash_sheet.COUNTED},
        user=secretary,
        note="Nadie pagó",
    )
    endpoint = FederationEndpoint.objects.create(name="AEB", url="https://fed.example/api")
    endpoint.uploads.create(
        tournament=finished,
        file_format=FileFormat.USEBIO,
        file_name="finished.xml",
        content="<USEBIO/>",
        content_hash=uuid.uuid4().hex,
        state=UploadState.FAILED,
        error="HTTP 500",
    )
    clients = {}
    for name, user in (("secretary", secretary), ("director", director), ("player", player)):
        clients[name] = Client()
        sign_in_verified(clients[name], user)
    for name, tournament in (("table", section.session.tournament), ("teams_table", swiss)):
        clients[name] = Client()
        session = clients[name].session
        session[SESSION_KEY] = TableCode.objects.get(
            section__session__tournament=tournament, table=1, active=True
        ).pk
        session.save()
    clients["anonymous"] = Client()
    # A federation officer, with a club of the federation besides the default one.
    from clubsite.accounts.permissions import appoint_officer
    from clubsite.models import Club

    Club.objects.filter(pk=Club.current().pk).update(federation="AEB")
    sur = Club.objects.create(name="Club Sur", slug="sur", federation="AEB")
    officer = make_user("hostile-officer")
    appoint_officer(officer, "AEB")
    clients["officer"] = Client()
    sign_in_verified(clients["officer"], officer)
    # A player of Club Sur whom this club asked to link their account: the owner's page
    # (its answer) and the secretary's "send it again" on the member's page.
    from clubsite.accounts import account_links

    linker = make_user("hostile-linker")
    linker.email = "linker@example.org"
    linker.save(update_fields=["email"])
    asked = Member.objects.filter(is_guest=False, user=None).order_by("-pk").first()
    link = account_links.ask(asked, linker)
    clients["linker"] = Client()
    sign_in_verified(clients["linker"], linker)
    # A second director past the password only, owing the app's code: the second step.
    clients["second_step"] = Client()
    second = make_user("hostile-dir-2", "Director")
    sign_in_verified(Client(), second)  # an authenticator of theirs
    clients["second_step"].force_login(second)
    # The reset link leads to its form once its token is in the visitor's session.
    online = worlds.online_entry(members, player)
    uid, token = worlds.reset_link(User.objects.get(username="jugador"))
    reset = clients["anonymous"].get(reverse("password_reset_confirm", args=[uid, token]))
    assert reset.status_code == 302, reset.status_code
    return {
        "clients": clients,
        "sur": sur,
        "section": section,
        "planned": planned,
        "endpoint": endpoint,
        "swiss": swiss,
        "knockouts": knockouts,
        "individual": individual_section,
        "seating": seating,
        "finished": finished,
        "final": final,
        "mailed": mailed,
        "conflict": clash,
        "disputed": disputed,
        "reset": reset.url,
        "online": online,
        "asked": asked,
        "account_link": reverse("clubsite:account_link", args=[account_links.token_for(link)]),
    }


def starts(world):
    section = world["section"]
    session, tournament = section.session, section.session.tournament
    member = Member.objects.filter(is_guest=False).first()
    first_board, second_board = section.movement["rounds"][0]["tables"][0]["boards"][:2]
    planned_section = (
        world["planned"].sessions.order_by("number").first().sections.order_by("pk").first()
    )
    clash = world["conflict"]
    teams_pages = [
        reverse("director:teams", args=[t.pk])
        for t in (world["swiss"], *world["knockouts"].values())
    ]
    individual = world["individual"].pk
    return {
        "table": (
            [
                "/table/play/",
                reverse("table:board", args=[1, first_board]),
                reverse("table:board", args=[1, second_board]),
            ],
            ("/table/",),
        ),
        "teams_table": ([reverse("table:lineups") + "?round=1"], ("/table/play/match/",)),
        "secretary": (
            [
                reverse("clubsite:member_list"),
                reverse("clubsite:member_create"),
                reverse("clubsite:member_edit", args=[member.pk]),
                reverse("clubsite:payment_create", args=[member.pk]),
                reverse("clubsite:roster_import"),
                reverse("clubsite:club_settings"),
                reverse("clubsite:categories"),
                reverse("clubsite:fee_schedule"),
                reverse("clubsite:licences_renew"),
                reverse("uploads:index"),
                reverse("clubsite:arrears_preview"),
                reverse("uploads:endpoint_new"),
                reverse("uploads:endpoint_edit", args=[world["endpoint"].pk]),
                reverse("uploads:pdf", args=[world["finished"].slug]),
                reverse("password_change"),
                reverse("money:rates"),
                reverse("money:balance", args=[member.pk]),
                reverse("director:table_fees", args=[session.pk]),
                reverse("director:cash_sheet", args=[session.pk]),
                reverse("director:cash_sheet", args=[world["finished"].sessions.get(number=1).pk]),
                reverse("points:scale"),
                reverse("clubsite:member_detail", args=[world["asked"].pk]),
            ],
            ("/club/",),
        ),
        "linker": ([world["account_link"]], ("/club/account-link/",)),
        "player": (
            [
                reverse("clubsite:profile"),
                *[reverse("calendar:event", args=[t.slug]) for t in world["online"]],
                reverse("two_factor_manage"),
                reverse("two_factor_setup"),
            ],
            ("/club/me/", "/calendar/", "/accounts/two-factor/"),
        ),
        "officer": (
            [
                reverse("federation:clubs", args=["AEB"]),
                reverse("federation:club_new", args=["AEB"]),
                reverse("federation:club_secretary", args=["AEB", world["sur"].pk]),
                reverse("federation:club_leave", args=["AEB", world["sur"].pk]),
                reverse("federation:club_archive", args=["AEB", world["sur"].pk]),
            ],
            ("/federation/",),
        ),
        "second_step": (
            [reverse("two_factor_verify"), reverse("two_factor_verify") + "?with=recovery"],
            ("/accounts/two-factor/",),
        ),
        "director": (
            [
                reverse("director:tournament_create"),
                reverse("director:tournament_edit", args=[tournament.pk]),
                reverse("director:tournament", args=[tournament.pk]),
                reverse("director:tournament", args=[world["final"].pk]),
                reverse("director:session", args=[session.pk]),
                reverse("director:console", args=[session.pk]),
                reverse("director:line", args=[section.pk, 1, 1, first_board]),
                reverse(
                    "director:line", args=[section.pk, clash.round, clash.table, clash.board.number]
                ),
                reverse("director:penalties", args=[session.pk]),
                reverse("director:entries", args=[tournament.pk]),
                reverse("director:entries", args=[world["planned"].pk]),
                reverse("director:handicaps", args=[tournament.pk]),
                reverse(
                    "director:line",
                    args=[section.pk, 1, world["disputed"].table, world["disputed"].board.number],
                ),
                reverse(
                    "director:session",
                    args=[world["planned"].sessions.order_by("number").first().pk],
                ),
                reverse("director:movement", args=[planned_section.pk]),
                reverse("director:change_rounds", args=[section.pk]),
                reverse("director:entry_substitute", args=[section.seatings.first().entry_id]),
                *teams_pages,
                reverse(
                    "director:teams_lineups",
                    args=[
                        world["swiss"].pk,
                        TeamMatch.objects.filter(
                            session__tournament=world["swiss"], away__isnull=False
                        )
                        .first()
                        .pk,
                    ],
                ),
                reverse("director:individual_movement", args=[individual]),
                reverse("director:individual_tables", args=[individual]),
                reverse("director:individual_players", args=[individual]),
                reverse(
                    "director:seat_from_previous", args=[world["seating"].sessions.get(number=2).pk]
                ),
                reverse("uploads:pdf", args=[tournament.slug]),
                reverse("uploads:imports"),
                reverse("director:registrations", args=[world["online"][0].pk]),
                reverse("director:results_mail", args=[world["mailed"].pk]),
            ],
            ("/director/", "/club/uploads/imports/"),
        ),
        "anonymous": (
            [
                reverse("login"),
                reverse("laws:index"),
                reverse("laws:search"),
                reverse("password_reset"),
                reverse("table:index"),
                reverse("results:index"),
                world["reset"],
            ],
            ("/laws/", "/results/"),
        ),
    }


def drive(world, driver, role):
    client = world["clients"][role]
    start, prefixes = starts(world)[role]
    forms = crawl(client, start, prefixes)
    before = counts()
    for form in forms:
        for _ in range(SUBMISSIONS_PER_FORM):
            before = driver.submit(client, form, before)
    return forms


def drive_json(world, driver):
    """The table device's JSON endpoint: each field of a result, and the body itself."""
    client = world["clients"]["table"]
    section = world["section"]
    board = section.movement["rounds"][0]["tables"][0]["boards"][0]
    url = reverse("table:result")
    good = {
        "round": 1,
        "board": board,
        "level": "3",
        "strain": "NT",
        "double": "",
        "declarer": "S",
        "made": "=",
        "lead_suit": "",
        "lead_rank": "",
    }
    before = counts()
    names = [*good, "idempotency_key", "\ud800", "extra"]
    for i in range(160):
        data = dict(good, idempotency_key=f"hostile-{i}")
        value = driver.next_value()
        name = names[i % len(names)]
        if i % 7 == 0:  # a value as a number, a list or an object instead of a string
            data[name] = [value] if i % 2 else {"v": value}
        else:
            data[name] = value
        body = json.dumps(data)  # lone surrogates travel as \\ud800, as a client would send
        driver.requests += 1
        response = client.generic(
            "POST", url, body, content_type="application/json", HTTP_ACCEPT="application/json"
        )
        assert response.status_code < 500, (name, value[:60])
        after = counts()
        if response.status_code >= 400:
            assert after == before, ("half-saved", name, value[:60])
        before = after
    preview = reverse("table:preview")
    for i in range(60):
        data = dict(good, idempotency_key=f"preview-{i}")
        name = list(good)[i % len(good)]
        data[name] = driver.next_value()
        body = "&".join(f"{raw(k)}={raw(str(v))}" for k, v in data.items())
        driver.requests += 1
        response = client.post(preview, body, content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, (name, data[name][:60])
    assert counts() == before
    driver.driven.add("table:preview")
    for body in corpus()[:60]:
        response = client.generic(
            "POST",
            url,
            body.encode("utf-8", "surrogatepass"),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
        )
        assert response.status_code == 400, body[:60]
    driver.driven.add("table:result")


def drive_roster(world, driver, submissions=30):
    """A roster file with a hostile value in one cell of a row, then its confirmation (the
    confirm form shows only after a preview without bad rows): the commit writes all or
    nothing."""
    client = world["clients"]["secretary"]
    columns = ("licence_number", "last_name", "first_name", "email", "phone")
    before = counts()
    for i in range(submissions):
        rows = [[f"R-{i:03d}-{n}", f"Apellido{n}", f"Nombre{n}", "", ""] for n in range(3)]
        rows[i % 3][1 + i % 4] = driver.next_value()
        text = "\r\n".join(
            ",".join('"' + c.replace('"', '""') + '"' for c in row)
            for row in [list(columns), *rows]
        )
        upload = SimpleUploadedFile("roster.csv", text.encode("utf-8", "surrogatepass"))
        driver.requests += 1
        response = client.post(reverse("clubsite:roster_import"), {"file": upload})
        assert response.status_code < 500, rows[i % 3]
        before = driver.check(response, reverse("clubsite:roster_import"), {}, [], {}, before)
        driver.driven.add("clubsite:roster_import")
        parser = PageForms()
        parser.feed(response.content.decode())
        confirm = reverse("clubsite:roster_confirm")
        if not any(f["action"] == confirm for f in parser.forms):
            continue
        driver.requests += 1
        response = client.post(confirm)
        before = driver.check(response, confirm, {}, [], {}, before)
        driver.driven.add("clubsite:roster_confirm")


# --- the tests ----------------------------------------------------------------------------------


REQUIRED = {
    "login",
    "clubsite:member_create",
    "clubsite:member_edit",
    "clubsite:payment_create",
    "clubsite:roster_import",
    "clubsite:club_settings",
    "director:tournament_create",
    "director:tournament_edit",
    "director:line",
    "director:penalties",
    "table:result",
    "table:board",
    "uploads:imports",
    "laws:search",
}

# POST views with no field at all the crawl leaves alone, each for a reason; every other view
# that reads request.POST must be driven.
NOT_REACHED = {
    # the table card's link only shows a button whose POST goes to table:index (driven above)
    "table:enter",
    # signing out ends the crawl's own session (no fields to fuzz)
    "logout",
    "table:leave",
    # the door list's update shows only while the fees and the entries differ; it has no
    # field (tests/tournaments/pages/test_get_pages_read_only.py presses it)
    "director:table_fees_update",
    # the result-of-record choice shows only on the report of an imported event (the world
    # has none); tests/tournaments/imports/test_usebio_record.py posts both choices
    "uploads:import_record",
    # a player's "pay from the balance" button shows only while they owe fees their balance
    # covers; it has no field (tests/tournaments/test_pay_debts_from_balance.py presses it)
    "money:mine",
}


def post_views():
    """URL names of every view whose code reads a POST (walking the resolver)."""
    found = set()

    def walk(patterns, namespace):
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                if "admin" not in str(p.pattern):
                    walk(p.url_patterns, ns)
            elif isinstance(p, URLPattern) and p.name:
                view = inspect.unwrap(getattr(p.callback, "view_class", p.callback))
                try:
                    source = inspect.getsource(view)
                except (OSError, TypeError):
                    continue
                if (
                    "POST" in source
                    or "require_POST" in source
                    or "FormView" in source
                    or "form_class" in source
                    or "LoginView" in source
                ):
                    found.add(namespace + p.name)

    walk(get_resolver().url_patterns, "")
    return found


@pytest.mark.engine_neutral  # PostgreSQL, the stricter engine (lengths, NUL bytes), takes it
def test_every_post_view_is_driven(world):
    values = corpus(2400)
    assert len(values) >= 2000
    driver = Driver(values)
    # The table first: the director's forms may finish its session or renew its code.
    drive(world, driver, "table")
    drive(world, driver, "teams_table")
    drive_json(world, driver)
    drive_roster(world, driver)
    # the link's owner before the secretary, whose "send it again" replaces the link
    for role in (
        "linker",
        "secretary",
        "player",
        "director",
        "officer",
        "second_step",
        "anonymous",
    ):
        drive(world, driver, role)
    print(
        f"{driver.requests} requests, {len(driver.used)} hostile values, "
        f"{driver.header_inputs} of them in headers"
    )
    assert len(driver.used) >= 2000, len(driver.used)
    assert NOT_REACHED <= post_views(), NOT_REACHED - post_views()
    missing_required = REQUIRED - driver.driven
    assert not missing_required, missing_required
    not_driven = post_views() - driver.driven - NOT_REACHED
    assert not not_driven, f"POST views the hostile crawl did not reach: {sorted(not_driven)}"
