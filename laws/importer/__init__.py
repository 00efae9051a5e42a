"""Parse every shipped edition of the Laws into plain trees (no Django).

``parse_all()`` is what ``manage.py import_laws`` stores; it raises
:class:`ImportFailed` when anything is left that a reader should not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import commentary, es1997, es2007, es2017, pt1997
from .builder import StructureError
from .refs import all_refs, complete_counterpart, resolve_edition
from .tree import Edition
from .validate import residues, structure_errors

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
COMMENTARY_FILE = "curso-arbitros-2003.txt"


@dataclass(frozen=True)
class Source:
    code: str
    file: str
    laws: range


SOURCES = [
    Source("es-2017", "laws-es-2017-aeb.txt", range(1, 94)),
    Source("pt-1997", "laws-pt-1997-fpb.txt", range(1, 94)),
    Source("es-2007", "laws-es-2007-aeb-web-partial.txt", range(1, 17)),
    Source("es-1997", "laws-es-1997-aba-partial.txt", range(1, 41)),
]


class ImportFailed(Exception):
    """The sources did not parse into a clean, complete tree; nothing must be stored."""


def parse_all(data_dir: Path = DATA_DIR) -> list[Edition]:
    pt = pt1997.parse(data_dir / "laws-pt-1997-fpb.txt")
    editions = [
        es2017.parse(data_dir / "laws-es-2017-aeb.txt"),
        pt,
        es2007.parse(data_dir / "laws-es-2007-aeb-web-partial.txt"),
        es1997.parse(data_dir / "laws-es-1997-aba-partial.txt", reference=pt),
    ]
    comments = commentary.parse(data_dir / COMMENTARY_FILE)
    for edition in editions:
        resolve_edition(edition, complete_counterpart(edition, editions))
        if edition.year == 1997:
            commentary.attach(edition, comments)
    problems = []
    for edition, source in zip(editions, SOURCES, strict=True):
        problems += structure_errors(edition, source.laws)
        problems += residues(edition)
    if problems:
        raise ImportFailed("\n".join(problems))
    return editions


def report(editions: list[Edition], *, list_unresolved: bool = False) -> list[str]:
    """One line of counts per edition, then one summary line of the unresolved references
    (the references a partial source makes to laws it lacks, where no complete edition of
    the same Code is shipped: es-2007's to laws 17–93). ``list_unresolved`` lists each one
    with its reason (``import_laws -v 2``)."""
    lines, missing = [], {}
    for e in editions:
        nodes = list(e.all_nodes())
        kinds = {
            k: sum(1 for n in nodes if n.kind == k)
            for k in ("section", "item", "subitem", "subsubitem")
        }
        notes = sum(len(n.notes) for n in nodes)
        tables = sum(len(n.tables) for n in nodes)
        refs = list(all_refs(e))
        unresolved = [(w, r) for w, r in refs if not r.resolved]
        elsewhere = sum(
            1 for _, r in refs if r.targets and not r.targets[0].startswith(e.code + "/")
        )
        lines.append(
            f"{e.code}: {len(e.chapters)} chapters, {len(e.laws)} laws, "
            + ", ".join(f"{v} {k}s" for k, v in kinds.items())
            + f", {len(e.glossary)} terms, {notes} notes, {len(e.footnotes)} footnotes, "
            f"{tables} tables, {len(refs)} references ({len(unresolved)} unresolved"
            + (f", {elsewhere} linked to the complete edition" if elsewhere else "")
            + f"), {sum(1 for law in e.laws if law.commentary)} laws with commentary"
        )
        if unresolved:
            missing[e.code] = unresolved
    if missing and not list_unresolved:
        counts = ", ".join(f"{code} {len(refs)}" for code, refs in missing.items())
        lines.append(
            f"{sum(map(len, missing.values()))} references unresolved ({counts}): "
            "targets outside a partial source with no complete edition of its Code, or "
            "missing parts; `manage.py import_laws -v 2` lists them"
        )
    for unresolved in missing.values() if list_unresolved else ():
        for where, ref in unresolved:
            lines.append(f"  unresolved {where}: {ref.literal!r} — {ref.reason}")
    return lines


__all__ = ["ImportFailed", "StructureError", "parse_all", "report", "SOURCES", "DATA_DIR"]
