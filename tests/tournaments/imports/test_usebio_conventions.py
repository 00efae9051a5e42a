"""Files other scorers write, in each convention, reproduce with 0 differences under --strict.

The files come from ``usebio_writer`` (our own small scorer writing each style), never from a
copied file: a Mitchell where one pair sits out each round, a Howell with a sit-out, two
sections sharing boards where one board was played 5 of 6 times, every artificial score
(including a pair given its own session percentage), each Butler datum, and ties.
"""

import io
import random
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from django.utils.html import escape
from endplay.parsers import pbn as endplay_pbn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.signed_in import sign_in_verified
from tests.tournaments.imports.usebio_writer import Event, Line, Section, Style, write
from tournaments import documents
from tournaments.exports.deals import random_deal
from tournaments.imports import usebio
from tournaments.imports.usebio_conventions import describe
from tournaments.imports.usebio_verify import tried_words
from tournaments.models import Board, RankingScope, StoredRanking, Tournament
from tournaments.models.uploads import ImportState, ResultImport
from tournaments.movements import howell
from tournaments.services.setup import plan

pytestmark = pytest.mark.django_db

SCORES = [420, 450, -50, -100, 140, 110, -420, 620, 0, -200, 170, -110, 400, 100, -300]


def _score(rng: random.Random) -> int:
    return rng.choice(SCORES)


def mitchell_lines(
    tables: int, rounds: int, per_round: int, rng, *, missing_ew=(), letter_offset: int = 0
) -> list[Line]:
    """Boards move down and EW up one table a round; an odd table count meets every set."""
    lines = []
    for r in range(1, rounds + 1):
        for ew in range(1, tables + 1):
            table = (ew + r - 2) % tables + 1
            if ew in missing_ew:
                continue
            s = (table + r - 2) % tables
            for k in range(per_round):
                lines.append(
                    Line(s * per_round + k + 1 + letter_offset, r, table, table, ew, _score(rng))
                )
    return lines


def mitchell_sitout(rng) -> Event:
    """5 NS and 4 EW pairs: the NS pair the missing EW pair would meet sits out."""
    lines = mitchell_lines(5, 5, 2, rng, missing_ew=(5,))
    return Event("MP_PAIRS", [Section("A", True, [1, 2, 3, 4, 5], lines, full_set=10)], expected=4)


def two_sections_board_short(rng) -> Event:
    """Sections A and B (3 tables each) share 6 boards: 6 results a board; board 3 was not
    played at one table of B (5 of 6)."""
    a = mitchell_lines(3, 3, 2, rng)
    b = [ln for ln in mitchell_lines(3, 3, 2, rng) if not (ln.board == 3 and ln.table == 2)]
    return Event(
        "MP_PAIRS",
        [
            Section("A", True, [1, 2, 3], a, full_set=6),
            Section("B", True, [1, 2, 3], b, full_set=6),
        ],
        expected=6,
    )


def howell_sitout(rng) -> Event:
    """7 pairs, 7 rounds of 2 boards: each round a pair sits out (its set is not played)."""
    movement = howell(pairs=7, boards_per_round=2).to_dict()
    lines = [
        Line(b, s.round, s.table, s.ns, s.ew, _score(rng))
        for s in plan.slots(movement)
        if s.ns <= 7 and s.ew <= 7
        for b in s.boards
    ]
    return Event(
        "MP_PAIRS", [Section("A", False, list(range(1, 8)), lines, full_set=14)], expected=4
    )


def with_artificial(event: Event) -> Event:
    """Every artificial score: A6040, A5050, A4060, and an A6040 where the director gave the
    non-offending pair its own session percentage (68 %)."""
    lines = event.sections[0].lines
    for ln, code, awarded in zip(
        lines[::7],
        ("A6040", "A5050", "A4060", "A6040"),
        (None, None, None, (Fraction(68), Fraction(40))),
        strict=False,
    ):
        ln.score, ln.awarded = code, awarded
    return event


def _import(text: str, name: str = "otro.xml", **kw):
    record = usebio.import_file(text, file_name=name, **kw)
    assert record.state == ImportState.DONE
    return record


SCENARIOS = {
    "mitchell_sitout": mitchell_sitout,
    "two_sections_board_short": two_sections_board_short,
    "howell_sitout": howell_sitout,
    "artificial": lambda rng: with_artificial(mitchell_sitout(rng)),
}
MP_STYLES = {
    "neuberg_lines": Style(),
    "neuberg_lines_factored_totals": Style(totals="factored"),
    "raw_lines_neuberg": Style(marks="raw"),
    "raw_lines_ratio": Style(marks="raw", factoring="ratio"),
    "raw_lines_ratio_factored_totals": Style(marks="raw", factoring="ratio", totals="factored"),
    "average_lines": Style(marks="average"),
    "raw_lines_average": Style(marks="raw", factoring="average"),
}


@pytest.mark.parametrize("style", MP_STYLES)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_matchpoint_files_in_every_convention_reproduce_exactly(scenario, style):
    text = write(SCENARIOS[scenario](random.Random(7)), MP_STYLES[style])
    record = _import(text)
    assert record.differences == [], record.differences[:5]
    conventions = record.tournament.conventions
    chosen = MP_STYLES[style]
    if scenario == "two_sections_board_short":  # the one with a board short of results
        assert conventions["marks"] == ("raw" if chosen.marks == "raw" else "neuberg")
        if chosen.marks == "raw":
            assert conventions["factoring"] == chosen.factoring
        elif chosen.marks != "neuberg":
            assert conventions["factoring"] == chosen.marks
    assert conventions["totals"] == chosen.totals


@pytest.mark.parametrize(
    ("main", "other"), [("neuberg", "raw"), ("raw", "neuberg"), ("average", "raw")]
)
def test_each_short_board_is_read_in_its_own_style(main, other):
    """A file that writes one short board one way and another short board another (Neuberg
    on most, raw marks on the one board played fewer times) reproduces line by line."""
    event = two_sections_board_short(random.Random(7))
    event.sections[0].lines = [
        ln for ln in event.sections[0].lines if not (ln.board == 5 and ln.table == 1)
    ]
    factoring = "neuberg" if main == "raw" else main  # raw boards totalled as the others
    text = write(event, Style(marks=main, factoring=factoring, board_marks={5: other}))
    record = _import(text)
    assert record.differences == [], record.differences[:5]
    conventions = record.tournament.conventions
    # with one board each way either may be the file's main style: each board keeps its own
    first = "raw" if conventions["marks"] == "raw" else conventions.get("factoring", "neuberg")
    assert {key: conventions["board_marks"].get(key, first) for key in ("1A-3", "1A-5")} == {
        "1A-3": main,
        "1A-5": other,
    }
    with translation.override("es"):
        assert "1A-" in "; ".join(describe(conventions))


def test_a_pair_that_sat_out_is_ranked_on_the_boards_it_played():
    """C03's relay rule: the percentage is points / (boards played × top); 8 of 10 boards."""
    record = _import(write(mitchell_sitout(random.Random(3))))
    rows = StoredRanking.objects.filter(
        tournament=record.tournament, scope=RankingScope.SECTION, direction="NS"
    )
    for r in rows:
        assert r.boards == 8
        assert r.percentage == round(r.points * 100 / (6 * 8), 2)


def test_artificial_scores_keep_the_points_the_director_awarded():
    record = _import(write(with_artificial(mitchell_sitout(random.Random(7)))))
    assert record.differences == []
    from tournaments.models import Result

    adjustments = sorted(
        str(r.adjustment)
        for r in Result.objects.filter(
            section__session__tournament=record.tournament, adjustment__isnull=False
        )
    )
    assert any("'ns': 68" in a for a in adjustments), adjustments
    assert record.tournament.conventions["artificial"] == "awarded"


# Per section (5 results) "trim2" keeps the median, a score: rounded to 10 or not, it is the
# same datum and the same file, so only the unrounded one is told apart.
BUTLER_STYLES = {
    f"{d}_{r}_{f}": Style(datum=d, round_to=r, datum_field=f)
    for d in ("course", "mean", "trim2")
    for r in (None, 10)
    for f in ("field", "section")
    if (d, r, f) != ("trim2", 10, "section")
}


def butler_event(rng) -> Event:
    """Two sections of 5 tables sharing 5 boards: 5 results a section, 10 in the field."""
    a = mitchell_lines(5, 5, 1, rng)
    b = mitchell_lines(5, 5, 1, rng)
    return Event(
        "BUTLER_PAIRS",
        [
            Section("A", True, [1, 2, 3, 4, 5], a, full_set=5),
            Section("B", True, [1, 2, 3, 4, 5], b, full_set=5),
        ],
        expected=10,
    )


@pytest.mark.parametrize("style", BUTLER_STYLES)
def test_each_butler_datum_is_detected_and_reproduces_the_files_imps(style):
    chosen = BUTLER_STYLES[style]
    for seed in range(40):  # a deal where the variants give different IMPs
        text = write(butler_event(random.Random(seed)), chosen)
        others = [
            write(butler_event(random.Random(seed)), s)
            for k, s in BUTLER_STYLES.items()
            if k != style
        ]
        if all(o != text for o in others):
            break
    else:
        raise AssertionError("no seed separates this datum from every other")
    record = _import(text)
    assert record.differences == [], record.differences[:5]
    c = record.tournament.conventions
    assert (c["butler_datum"], c["butler_round_to"], c["butler_field"]) == (
        chosen.datum,
        chosen.round_to,
        chosen.datum_field,
    )


def test_ties_are_shared_places_as_the_file_writes_them():
    event = mitchell_sitout(random.Random(1))
    for ln in event.sections[0].lines:
        ln.score = 420
    text = write(event)
    assert "=</PLACE>" in text
    record = _import(text)
    assert record.differences == []
    assert record.tournament.conventions["places"] == "shared"
    assert StoredRanking.objects.filter(tournament=record.tournament, tied=True).exists()


def test_a_line_no_convention_reproduces_is_reported_with_both_figures_and_the_rules():
    text = write(mitchell_sitout(random.Random(7)))
    marker = "<NS_MATCH_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    wrong = "5.5" if value != "5.5" else "0.5"
    record = _import(head + marker + wrong + "<" + rest)
    [diff] = [d for d in record.differences if d["what"] == "mark NS"]
    assert diff["file"] == wrong
    assert abs(Fraction(diff["ours"]) - Fraction(value)) <= Fraction(1, 20)  # the true mark
    tried = tried_words(diff["tried"])
    assert "Neuberg" in tried and describe({"marks": "raw"})[0] in tried
    text_report = usebio.report_text(record)
    assert wrong in text_report and "Neuberg" in text_report


def _deals(event: Event, rng) -> Event:
    numbers = sorted({ln.board for s in event.sections for ln in s.lines})
    event.deals = {
        n: (random_deal(rng), "ESWN"[n % 4], ("NS", "EW", "All", "None")[n % 4]) for n in numbers
    }
    return event


@pytest.mark.parametrize("where", ["root", "event"])
def test_handset_beside_or_inside_event_keeps_deals_dealer_and_vulnerability(where):
    event = _deals(mitchell_sitout(random.Random(2)), random.Random(5))
    record = _import(write(event, Style(handset=where)))
    assert record.summary["deals"] == len(event.deals)
    boards = {b.number: b for b in Board.objects.filter(session__tournament=record.tournament)}
    for number, (deal, dealer, vul) in event.deals.items():
        b = boards[number]
        assert (b.deal, b.dealer, b.vulnerability or "None") == (deal, dealer, vul)
    text = documents.export_text(record.tournament, "pbn")
    games = endplay_pbn.loads(text)
    assert {g.board_num: g.deal.to_pbn() for g in games} == {
        n: d for n, (d, _x, _y) in event.deals.items()
    }
    for number, (_deal, dealer, vul) in event.deals.items():
        block = text.split(f'[Board "{number}"]', 1)[1].split("[Board ", 1)[0]
        assert f'[Dealer "{dealer}"]' in block and f'[Vulnerable "{vul}"]' in block


def test_the_same_file_twice_is_refused_then_replaced_without_duplicates(tmp_path):
    text = write(mitchell_sitout(random.Random(4)))
    first = _import(text)
    with pytest.raises(usebio.AlreadyImported):
        usebio.import_file(text, file_name="again.xml")
    refused = ResultImport.objects.filter(file_name="again.xml").get()
    assert refused.tournament == first.tournament and refused.summary == {"duplicate": True}
    assert Tournament.objects.filter(name="Torneo importado").count() == 1
    # the same event written again with another figure: its identifier finds it too
    changed = text.replace("<SCORE>420</SCORE>", "<SCORE>450</SCORE>", 1)
    with pytest.raises(usebio.AlreadyImported):
        usebio.import_file(changed, file_name="changed.xml")
    path = tmp_path / "otro.xml"
    path.write_text(text)
    with pytest.raises(CommandError, match="--replace"):
        call_command("import_usebio", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_usebio", str(path), "--replace", "--strict", stdout=out)
    assert Tournament.objects.filter(name="Torneo importado").count() == 1
    assert not Tournament.objects.filter(pk=first.tournament.pk).exists()
    assert first.tournament.slug in out.getvalue()


def _upload(client, text: str, name: str = "otro.xml", replace: bool = False):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    data = {"file": SimpleUploadedFile(name, text.encode(), content_type="application/xml")}
    if replace:
        data["replace"] = "on"
    return client.post(reverse("uploads:imports"), data)


def test_the_secretary_imports_from_the_page_with_the_commands_report_and_replaces(
    client, secretary
):
    """Same report as the command (conventions, differences with the rules tried); a second
    upload of the file is refused with a form to replace it; replacing leaves one copy."""
    from django.urls import reverse

    text = write(two_sections_board_short(random.Random(7)), Style(marks="raw"))
    sign_in_verified(client, secretary)
    response = _upload(client, text)
    record = ResultImport.objects.get()
    assert response["Location"] == reverse("uploads:import", args=[record.pk])
    page = client.get(response["Location"]).content.decode()
    assert record.state == ImportState.DONE and 'id="verify-clean"' in page
    with translation.override("es"):  # the page's language: the report's words
        words = describe(record.summary["conventions"])
        assert "; ".join(words) in usebio.report_text(record)
    shown = page.split('id="import-conventions"')[1].split("</p>")[0]
    assert (
        all(escape(w) in shown for w in words) and record.summary["conventions"]["marks"] == "raw"
    )
    tournament_page = client.get(reverse("results:tournament", args=[record.tournament.slug]))
    assert 'id="imported-conventions"' in tournament_page.content.decode()

    second = _upload(client, text, name="otra-vez.xml")
    refused = ResultImport.objects.get(file_name="otra-vez.xml")
    page = client.get(second["Location"]).content.decode()
    assert refused.state == ImportState.FAILED and 'id="replace-form"' in page
    assert Tournament.objects.filter(name="Torneo importado").count() == 1

    third = _upload(client, text, name="otra-vez.xml", replace=True)
    done = ResultImport.objects.get(pk=int(third["Location"].rstrip("/").split("/")[-1]))
    assert done.state == ImportState.DONE and done.summary["replaced"]
    assert Tournament.objects.filter(name="Torneo importado").count() == 1
    assert 'id="import-replaced"' in client.get(third["Location"]).content.decode()


def test_a_running_import_shows_its_progress_and_polls_until_done(client, director):
    """A big file is imported in the worker: its page shows a progress bar polled by htmx,
    and reloads itself once the report is there."""
    from django.urls import reverse

    from tournaments.imports.usebio import _progress

    record = ResultImport.objects.create(
        file_name="grande.xml", key="k-1", state=ImportState.RUNNING
    )
    _progress("k-1", 42)
    sign_in_verified(client, director)
    page = client.get(reverse("uploads:import", args=[record.pk])).content.decode()
    assert 'hx-trigger="every 2s"' in page and 'value="42"' in page
    poll = client.get(reverse("uploads:import", args=[record.pk]), HTTP_HX_REQUEST="true")
    assert 'value="42"' in poll.content.decode() and "<html" not in poll.content.decode()
    usebio.import_file(write(mitchell_sitout(random.Random(9))), file_name="grande.xml", key="k-1")
    record.refresh_from_db()
    assert record.state == ImportState.DONE and ResultImport.objects.count() == 1
    done = client.get(reverse("uploads:import", args=[record.pk]), HTTP_HX_REQUEST="true")
    assert done.status_code == 204 and done["HX-Refresh"] == "true"


# Each example imports a file: a twelfth of the profile's examples (12 in CI, 250 nightly).
@settings(
    max_examples=max(12, settings.default.max_examples // 12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10**6),
    main=st.sampled_from(["neuberg", "raw", "average", "ratio"]),
    raw_board=st.booleans(),
    totals=st.sampled_from(["played", "factored"]),
    equals=st.booleans(),
    percentage_total=st.booleans(),
    sessions=st.booleans(),
    display=st.sampled_from([None, 20]),
)
def test_any_mix_of_conventions_reproduces_every_figure(
    seed, main, raw_board, totals, equals, percentage_total, sessions, display
):
    """Two short boards, each written in the file's style or raw, ties with or without "=",
    the total as points or as the percentage, sections in a session or under the event,
    factored marks shown on a top of 20 (the true top is 10)."""
    from django.db import transaction

    rng = random.Random(seed)
    event = two_sections_board_short(rng)
    event.identifier = f"EV-{seed}"
    event.sections[0].lines = [
        ln for ln in event.sections[0].lines if not (ln.board == 5 and ln.table == 1)
    ]
    factoring = "neuberg" if main == "raw" else main
    style = Style(
        marks=main,
        factoring=factoring,
        totals=totals,
        equals=equals,
        total_is_percentage=percentage_total,
        sessions=sessions,
        board_marks={5: "raw"} if raw_board else {},
        display_top=display if main != "raw" and not raw_board else None,
    )
    with transaction.atomic():
        record = _import(write(event, style))
        assert record.differences == [], record.differences[:3]
        transaction.set_rollback(True)
