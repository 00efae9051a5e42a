"""The six fault-injection scenarios of issue 15, each checked against a fault-free run.

    python -m tests.faults.scenarios --profile short [--only 1,3] [--json out.json]

Starts the stack of ``stack.py`` (private PostgreSQL and Redis, gunicorn, a worker with its
embedded beat, a fake federation), then for each scenario builds two identical Mitchell
sessions: the *reference*, whose results are written straight through the services with no
fault, and the *live* one, which simulated tablets play through HTTP while the fault is
injected. The end state is compared exactly: every board line stored once with the
reference's result, no stray row (beyond a scenario's intended conflicts), the stored
ranking equal to the reference's once the worker has caught up by itself, every results PDF
made once (the worker logs one line per PDF made) with the current version's made, and
every upload filed once by the federation. Prints (and writes) one JSON report per scenario:
its checks, what was lost, how long service was degraded, whether a human had to act.

``--profile short`` (the pytest module, seconds-long outages) and ``--profile long``
(bench/fault_injection.py: Redis down 30 s, PostgreSQL down 10 s) differ only in durations.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import json
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from clubsite.tenancy import thread_in_scope
from tests.faults import stack

PROFILES = {
    # outage lengths (s), the job sweep's timings, and how long a settling wait may take
    "short": {
        "redis_down": 4.0,
        "pg_down": 3.0,
        "stall": 4,
        "sweep": 1.0,
        "settle": 90.0,
        "tables": 4,
        "rounds": 3,
    },
    "long": {
        "redis_down": 30.0,
        "pg_down": 10.0,
        "stall": 30,
        "sweep": 5.0,
        "settle": 300.0,
        "tables": 6,
        "rounds": 4,
    },
}
BOARDS_PER_ROUND = 2


@dataclass
class Report:
    scenario: str
    checks: dict = field(default_factory=dict)
    lost: int = 0  # board lines with no result stored
    doubled: int = 0  # board lines with more than one valid result
    differing: int = 0  # board lines whose result is not the one played
    stray_rows: int = 0  # rows beyond the lines and the intended conflicts
    failed_posts: int = 0  # tries that got no answer or a 5xx (then retried)
    posts: int = 0
    degraded_seconds: float = 0.0  # longest a table waited for one result to be taken
    jobs_seconds: float | None = None  # from the fault's end until every job was done
    ranking_seconds: float | None = None  # until the ranking had every result by itself
    pdfs_made: int = 0
    pdfs_made_twice: int = 0
    uploads_filed: int = 0
    uploads_filed_twice: int = 0
    human_actions: int = 0  # actions a person had to take to recover (goal: 0)
    notes: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(self.checks.values())


class Club:
    """The running stack and what the scenarios share."""

    def __init__(self, profile: dict, folder: Path):
        self.profile, self.folder = profile, folder
        self.redis = stack.PrivateRedis(folder / "redis", stack.free_port(6391))
        self.pg = stack.PrivatePostgres(folder / "pg", stack.free_port(55432))
        self.port = stack.free_port(18400)
        self.worker_log = folder / "worker.log"
        self.env: dict = {}
        self.web = self.worker = None
        self.fed = None
        self.endpoint = None
        self.directors: list = []
        self.seq = 0

    # --- the stack --------------------------------------------------------------------------

    def start(self) -> None:
        self.pg.init()
        self.pg.start()
        self.pg.create_database("clubsite_faults")
        self.redis.start()
        self.env = {
            **os.environ,
            "DATABASE_URL": self.pg.url("clubsite_faults"),
            "CELERY_BROKER_URL": self.redis.url(0),
            "CELERY_RESULT_BACKEND": self.redis.url(0),
            "CACHE_URL": self.redis.url(1),
            "CELERY_TASK_DEFAULT_QUEUE": "faults",
            "CLUBSITE_VAR_DIR": str(self.folder / "var"),
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECRET_KEY": "faults-" + "x" * 50,
            "RANKING_REFRESH_SECONDS": "1",
            "RESULTS_PDF_ON_PUBLISH": "1",
            "RESULTS_PDF_REFRESH_SECONDS": "2",
            "JOB_STALL_SECONDS": str(self.profile["stall"]),
            "JOB_SWEEP_SECONDS": str(self.profile["sweep"]),
            "CELERY_BEAT_SCHEDULE_FILENAME": str(self.folder / "beat-schedule"),
            "FEDERATION_ALLOW_HTTP": "1",
            "FEDERATION_ALLOW_PRIVATE": "1",
            "DJANGO_SETTINGS_MODULE": "clubsite.settings",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("EMAIL_BACKEND", None)
        os.environ.update(self.env)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        self.web = stack.gunicorn(self.env, self.port, self.folder / "gunicorn.log")
        self.web.start()
        self.worker = stack.worker(self.env, self.worker_log)
        self.worker.start()
        if stack.wait_for(lambda: stack.listening(self.port), 60) is None:
            raise RuntimeError("gunicorn did not start")
        if stack.wait_for(self.worker_answers, 90, step=0.5) is None:
            raise RuntimeError("the worker did not start")
        from tests.support_fake_federation import FakeFederation

        self.fed = FakeFederation().start()
        from tournaments.models.uploads import AuthKind, FederationEndpoint, FileFormat, PostMode

        self.endpoint = FederationEndpoint.objects.create(
            name="Federación",
            url=self.fed.url,
            auth=AuthKind.TOKEN,
            secret="s3cret",
            file_format=FileFormat.PBN,
            mode=PostMode.FORM,
            timeout=5,
            max_retries=8,
        )
        from clubsite.accounts.permissions import Role
        from tests.conftest import make_user

        self.directors = [make_user(name, Role.DIRECTOR) for name in ("ana", "bruno")]

    def stop(self) -> None:
        for service in (self.web, self.worker):
            if service is not None:
                service.stop()
        if self.fed is not None:
            self.fed.stop()
        self.redis.stop()
        self.pg.stop("immediate")

    def worker_holds_a_countdown_task(self, session_id: int, countdown: float) -> bool:
        """Queue a classification due after ``countdown`` seconds (as a live round's window
        is) and wait until the worker holds it, unacknowledged, as a broker outage finds
        it on a club night."""
        from tournaments.tasks import classify_session_task

        sent = classify_session_task.apply_async((session_id,), countdown=countdown)
        return (
            stack.wait_for(
                lambda: f"{sent.id}] received" in self.worker_log.read_text(errors="replace"), 20
            )
            is not None
        )

    def worker_answers(self) -> bool:
        from clubsite.celery import app

        return bool(app.control.ping(timeout=1.0))

    def restart_worker(self) -> None:
        self.worker = stack.worker(self.env, self.worker_log)
        self.worker.start()

    def made_pdfs(self) -> collections.Counter:
        """PDF id → how many times the worker logged making it."""
        text = self.worker_log.read_text(errors="replace") if self.worker_log.exists() else ""
        return collections.Counter(int(n) for n in re.findall(r"PDF (\d+) made:", text))

    # --- the tournaments --------------------------------------------------------------------

    def build(self, name: str):
        from django.utils import timezone

        from clubsite.models import Member
        from tournaments.movements import mitchell
        from tournaments.services.entries import registration
        from tournaments.services.setup import events as setup

        self.seq += 1
        tables, rounds = self.profile["tables"], self.profile["rounds"]
        tournament = setup.create_tournament(
            name=name, date=timezone.localdate(), public_results=True
        )
        session = tournament.sessions.get()
        players = Member.objects.bulk_create(
            Member(
                first_name=f"J{i}",
                last_name=f"{name} {i:03d}",
                licence_number=f"F{self.seq:02d}-{i:04d}",
            )
            for i in range(tables * 4)
        )
        entries = [
            registration.register_entry(tournament, players[i : i + 2])
            for i in range(0, len(players), 2)
        ]
        section = setup.add_section(session, "A")
        setup.seat_section(section, mitchell(tables, rounds, BOARDS_PER_ROUND).to_dict(), entries)
        setup.start_session(session)
        return tournament, section

    def pair(self, name: str, seed: int):
        """(reference section, live section, plans): the same movement and results."""
        from tournaments.models import TableCode
        from tournaments.services.setup import plan
        from tournaments.services.table import entry

        reference = self.build(f"{name} referencia")[1]
        live = self.build(name)[1]
        rng = random.Random(seed)
        plans: dict[int, list[stack.Post]] = collections.defaultdict(list)
        for slot in sorted(plan.slots(live.movement), key=lambda s: (s.round, s.table)):
            for board in slot.boards:
                body = played(rng)
                plans[slot.table].append(
                    stack.Post(slot.round, board + live.board_offset, body, os.urandom(8).hex())
                )
        codes = {c.table: c for c in TableCode.objects.filter(section=reference, active=True)}
        for table, posts in plans.items():
            for post in posts:
                entry.submit_result(
                    round=post.round,
                    board=post.board,
                    table_code=codes[table],
                    idempotency_key=post.key,
                    **service_args(post.body),
                )
        return reference, live, plans

    def tablets(self, section, port: int | None = None, fresh: bool = False) -> dict:
        from tournaments.models import TableCode

        out = {}
        for code in TableCode.objects.filter(section=section, active=True).order_by("table"):
            tablet = stack.Tablet(port or self.port, code.token, fresh=fresh)
            tablet.sign_in()
            out[code.table] = tablet
        return out

    def director(self, user) -> stack.Browser:
        browser = stack.Browser(self.port)
        _, page, _ = browser.request("GET", "/accounts/login/")
        status, _, _ = browser.request(
            "POST",
            "/accounts/login/",
            {
                "username": user.username,
                "password": "pass-1234-word",
                "csrfmiddlewaretoken": browser.csrf_from(page),
            },
        )
        if status != 302:
            raise RuntimeError(f"director {user.username} could not log in ({status})")
        # the second step, with the code the director's phone app shows
        from django_otp.plugins.otp_totp.models import TOTPDevice

        from tests.signed_in import app_code

        device = TOTPDevice.objects.filter(
            user=user, confirmed=True
        ).first() or TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
        _, page, _ = browser.request("GET", "/accounts/two-factor/")
        status, _, _ = browser.request(
            "POST",
            "/accounts/two-factor/",
            {"code": app_code(device), "csrfmiddlewaretoken": browser.csrf_from(page)},
        )
        if status != 302:
            raise RuntimeError(f"director {user.username}: second step refused ({status})")
        return browser


def played(rng: random.Random) -> dict:
    """What a table's buttons post for one board."""
    if rng.random() < 0.05:
        return {"level": "PASS"}
    level = rng.choice([1, 2, 3, 3, 4, 4, 5, 6])
    made = rng.choice(["=", "=", "+1", "-1", "-2"])
    return {
        "level": str(level),
        "strain": rng.choice(["C", "D", "H", "S", "NT"]),
        "double": rng.choice(["", "", "", "X"]),
        "declarer": rng.choice("NESW"),
        "made": made,
        "lead_suit": rng.choice("SHDC"),
        "lead_rank": rng.choice("AKQJT98"),
    }


def service_args(body: dict) -> dict:
    """The same result as ``entry.submit_result`` takes it."""
    if body["level"] == "PASS":
        return {"contract": "PASS", "declarer": "", "tricks": None, "lead": ""}
    level = int(body["level"])
    made = 0 if body["made"] == "=" else int(body["made"])
    return {
        "contract": f"{level}{body['strain']}{body['double']}",
        "declarer": body["declarer"],
        "tricks": level + 6 + made,
        "lead": body["lead_suit"] + body["lead_rank"],
    }


# --- the checks -----------------------------------------------------------------------------


def lines(section) -> dict:
    from tournaments.models import Result

    out = collections.defaultdict(list)
    for row in Result.objects.filter(section=section).select_related("board"):
        out[(row.round, row.table, row.board.number)].append(row)
    return out


def compare_results(report: Report, reference, live, conflicts: int = 0) -> None:
    from tournaments.models import ResultStatus

    expected, got = lines(reference), lines(live)
    for key, rows in expected.items():
        mine = [r for r in got.get(key, []) if r.status == ResultStatus.OK]
        if not mine:
            report.lost += 1
        elif len(mine) > 1:
            report.doubled += 1
        elif any(
            getattr(mine[0], f) != getattr(rows[0], f)
            for f in ("contract", "declarer", "tricks", "ns_score", "lead", "adjustment")
        ):
            report.differing += 1
    report.stray_rows = sum(len(rows) for rows in got.values()) - len(expected) - conflicts
    report.checks.update(
        nothing_lost=report.lost == 0,
        nothing_doubled=report.doubled == 0,
        results_as_played=report.differing == 0,
        no_stray_rows=report.stray_rows == 0,
    )


def ranking(section) -> list:
    from tournaments.models import StoredRanking

    return sorted(
        (r.direction, r.number, r.place, str(r.points), str(r.percentage))
        for r in StoredRanking.objects.filter(section=section)
    )


def compare_rankings(report: Report, reference, live, seconds: float) -> None:
    """The live ranking, once the worker has classified every result by itself, is the
    reference's (classified here, without faults)."""
    from django.db import close_old_connections

    from tournaments.models import Session
    from tournaments.services.classification import classify as classification

    classification.ensure_current(Session.objects.get(pk=reference.session_id))

    def caught_up() -> bool:
        close_old_connections()
        return not classification.is_stale(Session.objects.get(pk=live.session_id))

    report.ranking_seconds = stack.wait_for(caught_up, seconds, step=0.3)
    report.checks["ranking_followed_by_itself"] = report.ranking_seconds is not None
    report.checks["ranking_as_fault_free"] = ranking(live) == ranking(reference) != []


def settle_jobs(
    club: Club, report: Report, tournament, seconds: float, since: float | None = None
) -> None:
    """Wait until every PDF and upload of ``tournament`` is done and the current results
    version has its PDF, then check each was made or filed once; ``jobs_seconds`` counts
    from ``since`` (the fault's end) when given."""
    start = time.monotonic()
    from django.conf import settings
    from django.db import close_old_connections

    from tournaments import documents
    from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf, Upload, UploadState

    def done() -> bool:
        close_old_connections()
        if ResultsPdf.objects.filter(
            tournament=tournament, state__in=[PdfState.QUEUED, PdfState.RUNNING]
        ).exists():
            return False
        if Upload.objects.filter(
            tournament=tournament, state__in=[UploadState.QUEUED, UploadState.SENDING]
        ).exists():
            return False
        return ResultsPdf.objects.filter(
            tournament=tournament,
            kind=PdfKind.RESULTS,
            session_number=0,
            language=settings.LANGUAGE_CODE,
            state=PdfState.DONE,
            version=documents.current_version(tournament),
        ).exists()

    waited = stack.wait_for(done, seconds, step=0.5)
    report.checks["jobs_done_by_themselves"] = waited is not None
    if waited is not None:
        report.jobs_seconds = round(waited + (start - since if since else 0.0), 1)
    made = club.made_pdfs()
    rows = list(ResultsPdf.objects.filter(tournament=tournament))
    report.pdfs_made = sum(1 for p in rows if made[p.pk] >= 1)
    report.pdfs_made_twice = sum(1 for p in rows if made[p.pk] > 1)
    done_rows = [p for p in rows if p.state == PdfState.DONE]
    report.checks["every_pdf_made_once"] = (
        report.pdfs_made_twice == 0 and all(made[p.pk] == 1 for p in done_rows) and bool(done_rows)
    )
    report.notes["pdfs"] = {p.pk: [p.version, p.state, made[p.pk]] for p in rows}
    uploads = list(Upload.objects.filter(tournament=tournament))
    if uploads:
        keys = collections.Counter(r["key"] for r in club.fed.requests)
        filed = {key for key in club.fed.filed}
        report.uploads_filed = sum(1 for u in uploads if str(u.upload_id) in filed)
        report.uploads_filed_twice = 0  # the federation files a key once; count the sends
        report.notes["upload_requests"] = {str(u.pk): keys[str(u.upload_id)] for u in uploads}
        report.checks["every_upload_filed_once"] = all(
            u.state == UploadState.SENT and str(u.upload_id) in filed for u in uploads
        )


def tally(report: Report, tablets) -> None:
    for tablet in tablets:
        t = tablet.tally
        report.posts += t.attempts
        report.failed_posts += t.lost_answers + t.server_errors
        report.degraded_seconds = max(report.degraded_seconds, round(t.longest_wait, 2))
        if t.refused or t.unsent:
            report.notes.setdefault("refused", []).extend(t.refused)
            report.notes["unsent"] = report.notes.get("unsent", 0) + t.unsent
    report.checks["every_post_answered"] = "unsent" not in report.notes
    report.checks["no_post_refused"] = not report.notes.get("refused")


def by_round(plans: dict, rounds) -> list[list[stack.Post]]:
    return [[p for p in plans[t] if p.round in rounds] for t in sorted(plans)]


# --- the scenarios --------------------------------------------------------------------------


def redis_down(club: Club) -> Report:
    """1. Redis stopped mid-round (broker, results and cache), then restarted: tables go on
    posting from the database, a restarted tablet signs in again, a director logs in to the
    console; the PDF and upload asked for meanwhile are made once after."""
    from tournaments import jobs
    from tournaments.services.results import publish

    report = Report("redis_down")
    reference, live, plans = club.pair("Redis", 1)
    tournament = live.session.tournament
    tablets = club.tablets(live)
    rounds = club.profile["rounds"]
    stack.play_all(list(tablets.values()), by_round(plans, {1}), 60)
    publish.publish_provisional(tournament, user=club.directors[0])
    report.notes["worker_held_a_countdown_task"] = club.worker_holds_a_countdown_task(
        live.session_id, club.profile["redis_down"] + 5
    )
    worker_pid = club.worker.process.pid
    club.redis.stop()
    down = time.monotonic()
    try:
        asked = time.monotonic()
        publish.publish_provisional(tournament, user=club.directors[0])  # and a new PDF
        jobs.request_upload(club.endpoint, tournament=tournament, user=None)
        report.notes["director_publish_and_upload_seconds"] = round(time.monotonic() - asked, 2)
        # Table 1's tablet restarts and signs in again; a director logs in to the console.
        restarted = tablets[1]
        tablets[1] = stack.Tablet(club.port, restarted.token)
        tablets[1].sign_in()
        from django.urls import reverse

        console = club.director(club.directors[1]).request(
            "GET", reverse("director:console", args=[live.session_id])
        )[0]
        report.checks["sign_in_and_console_during_outage"] = console == 200
        stack.play_all(
            list(tablets.values()),
            by_round(plans, set(range(2, rounds))),
            club.profile["redis_down"] + 60,
        )
        report.notes["posts_during_outage_ok"] = all(t.tally.unsent == 0 for t in tablets.values())
        time.sleep(max(0.0, club.profile["redis_down"] - (time.monotonic() - down)))
    finally:
        club.redis.start()
    back = time.monotonic()
    report.notes["outage_seconds"] = round(back - down, 1)
    stack.play_all(list(tablets.values()), by_round(plans, {rounds}), 60)
    tally(report, [restarted, *tablets.values()])
    compare_results(report, reference, live)
    compare_rankings(report, reference, live, club.profile["settle"])
    settle_jobs(club, report, tournament, club.profile["settle"], since=back)
    report.checks["upload_asked_during_outage_filed"] = report.uploads_filed == 1
    report.checks["worker_came_back"] = club.worker.alive() and club.worker_answers()
    report.checks["the_same_worker"] = club.worker.process.pid == worker_pid
    return report


def worker_killed(club: Club) -> Report:
    """2. The worker SIGKILLed while rendering a PDF and while uploading, then restarted (as
    a supervisor would): each job is made once, by the sweep of the new worker."""
    from django.db import close_old_connections

    from tournaments import jobs
    from tournaments.models.uploads import PdfState, ResultsPdf
    from tournaments.services.results import publish

    report = Report("worker_killed")
    reference, live, plans = club.pair("Worker", 2)
    tournament = live.session.tournament
    tablets = club.tablets(live)
    stack.play_all(list(tablets.values()), [plans[t] for t in sorted(plans)], 90)
    publish.publish_provisional(tournament, user=club.directors[0])

    def rendering() -> bool:
        close_old_connections()
        return ResultsPdf.objects.filter(tournament=tournament, state=PdfState.RUNNING).exists()

    caught = stack.wait_for(rendering, 60, step=0.02) is not None
    club.worker.kill()
    report.notes["killed_while_rendering"] = caught
    killed = time.monotonic()
    club.restart_worker()
    club.fed.script = ["hold"]
    club.fed.arrived.clear()
    club.fed.release.clear()
    jobs.request_upload(club.endpoint, tournament=tournament, user=None)
    held = club.fed.arrived.wait(60)
    club.worker.kill()
    report.notes["killed_while_uploading"] = held
    club.fed.release.set()
    club.restart_worker()
    tally(report, tablets.values())
    compare_results(report, reference, live)
    compare_rankings(report, reference, live, club.profile["settle"])
    settle_jobs(club, report, tournament, club.profile["settle"], since=killed)
    report.checks["killed_mid_render_and_mid_upload"] = caught and held
    report.checks["upload_filed_once"] = report.uploads_filed == 1
    return report


def postgres_restarted(club: Club) -> Report:
    """3. PostgreSQL stopped mid-round (every connection drops) and started again: the
    tables' queues retry until it answers; nothing lost or doubled."""
    from django.db import connections

    report = Report("postgres_restarted")
    reference, live, plans = club.pair("Postgres", 3)
    tablets = club.tablets(live)
    rounds = club.profile["rounds"]
    stack.play_all(list(tablets.values()), by_round(plans, {1}), 60)
    connections.close_all()
    middle = thread_in_scope(
        stack.play_all,
        daemon=True,
        args=(
            list(tablets.values()),
            by_round(plans, set(range(2, rounds + 1))),
            club.profile["pg_down"] + 120,
            0.3,
        ),
    )
    middle.start()
    time.sleep(0.5)
    club.pg.stop("fast")
    down = time.monotonic()
    time.sleep(club.profile["pg_down"])
    club.pg.start()
    report.notes["outage_seconds"] = round(time.monotonic() - down, 1)
    middle.join(timeout=club.profile["pg_down"] + 150)
    connections.close_all()
    tally(report, tablets.values())
    compare_results(report, reference, live)
    compare_rankings(report, reference, live, club.profile["settle"])
    report.checks["tables_retried_through_it"] = report.failed_posts > 0
    report.checks["worker_came_back"] = club.worker.alive() and club.worker_answers()
    return report


def replayed_twice(club: Club) -> Report:
    """4. After a director's correction, every device replays its whole queue twice, out of
    order: each replay is answered as a replay, nothing is added or undone."""
    from tournaments.models import Result, ResultStatus
    from tournaments.services.running import corrections
    from tournaments.services.table import revisions

    report = Report("replayed_twice")
    reference, live, plans = club.pair("Replay", 4)
    tablets = club.tablets(live)
    stack.play_all(list(tablets.values()), [plans[t] for t in sorted(plans)], 90)
    post = plans[1][0]
    for section in (reference, live):
        row = Result.objects.get(
            section=section,
            round=post.round,
            table=1,
            board__number=post.board,
            status=ResultStatus.OK,
        )
        corrections.correct_result(
            row,
            user=club.directors[0],
            contract="3NT",
            declarer="S",
            tricks=10,
            reason="Corrección del árbitro",
            revision=revisions.revision(row),
        )
    rng = random.Random(44)
    replays = []
    for table in sorted(plans):
        queue = plans[table] * 2
        rng.shuffle(queue)
        replays.append(queue)
    before = {t: dict(tablet.tally.outcomes) for t, tablet in tablets.items()}
    stack.play_all(list(tablets.values()), replays, 120)
    answers = collections.Counter()
    for table, tablet in tablets.items():
        for outcome, count in tablet.tally.outcomes.items():
            answers[outcome] += count - before[table].get(outcome, 0)
    report.notes["replay_answers"] = dict(answers)
    tally(report, tablets.values())
    compare_results(report, reference, live)
    compare_rankings(report, reference, live, club.profile["settle"])
    report.checks["every_replay_answered_as_one"] = answers.get("duplicate", 0) == sum(
        len(q) for q in replays
    ) and {k for k, n in answers.items() if n} == {"duplicate"}
    return report


def directors_at_once(club: Club) -> Report:
    """5. Two directors correct the same result at once, then a table sends another result
    for a line while a director corrects it: one correction wins, the other is refused with
    the current value and kept as a conflict; the table's is kept as a conflict too; both
    show on the console; the director decides from there."""
    from tournaments.models import Result, ResultStatus
    from tournaments.services.running import corrections

    report = Report("directors_at_once")
    reference, live, plans = club.pair("Directores", 5)
    tablets = club.tablets(live)
    stack.play_all(list(tablets.values()), [plans[t] for t in sorted(plans)], 90)
    browsers = [club.director(user) for user in club.directors]
    first, second = plans[1][0], plans[2][0]

    from django.urls import reverse

    def url(post, table):
        return reverse("director:line", args=[live.pk, post.round, table, post.board])

    proposed = [("4H", "N", "="), ("2S", "E", "-1")]
    pages = [b.request("GET", url(first, 1))[1].decode() for b in browsers]
    seen = [re.search(r'name="revision" value="([^"]*)"', p).group(1) for p in pages]
    barrier = threading.Barrier(2, timeout=30)
    answers: list = [None, None]

    def correct(i: int) -> None:
        contract, declarer, made = proposed[i]
        form = {
            "action": "result",
            "contract": contract,
            "declarer": declarer,
            "result": made,
            "reason": f"Corrección {i}",
            "revision": seen[i],
            "csrfmiddlewaretoken": browsers[i].csrf_from(pages[i].encode()),
        }
        barrier.wait()
        answers[i] = browsers[i].request("POST", url(first, 1), form)

    threads = [thread_in_scope(correct, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    report.checks["both_corrections_answered"] = all(a is not None for a in answers)
    row = Result.objects.get(
        section=live, round=first.round, table=1, board__number=first.board, status=ResultStatus.OK
    )
    kept = list(Result.objects.filter(conflicts_with=row, status=ResultStatus.CONFLICT))
    winner = next((i for i in (0, 1) if row.reason == f"Corrección {i}"), None)
    report.notes["corrections"] = {
        "answers": [a[0] if a else None for a in answers],
        "stored": row.reason,
        "kept": [(k.reason, k.entered_by_id) for k in kept],
        "rows": [
            (r.status, r.reason)
            for r in Result.objects.filter(
                section=live, round=first.round, table=1, board__number=first.board
            )
        ],
    }
    report.checks["one_correction_won"] = winner is not None
    report.checks["the_other_kept_as_conflict"] = (
        len(kept) == 1 and winner is not None and kept[0].reason == f"Corrección {1 - winner}"
    )
    loser_page = browsers[1 - (winner or 0)].request("GET", url(first, 1))[1].decode()
    report.checks["the_other_told_the_current_value"] = (
        "cambió este resultado" in loser_page and f"NS {row.ns_score}" in loser_page
    )
    # A table sends another result for its line while a director corrects it.
    director = browsers[0]
    page = director.request("GET", url(second, 2))[1].decode()
    revision = re.search(r'name="revision" value="([^"]*)"', page).group(1)
    table_post = stack.Post(
        second.round, second.board, played(random.Random(55)), os.urandom(8).hex()
    )
    while service_args(table_post.body) == service_args(second.body):
        table_post.body = played(random.Random(time.monotonic_ns()))
    barrier = threading.Barrier(2, timeout=30)

    raced: dict = {}

    def table_sends() -> None:
        barrier.wait()
        raced["table"] = tablets[2].send(table_post, time.monotonic() + 60)

    def director_corrects() -> None:
        barrier.wait()
        raced["director"] = director.request(
            "POST",
            url(second, 2),
            {
                "action": "result",
                "contract": "3NT",
                "declarer": "W",
                "result": "+1",
                "reason": "El árbitro corrige",
                "revision": revision,
                "csrfmiddlewaretoken": director.csrf_from(page.encode()),
            },
        )[:1]

    threads = [thread_in_scope(table_sends), thread_in_scope(director_corrects)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    report.checks["table_and_director_answered"] = "table" in raced and "director" in raced
    stored = Result.objects.get(
        section=live,
        round=second.round,
        table=2,
        board__number=second.board,
        status=ResultStatus.OK,
    )
    others = list(
        Result.objects.filter(
            section=live, round=second.round, table=2, board__number=second.board
        ).exclude(status=ResultStatus.OK)
    )
    report.notes["table_and_director"] = {
        "answers": raced,
        "rows": [
            (r.status, r.contract, r.declarer, r.reason)
            for r in Result.objects.filter(
                section=live, round=second.round, table=2, board__number=second.board
            )
        ],
    }
    report.checks["director_and_table_both_kept"] = (
        stored.contract == "3NT"
        and stored.declarer == "W"
        and len(others) == 1
        and others[0].status == ResultStatus.CONFLICT
    )
    console = director.request("GET", reverse("director:console", args=[live.session_id]))[
        1
    ].decode()
    report.checks["conflicts_on_the_console"] = (
        url(first, 1) in console and url(second, 2) in console
    )
    # The directors decide: the stored results stay (the same decisions on the reference).
    for conflict in Result.objects.filter(section=live, status=ResultStatus.CONFLICT):
        director.request(
            "POST",
            reverse("director:resolve", args=[conflict.pk]),
            {
                "keep": "old",
                "reason": "Se mantiene",
                "csrfmiddlewaretoken": director.csrf_from(page.encode()),
            },
        )
    for post, table in ((first, 1), (second, 2)):
        live_row = Result.objects.get(
            section=live,
            round=post.round,
            table=table,
            board__number=post.board,
            status=ResultStatus.OK,
        )
        ref_row = Result.objects.get(
            section=reference,
            round=post.round,
            table=table,
            board__number=post.board,
            status=ResultStatus.OK,
        )
        corrections.correct_result(
            ref_row,
            user=club.directors[0],
            contract=live_row.contract,
            declarer=live_row.declarer,
            tricks=live_row.tricks,
            reason="La misma decisión",
        )
    report.checks["conflicts_decided"] = not Result.objects.filter(
        section=live, status=ResultStatus.CONFLICT
    ).exists()
    compare_results(report, reference, live, conflicts=2)  # kept in the record, rejected
    tally(report, tablets.values())
    report.checks["no_post_refused"] = True  # the table's second result is a conflict (200)
    compare_rankings(report, reference, live, club.profile["settle"])
    report.human_actions = 0  # the directors' decisions are the scenario, not a recovery
    return report


def answer_lost(club: Club) -> Report:
    """6. The network drops between the server's commit and the device's receipt of the
    answer (every third post): the device sends again with the same key and is answered
    as a replay; each result stored once."""
    report = Report("answer_lost")
    reference, live, plans = club.pair("Red", 6)
    proxy = stack.DroppingProxy(club.port)
    try:
        tablets = club.tablets(live, port=proxy.port, fresh=True)
        proxy.drop_every = 3
        stack.play_all(list(tablets.values()), [plans[t] for t in sorted(plans)], 120)
    finally:
        proxy.close()
    report.notes["answers_dropped"] = proxy.dropped
    tally(report, tablets.values())
    compare_results(report, reference, live)
    compare_rankings(report, reference, live, club.profile["settle"])
    outcomes = collections.Counter()
    for tablet in tablets.values():
        outcomes.update(tablet.tally.outcomes)
    report.notes["answers"] = dict(outcomes)
    report.checks["answers_were_dropped"] = proxy.dropped > 0
    heard = outcomes.get("created", 0) + outcomes.get("duplicate", 0)
    report.checks["each_lost_answer_replayed_as_one"] = (
        set(outcomes) <= {"created", "duplicate"}
        and outcomes.get("duplicate", 0) > 0
        and heard == sum(len(p) for p in plans.values())
        and report.posts == heard + proxy.dropped
    )
    return report


SCENARIOS = [
    redis_down,
    worker_killed,
    postgres_restarted,
    replayed_twice,
    directors_at_once,
    answer_lost,
]


def run(profile: str, only: set[int] | None = None) -> list[dict]:
    folder = Path(tempfile.mkdtemp(prefix="clubsite-faults-"))
    os.chmod(folder, 0o755)
    club = Club(PROFILES[profile], folder)
    reports = []
    try:
        club.start()
        for number, scenario in enumerate(SCENARIOS, start=1):
            if only and number not in only:
                continue
            started = time.monotonic()
            try:
                report = scenario(club)
            except Exception as exc:  # a scenario that could not run fails, the next runs
                import traceback

                report = Report(
                    scenario.__name__,
                    checks={"ran": False},
                    notes={"error": repr(exc), "trace": traceback.format_exc()},
                )
            data = asdict(report) | {
                "ok": report.ok,
                "number": number,
                "seconds": round(time.monotonic() - started, 1),
            }
            print(json.dumps(data, default=str), flush=True)
            reports.append(data)
    finally:
        club.stop()
        if os.environ.get("FAULTS_KEEP") != "1":
            shutil.rmtree(folder, ignore_errors=True)
        else:
            print(f"kept {folder}", file=sys.stderr)
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--profile", choices=sorted(PROFILES), default="short")
    parser.add_argument("--only", default="", help="scenario numbers, e.g. 1,3")
    parser.add_argument("--json", default="", help="write the reports to this file")
    args = parser.parse_args(argv)
    reason = stack.available()
    if reason:
        print(f"cannot run: {reason}", file=sys.stderr)
        return 2
    only = {int(n) for n in args.only.split(",") if n.strip()} or None
    started = datetime.datetime.now()
    from clubsite.tenancy import club_scope

    # The scenarios' club: the installation's default one. Not read from the settings, which
    # must first be loaded with the stack's environment (``Club.start``).
    with club_scope(int(os.environ.get("DEFAULT_CLUB_ID") or 1)):
        reports = run(args.profile, only)
    if args.json:
        Path(args.json).write_text(
            json.dumps(
                {
                    "profile": args.profile,
                    "started": started.isoformat(timespec="seconds"),
                    "reports": reports,
                },
                indent=2,
                default=str,
            )
        )
    return 0 if reports and all(r["ok"] for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
