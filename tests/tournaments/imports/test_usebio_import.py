"""USEBIO import: members by licence, guests, re-scoring, the verify report, refusals."""

import random

import pytest
from django.utils import translation

from clubsite.models import Member
from tests.signed_in import sign_in_verified
from tournaments import demo, documents
from tournaments.imports import usebio
from tournaments.imports.usebio_parse import UsebioError, parse
from tournaments.models import (
    Board,
    RankingScope,
    Result,
    StoredRanking,
    Tournament,
    TournamentStatus,
)
from tournaments.models.uploads import ImportState, ResultImport
from tournaments.services.classification.classify import classify_tournament

pytestmark = pytest.mark.django_db

# Four pairs, three boards, no rounds or tables: a flat file as older scorers write it.
# Pair 1 (licences L-1/L-2) and pair 3's first player (L-5) are members; the rest are not.
LINES = {  # board: [(ns, ew, contract, declarer, tricks, score, ns_mp, ew_mp)]
    1: [(1, 2, "4S", "N", 11, 450, 2, 0), (3, 4, "4S", "N", 10, 420, 0, 2)],
    2: [(1, 3, "4H", "N", 9, -100, 0, 2), (2, 4, "3NT", "E", 8, 50, 2, 0)],
    3: [(1, 4, "2NT", "N", 8, 120, 0, 2), (2, 3, "3NT", "N", 9, 400, 2, 0)],
}
PAIRS = {
    1: ("Ana Pérez", "L-1", "Luis Gil", "L-2", 2, "33.33"),
    2: ("Eva Ruiz", "", "Pablo Sanz", "X-9", 4, "66.67"),
    3: ("Rosa Díaz", "L-5", "Juan Mora", "", 2, "33.33"),
    4: ("Marta Vidal", "", "Ramón Soto", "", 4, "66.67"),
}


def flat_file(total_for_pair_2: str = "4", extra: str = "", score_b1: int = 450) -> str:
    pairs = "".join(
        f"<PAIR><PAIR_NUMBER>{n}</PAIR_NUMBER><TOTAL_SCORE>"
        f"{total_for_pair_2 if n == 2 else total}</TOTAL_SCORE><PERCENTAGE>{pct}</PERCENTAGE>"
        f"<PLAYER><PLAYER_NAME>{a}</PLAYER_NAME><NATIONAL_ID_NUMBER>{la}</NATIONAL_ID_NUMBER>"
        f"</PLAYER><PLAYER><PLAYER_NAME>{b}</PLAYER_NAME>"
        f"<NATIONAL_ID_NUMBER>{lb}</NATIONAL_ID_NUMBER></PLAYER></PAIR>"
        for n, (a, la, b, lb, total, pct) in PAIRS.items()
    )
    boards = "".join(
        f"<BOARD><BOARD_NUMBER>{b}</BOARD_NUMBER>"
        + "".join(
            f"<TRAVELLER_LINE><NS_PAIR_NUMBER>{ns}</NS_PAIR_NUMBER><EW_PAIR_NUMBER>{ew}"
            f"</EW_PAIR_NUMBER><CONTRACT>{c}</CONTRACT><PLAYED_BY>{d}</PLAYED_BY>"
            f"<TRICKS>{t}</TRICKS><SCORE>{score_b1 if (b, ns) == (1, 1) else s}</SCORE>"
            f"<NS_MATCH_POINTS>{nm}</NS_MATCH_POINTS><EW_MATCH_POINTS>{em}</EW_MATCH_POINTS>"
            f"</TRAVELLER_LINE>"
            for ns, ew, c, d, t, s, nm, em in lines
        )
        + "</BOARD>"
        for b, lines in LINES.items()
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n'
        f'<USEBIO Version="1.2"><CLUB><CLUB_NAME>Otro club</CLUB_NAME></CLUB>'
        f'<EVENT EVENT_TYPE="MP_PAIRS"><EVENT_DESCRIPTION>Torneo antiguo</EVENT_DESCRIPTION>'
        f"<PROGRAM_NAME>OtherScorer</PROGRAM_NAME><DATE>14/02/2024</DATE>{extra}"
        f"<PARTICIPANTS>{pairs}</PARTICIPANTS>{boards}</EVENT></USEBIO>"
    )


@pytest.fixture
def known_members(db):
    return [
        Member.objects.create(first_name=f, last_name=last, licence_number=lic)
        for f, last, lic in (
            ("Ana", "Pérez", "L-1"),
            ("Luis", "Gil", "L-2"),
            ("Rosa", "Díaz", "L-5"),
        )
    ]


def test_flat_file_imports_matches_members_and_verifies_clean(known_members):
    record = usebio.import_file(flat_file(), file_name="antiguo.xml")
    assert record.state == ImportState.DONE
    assert record.differences == []
    t = record.tournament
    assert (t.name, t.status, str(t.date)) == (
        "Torneo antiguo",
        TournamentStatus.FINAL,
        "2024-02-14",
    )
    assert record.summary["members"] == 3 and record.summary["guests"] == 5
    assert record.summary["lines"] == 6 and record.summary["boards"] == 3
    guest = Member.objects.get(licence_number="X-9")
    assert guest.is_guest and (guest.first_name, guest.last_name) == ("Pablo", "Sanz")
    first = t.entries.get(entry_players__member=known_members[0])
    assert set(first.players.all()) == set(known_members[:2])
    ranking = {
        r.number: r for r in StoredRanking.objects.filter(tournament=t, scope=RankingScope.SECTION)
    }
    assert {n: str(r.percentage) for n, r in ranking.items()} == {
        1: "33.33",
        2: "66.67",
        3: "33.33",
        4: "66.67",
    }
    assert Result.objects.filter(section__session__tournament=t).count() == 6


def test_verify_reports_the_files_wrong_figures(known_members):
    record = usebio.import_file(flat_file(total_for_pair_2="5"), file_name="x.xml")
    assert [(d["what"], d["file"], d["ours"]) for d in record.differences] == [
        ("total", "5", "4.00")
    ]
    text = usebio.report_text(record)
    assert "1" in text and "5" in text and record.tournament.slug in text


def test_a_score_that_does_not_match_its_contract_is_kept_and_reported(known_members):
    record = usebio.import_file(flat_file(score_b1=480), file_name="x.xml")
    kinds = [d["what"] for d in record.differences]
    assert kinds[0] == "score" and record.differences[0]["file"] == "480"
    row = Result.objects.get(
        section__session__tournament=record.tournament,
        board__number=1,
        ns__entry_players__member=known_members[0],
    )
    assert row.ns_score == 480 and row.contract == "4S"


@pytest.mark.parametrize(
    "text, message",
    [
        ("not xml at all", "XML"),
        ("<OTHER/>", "USEBIO"),
        ('<USEBIO Version="1.2"><EVENT EVENT_TYPE="TEAMS"/></USEBIO>', "MATCH"),
        (
            flat_file().replace(
                "<NS_PAIR_NUMBER>3</NS_PAIR_NUMBER>", "<NS_PAIR_NUMBER>9</NS_PAIR_NUMBER>"
            ),
            "9",
        ),
        (flat_file().replace("<SCORE>400</SCORE>", "<SCORE>lots</SCORE>"), "lots"),
        (
            flat_file().replace(
                "<CONTRACT>3NT</CONTRACT><PLAYED_BY>N</PLAYED_BY>",
                "<CONTRACT>9NT</CONTRACT><PLAYED_BY>N</PLAYED_BY>",
            ),
            "3",
        ),
        (flat_file().replace("<DATE>14/02/2024</DATE>", ""), "DATE"),
    ],
)
def test_a_malformed_file_is_refused_and_nothing_is_half_imported(known_members, text, message):
    before = (Tournament.objects.count(), Member.objects.count(), Board.objects.count())
    with pytest.raises(UsebioError) as caught:
        usebio.import_file(text, file_name="bad.xml")
    assert message in caught.value.message
    assert (Tournament.objects.count(), Member.objects.count(), Board.objects.count()) == before
    record = ResultImport.objects.get()
    assert record.state == ImportState.FAILED and record.error == caught.value.message


def test_entities_are_refused():
    evil = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><USEBIO>&a;</USEBIO>'
    with pytest.raises(UsebioError):
        parse(evil)


ENCODINGS = [
    ("UTF-8", "utf-8", b""),
    ("UTF-8", "utf-8", b"\xef\xbb\xbf"),
    ("UTF-16", "utf-16-le", b"\xff\xfe"),
    ("UTF-16", "utf-16-be", b"\xfe\xff"),
    ("UTF-16LE", "utf-16-le", b""),
    ("UTF-16BE", "utf-16-be", b""),
    ("ISO-8859-1", "latin-1", b""),
]


@pytest.mark.parametrize("declared, codec, bom", ENCODINGS)
@pytest.mark.parametrize("entity", ['"expanded"', 'SYSTEM "file:///etc/passwd"'])
def test_entities_are_refused_in_every_encoding(declared, codec, bom, entity):
    """Declared inside the DTD, internal or external, with or without a byte-order mark:
    refused while parsing, never expanded (a search of the raw bytes missed UTF-16)."""
    evil = (
        f'<?xml version="1.0" encoding="{declared}"?>'
        f"<!DOCTYPE USEBIO [<!ENTITY a {entity}>]><USEBIO><EVENT>&a;</EVENT></USEBIO>"
    )
    with translation.override("en"), pytest.raises(UsebioError) as caught:
        parse(bom + evil.encode(codec))
    assert "entities" in caught.value.message


def test_the_dtd_every_program_names_is_still_read():
    text = flat_file()
    assert '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">' in text
    assert parse(text).sections
    assert parse(
        b"\xff\xfe" + text.replace('encoding="UTF-8"', 'encoding="UTF-16"').encode("utf-16-le")
    ).sections  # UTF-16, as some programs write it


def section_ranking(t: Tournament) -> list[tuple]:
    return sorted(
        (r.section.letter, r.number, r.direction, r.place, r.points, r.percentage)
        for r in StoredRanking.objects.filter(
            tournament=t, scope=RankingScope.SECTION
        ).select_related("section")
    )


def test_the_import_page_reads_a_latin_1_file_with_its_accents(client, director, known_members):
    """A file declared ISO-8859-1, as older Spanish scorers write it, keeps its accents."""
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    text = (
        flat_file()
        .replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
        .replace("Torneo antiguo", "Torneo de otoño")
    )
    sign_in_verified(client, director)
    response = client.post(
        reverse("uploads:imports"),
        {
            "file": SimpleUploadedFile(
                "otono.xml", text.encode("iso-8859-1"), content_type="application/xml"
            )
        },
    )
    record = ResultImport.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("uploads:import", args=[record.pk])
    assert record.state == ImportState.DONE and record.tournament.name == "Torneo de otoño"
    guest = Member.objects.get(is_guest=True, last_name="Soto")
    assert guest.first_name == "Ramón"


def test_round_trip_of_the_movements_phantom_howell_shows_no_difference(members):
    """The movements core's Howell for seven pairs leaves the phantom's table out and names
    who sits out each round: the same figures come back from the file."""
    import datetime

    from tournaments.movements import howell
    from tournaments.services.entries import registration
    from tournaments.services.setup import events as setup

    tournament = setup.create_tournament(name="Howell impar", date=datetime.date(2025, 4, 3))
    session = tournament.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(
        section,
        howell(pairs=7, boards_per_round=3).to_dict(),
        [registration.register_entry(tournament, members[2 * i : 2 * i + 2]) for i in range(7)],
    )
    setup.start_session(session)
    demo.play_rounds(section, random.Random(4))
    setup.finish_session(session)
    classify_tournament(tournament)
    record = usebio.import_file(documents.export_text(tournament, "usebio"), file_name="impar.xml")
    assert record.differences == []
    assert section_ranking(record.tournament) == section_ranking(tournament)
    boards = {
        r.entry_id: r.boards
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION)
    }
    assert set(boards.values()) == {21}  # 18 played and 3 scored as the sit-out's average


def test_sit_outs_are_not_guessed_from_a_file_without_rounds():
    from tournaments.imports.usebio_pairs import meetings, sitouts

    event = parse(flat_file())
    section = event.sections[0]
    assert sitouts(section, meetings(section)) == []  # no rounds in the file: nothing guessed
