"""The games of a PBN file as their tags, read leniently: a hand record needs only ``Board``
and ``Deal`` (with ``Dealer`` and ``Vulnerable`` when given), whatever else the file holds.

Real files carry auctions, play, score tables and comments that a strict parser may refuse
(a play section without a contract, say); none of it matters to a hand record, so this
reader skips everything but the tags. It follows PBN 2.1 where it applies to tags: a game
is its run of tags up to the next blank line (or the next ``Event``/``Board`` tag repeated
in the same run), ``;`` comments run to the end of the line, ``{}`` comments may span lines
and hold brackets, ``%`` lines are directives, and a tag value of ``#`` repeats the previous
game's value (PBN's import format).
"""

from __future__ import annotations

import re

_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _without_comments(text: str) -> str:
    """The file with ``{…}`` and ``;`` comments blanked, line breaks kept."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "{":
            end = text.find("}", i + 1)
            end = n if end < 0 else end + 1
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == ";":
            end = text.find("\n", i)
            end = n if end < 0 else end
            i = end
        elif c == '"':  # a tag value may hold ; or {
            end = i + 1
            while end < n and text[end] != '"' and text[end] != "\n":
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def games(text: str) -> list[dict[str, str]]:
    """Each game's tags in the file's order (tag name → value, ``#`` already resolved)."""
    found: list[dict[str, str]] = []
    current: dict[str, str] = {}
    previous: dict[str, str] = {}

    def close() -> None:
        nonlocal current, previous
        if current:
            resolved = {k: previous.get(k, "") if v == "#" else v for k, v in current.items()}
            found.append(resolved)
            previous = {**previous, **resolved}
        current = {}

    for line in _without_comments(text.lstrip("\ufeff")).splitlines():
        stripped = line.strip()
        if stripped.startswith("%"):
            continue
        if not stripped:
            close()
            continue
        for name, value in _TAG.findall(stripped):
            if name in current and name in ("Event", "Board"):
                close()  # a new game without a blank line between
            current[name] = value.replace('\\"', '"').replace("\\\\", "\\")
    close()
    return found
