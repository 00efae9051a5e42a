"""What a PDF may load while WeasyPrint renders it: the site's own static files and inline
``data:`` images (the QR codes), nothing else.

WeasyPrint's default fetcher follows any URL in the document: ``file:`` (any file the
worker can read), ``http(s):`` (the club's internal network), ``ftp:``. A name, a venue or an
imported file that reached the markup could then pull the server's files into a published
PDF. Escaping keeps user text out of the markup; this fetcher is the second wall, so that
even markup that got through can read nothing but what the site ships.
"""

from __future__ import annotations

import logging
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.apps import apps
from django.conf import settings
from weasyprint.urls import URLFetcher

log = logging.getLogger(__name__)


class RefusedResource(ValueError):
    """A PDF asked for a resource outside the site's own static files."""


def static_roots() -> list[Path]:
    """The folders whose files a PDF may embed: each project app's ``static/`` folder and
    the collected static files."""
    roots = [
        Path(app.path) / "static"
        for app in apps.get_app_configs()
        if Path(app.path).resolve().is_relative_to(Path(settings.BASE_DIR).resolve())
    ]
    roots += [Path(p) for p in getattr(settings, "STATICFILES_DIRS", [])]
    roots.append(Path(settings.STATIC_ROOT))
    return [root.resolve() for root in roots if root.is_dir()]


def allowed_file(url: str) -> Path | None:
    """The local path of a ``file:`` URL inside a static root, or None."""
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parts.path)).resolve()
    if not path.is_file():
        return None
    return path if any(path.is_relative_to(root) for root in static_roots()) else None


class SiteFilesFetcher(URLFetcher):
    """A WeasyPrint fetcher that serves ``data:`` URLs and the site's static files only."""

    def __init__(self, **kwargs):
        super().__init__(allowed_protocols=("data", "file"), allow_redirects=False, **kwargs)

    def fetch(self, url, headers=None):
        scheme = url.split(":", 1)[0].lower()
        if scheme == "data" or (scheme == "file" and allowed_file(url)):
            return super().fetch(url, headers)
        log.warning("PDF resource refused: %.200s", url)
        raise RefusedResource(f"refused: {url[:200]}")
