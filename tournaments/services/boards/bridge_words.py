"""Seats and lines as the reader's language writes them: N, E, S, O and NS, EO in Spanish and
Portuguese, N, E, S, W and NS, EW in English.

Results, rows and stored data keep the codes (N/E/S/W, NS/EW) that the scoring, the exports and
the tests read; pages, the table pad and the PDFs show them through ``seat_word`` (the template
filter ``seat`` in ``tournaments/templatetags/bridge.py``), translated when they are shown, so a
cached row serves every language.
"""

from django.utils.translation import gettext_lazy as _

SEAT_WORDS = {"N": _("N"), "E": _("E"), "S": _("S"), "W": _("W"), "NS": _("NS"), "EW": _("EW")}


def seat_word(code) -> str:
    """A seat ("W"), a line ("EW") or seats followed by a result ("EW=", "N+1") in the active
    language; anything else unchanged."""
    if code is None:
        return ""
    text = str(code)
    if text in SEAT_WORDS:
        return str(SEAT_WORDS[text])
    head = len(text) - len(text.lstrip("NESW"))
    if head == 0:
        return text
    seats = text[:head]
    word = SEAT_WORDS.get(seats)
    shown = str(word) if word is not None else "".join(str(SEAT_WORDS[c]) for c in seats)
    return shown + text[head:]
