"""What every director view shares: fetching objects with their parents, and law links."""

from django.shortcuts import get_object_or_404

from tournaments.models import Section, Session, Tournament

LAW_EDITION = "es-2017"


def get_tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def get_session(pk: int) -> Session:
    return get_object_or_404(Session.objects.select_related("tournament"), pk=pk)


def get_section(pk: int) -> Section:
    return get_object_or_404(Section.objects.select_related("session__tournament"), pk=pk)


def law_link(text: str):
    """The law reference's page for a citation such as "12C1c", or None (plain text then)."""
    if not (text or "").strip():
        return None
    try:
        from laws.citations import cite
    except ImportError:  # pragma: no cover - the laws app is optional
        return None
    return cite(LAW_EDITION, text)


SUIT_HTML = {
    "S": "♠",
    "H": '<span class="suit-h">♥</span>',
    "D": '<span class="suit-d">♦</span>',
    "C": "♣",
}


def contract_html(result) -> str:
    """ "4♠ N =" with red hearts and diamonds; adjusted scores as the traveller says them."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext

    from tournaments.services.boards.bridge_words import seat_word
    from tournaments.services.running.adjustments import describe

    if result.adjustment:
        return escape(describe(result.adjustment))
    contract = result.contract or ""
    if not contract or contract == "PASS":
        return escape(_pass_word()) if contract else ""
    level, rest = contract[0], contract[1:]
    strain = "NT" if rest.startswith("NT") else rest[:1]
    doubled = rest[len(strain) :]
    outcome = ""
    if result.tricks is not None and level.isdigit():
        diff = result.tricks - int(level) - 6
        outcome = "=" if diff == 0 else f"{diff:+d}".replace("-", "−")
    return mark_safe(  # noqa: S308 - every part is escaped or a fixed symbol
        f"{escape(level)}{SUIT_HTML.get(strain) or escape(gettext(strain))}{escape(doubled)} "
        f"{escape(seat_word(result.declarer))} {outcome}".strip()
    )


def _pass_word() -> str:
    from django.utils.translation import gettext

    return gettext("Passed out")
