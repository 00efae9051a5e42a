"""Results and set-up PDFs: content, versions, storage, failures, and the worker task."""

import subprocess

import pytest

from tests.signed_in import sign_in_verified
from tests.tournaments.pdf.conftest import pdf_text
from tournaments import documents, jobs
from tournaments import pdf as pdfs
from tournaments.models import Tournament
from tournaments.models.uploads import PdfKind, PdfState, ResultsPdf

pytestmark = pytest.mark.django_db


def test_results_pdf_is_made_stored_and_reused(demo_events, tmp_path, request_pdf):
    tournament = demo_events["Torneo de los martes"]
    pdf, created = request_pdf(tournament, language="en")  # eager: made at commit
    assert created
    pdf.refresh_from_db()
    assert pdf.state == PdfState.DONE and pdf.progress == 100 and pdf.pages > 10
    assert pdf.version == str(tournament.sessions.get().ranking_version)
    path = pdf.file.path
    text = pdf_text(path)
    for expected in (
        "Contents",
        "Ranking",
        "Travellers and frequencies",
        "Hand records",
        "Personal scorecards",
        "Torneo de los martes",
        f"Page 1 of {pdf.pages}",
    ):
        assert expected in text, expected
    assert "♠" in text and "♡" in text and "♥" not in text  # red suits as outlines
    again, created = request_pdf(tournament, language="en")
    assert not created and again.pk == pdf.pk
    assert ResultsPdf.objects.count() == 1


def test_a_correction_makes_a_new_version(demo_events, request_pdf):
    from tournaments.models import Result
    from tournaments.services.running import corrections

    tournament = demo_events["Howell del jueves"]
    first, _created = request_pdf(tournament, language="es")
    row = Result.objects.filter(section__session__tournament=tournament).first()
    corrections.correct_result(
        row, user=None, contract="3NT", declarer="N", tricks=10, reason="Corrección", override=True
    )
    second, created = request_pdf(tournament, language="es")
    assert created and second.version != first.version
    second.refresh_from_db()
    first.refresh_from_db()
    assert second.state == PdfState.DONE and second.file.name.endswith(f"-v{second.version}.pdf")
    assert first.file.name.endswith(f"-v{first.version}.pdf") and first.file.storage.exists(
        first.file.name
    )


def test_setup_pdf_has_guide_cards_movement_cards_and_table_codes(demo_events, request_pdf):
    tournament = demo_events["Torneo de la tarde"]
    pdf, _created = request_pdf(tournament, kind=PdfKind.SETUP, language="en")
    pdf.refresh_from_db()
    assert pdf.state == PdfState.DONE
    text = pdf_text(pdf.file.path)
    assert "Table guide cards" in text and "Pair movement cards" in text
    codes = tournament.sessions.get().table_codes.filter(active=True)
    assert codes.count() == 5 and all(c.code in text for c in codes)


def test_setup_pdf_guide_cards_name_the_lines_in_the_chosen_language(demo_events):
    """Spanish cards read NS and EO (Este-Oeste), as every other page does."""
    html, _version = documents.render_html(demo_events["Torneo de la tarde"], PdfKind.SETUP, "es")
    assert '<th class="n">NS</th><th class="n">EO</th>' in html


@pytest.mark.parametrize("site_url", ["", "https://club.example.org/"])
def test_setup_pdf_qr_codes_open_the_tables_page_when_the_site_url_is_known(
    demo_events, monkeypatch, settings, site_url
):
    from django.urls import reverse

    settings.SITE_URL = site_url.rstrip("/")
    encoded = []
    real = pdfs._qr_svg
    monkeypatch.setattr(pdfs, "_qr_svg", lambda text: encoded.append(text) or real(text))
    tournament = demo_events["Torneo de la tarde"]
    html, _version = documents.render_html(tournament, PdfKind.SETUP, "en")
    rows = list(
        tournament.sessions.get()
        .table_codes.filter(active=True)
        .order_by("section__letter", "table")
    )
    codes = [c.code for c in rows]
    if site_url:
        # the link carries the table's secret token; the short code is only printed
        expected = [
            f"https://club.example.org{reverse('table:enter', args=[c.token])}" for c in rows
        ]
        assert expected[0] == f"https://club.example.org/table/{rows[0].token}/"
    else:
        expected = []  # no address to link to: no QR code, the table and code to type
    assert encoded == expected
    text = pdf_text_of(html)
    assert all(c in text for c in codes)
    assert all(
        f"type table {c.section.letter.lower()}{c.table} and this code" in html.lower()
        for c in rows
    )
    assert ("https://club.example.org/table/" in text) == bool(site_url)
    assert not any(f"/table/{c}/" in text for c in codes)


def pdf_text_of(html: str) -> str:
    import tempfile

    content, _pages = pdfs.render_pdf(html)
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(content)
        f.flush()
        return pdf_text(f.name)


def test_a_broken_template_fails_clearly_and_can_be_retried(demo_events, monkeypatch, request_pdf):
    tournament = demo_events["Howell del jueves"]

    def broken(*args, **kwargs):
        raise ValueError("template exploded")

    from tournaments.pdf import parts as pdf_parts

    monkeypatch.setattr(pdf_parts, "render_to_string", broken)  # the results PDF's parts
    pdf, _created = request_pdf(tournament, language="en")
    pdf.refresh_from_db()
    assert pdf.state == PdfState.FAILED and "template exploded" in pdf.error
    monkeypatch.undo()
    again, created = request_pdf(tournament, language="en")
    again.refresh_from_db()
    assert not created and again.pk == pdf.pk and again.state == PdfState.DONE


def test_the_task_is_idempotent(demo_events, request_pdf):
    tournament = demo_events["Howell del jueves"]
    pdf, _created = request_pdf(tournament, language="en")
    pdf.refresh_from_db()
    name = pdf.file.name
    assert jobs.generate_pdf(pdf.pk) == PdfState.DONE
    pdf.refresh_from_db()
    assert pdf.file.name == name
    assert jobs.results_published(tournament.pk, "en") == pdf.pk


def test_render_the_demo_for_a_visual_check(demo_events, tmp_path):
    """Writes var/screenshots/pdf-*.png pages (looked at by hand; the test checks they exist)."""
    from django.conf import settings

    out = settings.BASE_DIR / "var" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    for name, kind in (
        ("Torneo de los martes", PdfKind.RESULTS),
        ("Torneo de la tarde", PdfKind.SETUP),
    ):
        html, _v = documents.render_html(demo_events[name], kind, "es")
        content, pages = pdfs.render_pdf(html)
        target = tmp_path / f"{kind}.pdf"
        target.write_bytes(content)
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                "60",
                "-f",
                "1",
                "-l",
                "12",
                str(target),
                str(out / f"pdf-{kind}"),
            ],
            check=True,
        )
    assert list(out.glob("pdf-results-*.png")) and list(out.glob("pdf-setup-*.png"))


@pytest.mark.pdf_on_publish
def test_publishing_queues_the_results_pdf(
    demo_events, monkeypatch, django_capture_on_commit_callbacks
):
    from tournaments.services.results import publish

    queued = []
    monkeypatch.setattr(jobs.results_published, "delay", lambda pk: queued.append(pk))
    tournament = next(t for t in demo_events.values() if t.status == "final")
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_final(tournament, user=None, override=True)
    assert queued == [tournament.pk]


def test_publishing_without_the_setting_queues_nothing(
    demo_events, monkeypatch, django_capture_on_commit_callbacks
):
    from tournaments.services.results import publish

    queued = []
    monkeypatch.setattr(jobs.results_published, "delay", lambda pk: queued.append(pk))
    tournament = next(t for t in demo_events.values() if t.status == "final")
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_final(tournament, user=None, override=True)
    assert queued == []


# --- fixed-width tables (travellers, scorecards, hand records) -------------------------------


def _visible_lines(block):
    from tournaments.pdf.fixed_width import _visible

    return [_visible(line) for line in block.head + block.rows]


def test_fixed_width_columns_align_wrap_headers_and_print_red_suits_as_outlines():
    from tournaments.pdf.fixed_width import Column, Marked, layout
    from tournaments.services.boards.board_words import contract_call

    block = layout(
        [Column("NS"), Column("Contract", right=False), Column("NS score")],
        [
            ["A1", contract_call("4H"), 420],
            ["B12", contract_call("PASS"), 0],
            ["A3", Marked("adjusted", "adj"), ""],
        ],
        pass_word="Paso",
    )
    lines = _visible_lines(block)
    # "NS score" wraps on its space: the column is as wide as "score" and "420".
    assert lines[:2] == ["                  NS", " NS  Contract  score"]
    assert lines[2:] == [" A1  4♡          420", "B12  Paso          0", " A3  adjusted"]
    assert block.rows[0] == " A1  4♡          420"  # one text run: no span in the line
    # an adjusted line is styled whole (a class on the line, no span splitting it)
    assert "<span" not in block.rows[2] and block.lines[2] == ("adj", block.rows[2])
    assert block.lines[0][0] == block.lines[1][0] == ""
    assert block.width == len(lines[1])


def test_the_flexible_column_is_cut_to_the_line_and_markup_is_escaped():
    from tournaments.pdf.fixed_width import Column, layout

    name = "<b>María del Carmen Fernández</b> – José Luis Rodríguez de la Fuente"
    block = layout(
        [Column("Round"), Column("Opponents", right=False, flexible=True), Column("Mark")],
        [[1, name, "12.5"]],
        width=40,
    )
    line = _visible_lines(block)[-1]
    assert len(line) == 40 and line.endswith("12.5") and "…" in line
    assert "<b>" not in block.rows[0] and "&lt;b&gt;" in block.rows[0]


def test_a_table_goes_beside_another_only_when_the_line_has_room():
    from tournaments.pdf.fixed_width import Column, beside, layout

    left = layout([Column("A"), Column("B")], [[1, 2], [3, 4], [5, 6]])
    right = layout([Column("C")], [[7], [8]])
    both = beside(left, right, gap=3)
    assert _visible_lines(both) == ["A  B   C", "1  2   7", "3  4   8", "5  6"]
    assert beside(left, right, gap=3, width=7) is None
    assert beside(right, left) is None  # the right-hand table may not be the longer


def test_hand_diagram_puts_each_hand_at_its_seat():
    from tournaments.pdf.fixed_width import hand_diagram
    from tournaments.services.boards.board_words import parse_deal

    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    lines = _visible_lines(hand_diagram(parse_deal(deal), 7))
    assert len(lines) == 12
    assert lines[0].strip() == "♠ AKQJ" and lines[0].startswith(" " * 14)
    assert lines[4].startswith("♠ 432") and lines[4].endswith("♠ 1098")
    assert lines[5].split() == ["♡", "AKQJ", "7", "♡", "765"]
    assert lines[8].strip() == "♠ 765"


def test_the_pdf_prints_red_suits_as_outline_symbols_without_a_span():
    """A red span splits a line's text in three, and the scorecards, travellers and hand
    records are most of the PDF's lines: hearts and diamonds print as ♡ ♢ in the text's
    colour (a black-and-white printout's way), in contracts, leads and hands."""
    from tournaments.pdf import _hand_record, _scorecard
    from tournaments.services.boards.board_words import contract_call, parse_deal

    row = {
        "round": 1,
        "board": 2,
        "side": "NS",
        "versus": "Pérez – Gómez",
        "adjusted": "",
        "contract": contract_call("4H"),
        "declarer": "N",
        "result": "=",
        "ns_score": 420,
        "ew_score": "",
        "mark": "10.00",
    }
    block = _scorecard(
        [row, row | {"contract": contract_call("3D")}, row | {"contract": contract_call("2S")}]
    )
    assert "<span" not in "".join(block.rows)
    lines = _visible_lines(block)
    assert "4♡" in lines[-3] and "3♢" in lines[-2] and "2♠" in lines[-1]
    deal = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
    dd = [{"seat": seat, "tricks": [7, 6, 6, 7, 6]} for seat in "NSEW"]
    hands = _hand_record(parse_deal(deal), 1, dd)
    text = "\n".join(_visible_lines(hands))
    assert "<span" not in "".join(hands.head + hands.rows)
    assert "♡ 1098" in text and "♢ 765" in text and "♠ AKQJ" in text and "♥" not in text
    assert "♡" in "".join(hands.head) and "♢" in "".join(hands.head)


def test_a_board_chart_prints_as_lines_of_bars_to_an_eighth_of_a_cell():
    from tournaments.charts import figures
    from tournaments.pdf.fixed_width import bar_lines

    F = figures.Frequency
    chart = figures.frequencies("k", 1, [F(620, 1, 16), F(170, 2, 6), F(-100, 1, 0)], imps=False)
    lines = _visible_lines(bar_lines(chart, cells=8))  # 16 marks in 64 eighths: 4 a mark
    assert lines == ["+620  ████████ 16,00 (×1)", "+170  ███ 6,00 (×2)", "−100   0,00 (×1)"]
    chart = figures.frequencies("k", 1, [F(620, 1, 6), F(170, 2, 1.5), F(-100, 1, -6)], imps=True)
    lines = _visible_lines(bar_lines(chart, cells=8))  # −6…6 in 8 cells, zero at the 4th
    assert lines == ["+620      ████ 6,00 (×1)", "+170      █ 1,50 (×2)", "−100  ████ −6,00 (×1)"]
    chart = figures.frequencies("k", 1, [F(620, 1, 8), F(170, 2, 1)], imps=False)
    assert _visible_lines(bar_lines(chart, cells=8))[1] == "+170  █ 1,00 (×2)"
    chart = figures.frequencies("k", 1, [F(620, 1, 8), F(170, 2, 0.5)], imps=False)
    assert _visible_lines(bar_lines(chart, cells=8))[1] == "+170  ▌ 0,50 (×2)"


# --- a correction to published results re-makes their PDF -----------------------------------


def _correct(tournament, contract: str, tricks: int):
    from tournaments.models import Result
    from tournaments.services.running import corrections

    row = Result.objects.filter(section__session__tournament=tournament).order_by("pk").first()
    corrections.correct_result(
        row,
        user=None,
        contract=contract,
        declarer="N",
        tricks=tricks,
        reason="Corrección",
        override=True,
    )


def _published(demo_events):
    return next(t for t in demo_events.values() if t.status == "final")


@pytest.mark.pdf_on_publish
def test_a_correction_after_publication_remakes_the_pdf_unasked(
    demo_events, django_capture_on_commit_callbacks
):
    from tournaments.services.results import publish

    tournament = _published(demo_events)
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_final(tournament, user=None, override=True)
    published = ResultsPdf.objects.get(tournament=tournament)
    assert published.state == PdfState.DONE
    with django_capture_on_commit_callbacks(execute=True):
        _correct(tournament, "3NT", 11)
    version = documents.current_version(tournament)
    assert version != published.version
    current = ResultsPdf.objects.get(tournament=tournament, version=version)
    assert current.state == PdfState.DONE and current.language == published.language
    assert current.file.name.endswith(f"-v{version}.pdf")
    assert ResultsPdf.objects.filter(tournament=tournament).count() == 2


@pytest.mark.pdf_on_publish
def test_a_burst_of_corrections_gives_one_pdf_at_the_end_of_the_window(
    demo_events, django_capture_on_commit_callbacks, monkeypatch, settings
):
    from clubsite.celery import app

    settings.RESULTS_PDF_REFRESH_SECONDS = 60
    tournament = _published(demo_events)
    queued = []
    monkeypatch.setattr(
        jobs.refresh_results_pdf,
        "apply_async",
        lambda args, countdown=None: queued.append((args, countdown)),
    )
    app.conf.task_always_eager = False  # as with a broker (the suite's fixture restores it)
    for tricks in (7, 8, 9, 10, 11, 12, 13, 9, 10, 11):
        with django_capture_on_commit_callbacks(execute=True):
            _correct(tournament, "3NT", tricks)
    assert queued == [((tournament.pk,), 60)]
    assert not ResultsPdf.objects.exists()

    app.conf.task_always_eager = True  # the worker, at the window's end
    with django_capture_on_commit_callbacks(execute=True):
        jobs.refresh_results_pdf.apply(queued[0][0])
    made = ResultsPdf.objects.get(tournament=tournament)
    assert made.state == PdfState.DONE and made.version == documents.current_version(tournament)

    from django.core.cache import cache

    cache.clear()  # the window is over: the next correction opens another one
    app.conf.task_always_eager = False
    with django_capture_on_commit_callbacks(execute=True):
        _correct(tournament, "4S", 10)
    assert len(queued) == 2


def test_corrections_before_publication_or_without_the_setting_make_no_pdf(
    demo_events, django_capture_on_commit_callbacks, settings
):
    tournament = _published(demo_events)
    with django_capture_on_commit_callbacks(execute=True):
        _correct(tournament, "3NT", 11)  # the setting is off
    settings.RESULTS_PDF_ON_PUBLISH = True
    running = demo_events["Howell del jueves"]
    Tournament.objects.filter(pk=running.pk).update(status="running")  # not published yet
    with django_capture_on_commit_callbacks(execute=True):
        _correct(running, "3NT", 11)
    assert not ResultsPdf.objects.exists()


# --- one session's results --------------------------------------------------------------------


@pytest.fixture
def two_sessions(members, pairs, director, settings, tmp_path):
    from tests.tournaments.support.multisession import make_event, play, seat

    settings.MEDIA_ROOT = tmp_path / "media"
    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=3, name="Dos sesiones"
    )
    play(tournament.sessions.get(number=1))
    seat(tournament.sessions.get(number=2), "same", director)
    play(tournament.sessions.get(number=2), seed=2)
    return tournament


def test_the_director_makes_one_sessions_pdf(
    two_sessions, client, director, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from tournaments.models import Result
    from tournaments.services.running import corrections

    sign_in_verified(client, director)
    url = reverse("uploads:pdf", args=[two_sessions.slug])
    assert 'name="session"' in client.get(url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"kind": PdfKind.RESULTS, "language": "en", "session": "2"})
        client.post(url, {"kind": PdfKind.RESULTS, "language": "en", "session": "0"})
    second = two_sessions.sessions.get(number=2)
    session_pdf = ResultsPdf.objects.get(session_number=2)
    whole = ResultsPdf.objects.get(session_number=0)
    assert session_pdf.state == whole.state == PdfState.DONE
    assert session_pdf.version == str(second.ranking_version)
    assert session_pdf.file.name != whole.file.name and "-s2-" in session_pdf.file.name
    only, everything = pdf_text(session_pdf.file.path), pdf_text(whole.file.path)
    assert "Dos sesiones · Session 2" in only and "Overall ranking" not in only
    assert "Overall ranking" in everything and session_pdf.pages < whole.pages
    assert all(i.current for i in client.get(url).context["pdfs"])

    # A correction in session 1 leaves session 2's PDF current, the whole one outdated.
    row = Result.objects.filter(
        section__session__number=1, section__session__tournament=two_sessions
    ).first()
    with django_capture_on_commit_callbacks(execute=True):  # classified once committed
        corrections.correct_result(
            row,
            user=director,
            contract="3NT",
            declarer="N",
            tricks=12,
            reason="Corrección",
            override=True,
        )
    items = client.get(url).context["pdfs"]
    assert {(i.session_number, i.current) for i in items} == {(2, True), (0, False)}
    assert client.post(url, {"kind": PdfKind.RESULTS, "session": "3"}).status_code == 404
    assert client.post(url, {"kind": PdfKind.SETUP, "session": "1"}).status_code == 404


def test_a_pdf_asked_for_in_a_language_the_site_has_not_is_made_in_the_readers(
    two_sessions, client, director, django_capture_on_commit_callbacks
):
    """A language from the request is one of the site's, or the reader's own: an invented or
    overlong one neither fails (it did, on PostgreSQL: value too long) nor queues a render."""
    from django.urls import reverse

    from tournaments import jobs

    sign_in_verified(client, director)
    url = reverse("uploads:pdf", args=[two_sessions.slug])
    with django_capture_on_commit_callbacks(execute=False):
        for language in ("xx-invented", "e" * 300, "", "pt"):
            answer = client.post(
                url, {"kind": PdfKind.RESULTS, "language": language, "session": "0"}
            )
            assert answer.status_code == 302, language
    assert sorted(ResultsPdf.objects.values_list("language", flat=True)) == ["es", "pt"]
    with pytest.raises(ValueError):
        jobs.request_pdf(two_sessions, PdfKind.RESULTS, "xx")


# --- what one publication and one correction cost (issue #32) -------------------------------


@pytest.fixture
def counted(monkeypatch):
    """The tasks queued (``apply_async``, which ``delay`` calls) and how often the
    classification is brought up to date for a PDF (``bring_current``) or run (``_classify``)."""
    from celery.app.task import Task

    from tournaments.services.classification import store
    from tournaments.services.results import snapshot_build

    seen = {"tasks": [], "bring_current": 0, "classified": 0}
    apply_async = Task.apply_async

    def queued(self, *args, **kwargs):
        seen["tasks"].append(self.name.rpartition(".")[2])
        return apply_async(self, *args, **kwargs)

    def counting(function, key):
        def run(*args, **kwargs):
            seen[key] += 1
            return function(*args, **kwargs)

        return run

    monkeypatch.setattr(Task, "apply_async", queued)
    bring = counting(snapshot_build.bring_current, "bring_current")
    monkeypatch.setattr(snapshot_build, "bring_current", bring)
    if hasattr(jobs, "bring_current"):
        monkeypatch.setattr(jobs, "bring_current", bring)
    monkeypatch.setattr(store, "_classify", counting(store._classify, "classified"))

    def take():
        out = dict(seen, tasks=list(seen["tasks"]))
        seen.update(tasks=[], bring_current=0, classified=0)
        return out

    return take


@pytest.mark.pdf_on_publish
def test_one_publication_and_one_correction_make_one_pdf_task_classifying_once(
    demo_events, django_capture_on_commit_callbacks, counted
):
    """A publication's PDF crosses the broker once and brings the classification up to date
    once; so does a correction's (which classifies in the request, then re-makes the PDF).
    Before issue #32 a final publication after the provisional one queued a refresh, the
    publication's job and a PDF job, and brought the classification up to date three times;
    a correction queued two refreshes and a PDF job, also bringing it up to date three times."""
    from tournaments.services.results import publish

    tournament = _published(demo_events)
    Tournament.objects.filter(pk=tournament.pk).update(status="provisional")  # the usual way
    tournament.refresh_from_db()
    counted()
    with django_capture_on_commit_callbacks(execute=True):
        publish.publish_final(tournament, user=None, override=True)
    published = counted()
    assert ResultsPdf.objects.get(tournament=tournament).state == PdfState.DONE
    with django_capture_on_commit_callbacks(execute=True):
        _correct(tournament, "3NT", 11)
    corrected = counted()
    version = documents.current_version(tournament)
    assert ResultsPdf.objects.get(tournament=tournament, version=version).state == PdfState.DONE
    assert published["tasks"] == ["results_published"]
    assert published["bring_current"] == 1
    assert corrected["tasks"] == ["refresh_results_pdf"]
    assert corrected["bring_current"] == 1
    assert (
        corrected["classified"] == 1
    )  # the correction's, in the request; the PDF's finds it current
