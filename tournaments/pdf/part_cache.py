"""Rendered parts of results PDFs, kept on disk under the hash of what they were made from.

A results PDF is made again after every correction (debounced), and once more for each
language; a correction changes a board's travellers, two pairs' scorecards and the
rankings, so most parts of the new document are byte for byte the HTML of the last one.
Laying out a part is what costs (WeasyPrint), so a part whose HTML and style sheet were
rendered before is read back instead: the key is the SHA-256 of both and of WeasyPrint's
version, so a changed part, a changed style or a new WeasyPrint never reads a stale file.

The files live in ``PDF_PART_CACHE_DIR`` (``var/pdf-parts`` by default); each is written
to a temporary name and renamed, so two processes rendering the same part never read half
a file. A read touches the file; past ``PDF_PART_CACHE_FILES`` parts the oldest go. The
metadata is JSON, never pickle: a file in this folder is data, not code.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from django.conf import settings

FORMAT = "1"


def folder() -> Path | None:
    """Where parts are kept; None when the cache is off (``PDF_PART_CACHE_DIR`` empty)."""
    path = getattr(settings, "PDF_PART_CACHE_DIR", "")
    return Path(path) if path else None


def key(html: str, css: str) -> str:
    import weasyprint

    digest = hashlib.sha256()
    for piece in (FORMAT, weasyprint.__version__, css, html):
        digest.update(piece.encode())
        digest.update(b"\0")
    return digest.hexdigest()


def read(name: str) -> dict | None:
    """The part rendered under ``name``, or None; a damaged or missing file is a miss."""
    where = folder()
    if where is None:
        return None
    pdf, meta = where / f"{name}.pdf", where / f"{name}.json"
    try:
        data = json.loads(meta.read_text())
        data["pdf"] = pdf.read_bytes()
        os.utime(meta)
    except (OSError, ValueError):
        return None
    if len(data["pdf"]) != data.get("size"):
        return None
    data["links"] = [(i, target, tuple(rect), height) for i, target, rect, height in data["links"]]
    return data


def write(name: str, part: dict) -> None:
    """Keep ``part`` (``pdf.render.render_part``'s answer); a full disk only loses the copy."""
    where = folder()
    if where is None:
        return
    meta = {
        "pages": part["pages"],
        "bookmarks": part["bookmarks"],
        "links": part["links"],
        "size": len(part["pdf"]),
    }
    try:
        where.mkdir(parents=True, exist_ok=True)
        _atomic(where / f"{name}.pdf", part["pdf"])
        _atomic(where / f"{name}.json", json.dumps(meta).encode())
    except OSError:
        return


def _atomic(path: Path, content: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".part-")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def prune() -> int:
    """Drop the least recently used parts beyond ``PDF_PART_CACHE_FILES``; how many went."""
    where = folder()
    limit = int(getattr(settings, "PDF_PART_CACHE_FILES", 2000))
    if where is None or not where.is_dir():
        return 0
    metas = []
    for meta in where.glob("*.json"):
        try:
            metas.append((meta.stat().st_mtime, meta))
        except OSError:
            continue
    gone = 0
    for _when, meta in sorted(metas)[: max(0, len(metas) - limit)]:
        meta.unlink(missing_ok=True)
        meta.with_suffix(".pdf").unlink(missing_ok=True)
        gone += 1
    return gone
