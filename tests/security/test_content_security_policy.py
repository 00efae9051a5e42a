"""The Content Security Policy: on every page, and no template breaking it (an inline
script, an onclick, a style attribute or <style> would be blocked in the browser; the PDF
templates are rendered by WeasyPrint, not a browser, and keep their <style>)."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = [p for p in ROOT.glob("templates/**/*.html") if "pdf" not in p.parts]


def policy(response) -> dict[str, str]:
    header = response.headers["Content-Security-Policy"]
    return {
        part.split()[0]: " ".join(part.split()[1:]) for part in header.split(";") if part.strip()
    }


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "results:index", "table:index", "login", "laws:index"])
def test_every_page_sends_the_policy(client, name):
    response = client.get(reverse(name))
    assert response.status_code == 200
    directives = policy(response)
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["img-src"] == "'self' data:"
    assert directives["frame-ancestors"] == "'none'" and directives["form-action"] == "'self'"
    assert "unsafe" not in response.headers["Content-Security-Policy"]


@pytest.mark.django_db
def test_htmx_is_told_not_to_inject_its_style(client):
    html = client.get(reverse("home")).content.decode()
    assert '"includeIndicatorStyles": false' in html
    css = (ROOT / "clubsite/static/css/site.css").read_text()
    assert ".htmx-request .htmx-indicator" in css


@pytest.mark.parametrize(
    "pattern, what",
    [
        (r"<script(?![^>]*\bsrc=)[^>]*>", "inline <script>"),
        (r"\son[a-z]+\s*=", "inline event handler"),
        (r"\sstyle\s*=", "style attribute"),
        (r"<style", "<style> element"),
        (r"javascript:", "javascript: URL"),
    ],
)
def test_no_template_needs_an_unsafe_policy(pattern, what):
    offenders = [
        str(p.relative_to(ROOT))
        for p in TEMPLATES
        if re.search(pattern, p.read_text(), re.IGNORECASE)
    ]
    assert not offenders, f"{what} in {offenders}"
