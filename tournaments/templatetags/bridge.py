"""Template filters for bridge notation in the reader's language."""

from django import template

from ..pdf.fixed_width import printed_suit
from ..services.bridge_words import seat_word

register = template.Library()


@register.filter
def seat(value) -> str:
    """``{{ row.declarer|seat }}``: N/E/S/W and NS/EW as the active language writes them."""
    return seat_word(value)


@register.filter
def pdf_suit(symbol) -> str:
    """``{{ call.symbol|pdf_suit }}``: the suit as the PDF prints it (♡ ♢ for the red ones)."""
    return printed_suit(symbol or "")
