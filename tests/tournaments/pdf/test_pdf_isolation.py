"""A PDF reads nothing of the server: user text stays text, and the renderer fetches only the
site's own static files and inline images, whatever the markup asks for."""

import subprocess

import pytest

from clubsite.models import Club
from tournaments import demo, documents
from tournaments import pdf as pdfs
from tournaments.models import Tournament
from tournaments.models.uploads import PdfKind
from tournaments.pdf.fetcher import SiteFilesFetcher, allowed_file

pytestmark = [pytest.mark.django_db, pytest.mark.engine_neutral]  # what the renderer fetches

CANARY = "CANARY-7f3a9c-server-secret"


@pytest.fixture
def canary(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text(CANARY)
    return path


def hostile_names(canary) -> list[str]:
    url = f"file://{canary}"
    return [
        f"x</style><link rel=attachment href={url}><style>",
        f'"; }} @import url({url}); @top-center {{ content: "',
        f"<img src={url}> <link rel=stylesheet href={url}>",
        f"url({url}) \\22 </style><object data={url}></object>",
    ]


def render(html: str, tmp_path) -> tuple[bytes, str, str]:
    content, _pages = pdfs.render_pdf(html)
    target = tmp_path / "out.pdf"
    target.write_bytes(content)
    text = subprocess.run(
        ["pdftotext", "-layout", str(target), "-"], capture_output=True, text=True, check=True
    ).stdout
    attachments = subprocess.run(
        ["pdfdetach", "-list", str(target)], capture_output=True, text=True, check=True
    ).stdout
    return content, text, attachments


@pytest.fixture
def event(demo_club, movements, monkeypatch):
    monkeypatch.setattr(
        demo,
        "_movements",
        lambda: (movements.mitchell, lambda tables, boards: movements.howell(boards, phantom=None)),
    )
    demo.build_tournaments(only=("tarde",))
    return Tournament.objects.get()


@pytest.mark.parametrize("kind", [PdfKind.RESULTS, PdfKind.SETUP])
def test_hostile_names_print_as_text_and_read_no_file(event, canary, tmp_path, kind):
    names = hostile_names(canary)
    club = Club.current()
    club.name = names[0][:120]
    club.save()
    event.name, event.venue = names[1][:120], names[2][:120]
    event.save()
    entry = event.entries.first()
    entry.display_name = names[3]
    entry.save(update_fields=["display_name"])
    html, _version = documents.render_html(event, kind, "en")
    content, text, attachments = render(html, tmp_path)
    assert CANARY.encode() not in content and CANARY not in text
    assert "0 embedded files" in attachments or attachments.strip() == ""
    flat = " ".join(text.split())
    # The names are printed as the words they are, markup and all.
    assert "x</style><link rel=attachment" in flat
    assert "@import url(" in flat


def test_markup_that_got_through_still_fetches_nothing(canary, tmp_path, caplog):
    url = f"file://{canary}"
    html = f"""<html><head><style>@import url("{url}");
      body {{ background: url("{url}"); }}</style>
      <link rel="stylesheet" href="{url}"><link rel="attachment" href="{url}"></head>
      <body><p>visible</p><img src="{url}"><img src="http://127.0.0.1:9/x.png">
      <object data="{url}"></object><embed src="ftp://127.0.0.1/x"></body></html>"""
    content, text, attachments = render(html, tmp_path)
    assert "visible" in text
    assert CANARY.encode() not in content
    assert "0 embedded files" in attachments or attachments.strip() == ""
    assert "PDF resource refused" in caplog.text


def test_the_fetcher_serves_static_files_and_data_urls_only(canary, settings):
    css = settings.BASE_DIR / "clubsite" / "static" / "css" / "site.css"
    assert allowed_file(f"file://{css}") == css
    assert allowed_file(f"file://{canary}") is None
    assert allowed_file(f"file://{settings.BASE_DIR}/clubsite/settings.py") is None
    assert allowed_file(f"file://{settings.BASE_DIR}/clubsite/static/../settings.py") is None
    fetcher = SiteFilesFetcher()
    assert fetcher.fetch("data:text/plain,hello").read() == b"hello"
    for url in (
        f"file://{canary}",
        "http://127.0.0.1:9/",
        "https://example.org/x.css",
        "ftp://127.0.0.1/x",
        "file:///etc/passwd",
    ):
        with pytest.raises(ValueError):
            fetcher.fetch(url)
