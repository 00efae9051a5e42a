"""Template filters for bridge notation in the reader's language."""

from django import template

from tournaments.services.boards.bridge_words import seat_word

from ..pdf.fixed_width import printed_suit

register = template.Library()


@register.filter
def seat(value) -> str:
    """``{{ row.declarer|seat }}``: N/E/S/W and NS/EW as the active language writes them."""
    return seat_word(value)


@register.filter
def pdf_suit(symbol) -> str:
    """``{{ call.symbol|pdf_suit }}``: the suit as the PDF prints it (♡ ♢ for the red ones)."""
    return printed_suit(symbol or "")


@register.filter
def signed(value) -> str:
    """``{{ difference|signed }}``: a whole number with its sign, "+420", "−520" (a true minus
    sign, as results are printed), "0"; empty for anything that is not a number."""
    if isinstance(value, bool) or not isinstance(value, int):
        return ""
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "0"
