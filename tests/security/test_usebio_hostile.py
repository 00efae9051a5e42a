"""USEBIO files a scorer never writes: an unknown encoding, numbers that are not numbers or
beyond any bridge figure, a score no contract makes. Each is a listed error and nothing is
imported, by the service, the web page and the command alike."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from clubsite.models import Member
from tests.signed_in import sign_in_verified
from tests.tournaments.imports.test_usebio_import import flat_file
from tournaments.imports import usebio
from tournaments.imports.usebio_parse import UsebioError
from tournaments.models import Board, Result, Tournament
from tournaments.models.uploads import ImportState, ResultImport

pytestmark = pytest.mark.django_db

BAD = [
    (flat_file().replace('encoding="UTF-8"', 'encoding="foo"'), "UTF-8"),
    (flat_file().replace('encoding="UTF-8"', 'encoding="UTF-32"'), "UTF-8"),
    (flat_file().replace("<SCORE>400</SCORE>", "<SCORE>4200</SCORE>"), "4200"),
    (flat_file().replace("<SCORE>400</SCORE>", "<SCORE>421</SCORE>"), "421"),
    (flat_file().replace("<SCORE>400</SCORE>", "<SCORE>" + "9" * 40 + "</SCORE>"), "999"),
    (flat_file().replace("<SCORE>400</SCORE>", "<SCORE>1e3</SCORE>"), "1e3"),
    (flat_file().replace("<TRICKS>9</TRICKS>", "<TRICKS>NaN</TRICKS>", 1), "NaN"),
    (flat_file().replace("<TRICKS>9</TRICKS>", "<TRICKS>sNaN</TRICKS>", 1), "sNaN"),
    (flat_file().replace("<TRICKS>9</TRICKS>", "<TRICKS>Infinity</TRICKS>", 1), "Infinity"),
    (flat_file().replace("<TRICKS>9</TRICKS>", "<TRICKS>1E+999999</TRICKS>", 1), "1E+999999"),
    (
        flat_file().replace(
            "<NS_MATCH_POINTS>2</NS_MATCH_POINTS>", "<NS_MATCH_POINTS>NaN</NS_MATCH_POINTS>", 1
        ),
        "NaN",
    ),
    (
        flat_file().replace(
            "<PERCENTAGE>33.33</PERCENTAGE>", "<PERCENTAGE>-Infinity</PERCENTAGE>", 1
        ),
        "Infinity",
    ),
    (
        flat_file().replace(
            "<BOARD_NUMBER>2</BOARD_NUMBER>", "<BOARD_NUMBER>" + "7" * 5000 + "</BOARD_NUMBER>"
        ),
        "777",
    ),
    (
        flat_file().replace(
            "<NS_PAIR_NUMBER>3</NS_PAIR_NUMBER>",
            "<NS_PAIR_NUMBER>" + "3" * 30 + "</NS_PAIR_NUMBER>",
        ),
        "333",
    ),
]


def counts():
    return (
        Tournament.objects.count(),
        Member.objects.count(),
        Board.objects.count(),
        Result.objects.count(),
    )


@pytest.mark.parametrize("text, shown", BAD)
def test_the_service_lists_the_problem_and_imports_nothing(text, shown):
    before = counts()
    with pytest.raises(UsebioError) as caught:
        usebio.import_file(text.encode("utf-8"), file_name="bad\x00.xml")
    assert shown in caught.value.message and len(caught.value.message) < 2000
    assert counts() == before
    record = ResultImport.objects.get()
    assert record.state == ImportState.FAILED and "\x00" not in record.file_name


def test_the_message_is_translated():
    with pytest.raises(UsebioError) as caught:
        usebio.import_file(BAD[2][0], file_name="x.xml")
    assert "no es un resultado que pueda dar ningún contrato" in caught.value.message


@pytest.mark.parametrize("text, shown", BAD[:4] + BAD[6:8])
def test_the_web_import_shows_the_refusal(client, director, text, shown):
    sign_in_verified(client, director)
    before = counts()
    response = client.post(
        reverse("uploads:imports"),
        {
            "file": SimpleUploadedFile(
                "bad.xml", text.encode("utf-8"), content_type="application/xml"
            )
        },
    )
    assert response.status_code == 302
    record = ResultImport.objects.get()
    assert record.state == ImportState.FAILED and shown in record.error
    assert counts() == before
    page = client.get(response["Location"])
    assert page.status_code == 200


@pytest.mark.parametrize("text, shown", BAD[:3] + BAD[6:7])
def test_the_command_refuses_with_the_message(tmp_path, text, shown):
    path = tmp_path / "bad.xml"
    path.write_bytes(text.encode("utf-8"))
    before = counts()
    with pytest.raises(CommandError) as caught:
        call_command("import_usebio", str(path), stdout=io.StringIO())
    assert shown in str(caught.value)
    assert counts() == before
