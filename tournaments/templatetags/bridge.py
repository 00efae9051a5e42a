"""Template filters for bridge notation in the reader's language."""

from django import template

from ..services.bridge_words import seat_word

register = template.Library()


@register.filter
def seat(value) -> str:
    """``{{ row.declarer|seat }}``: N/E/S/W and NS/EW as the active language writes them."""
    return seat_word(value)
