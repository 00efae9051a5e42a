"""What every table page carries: its scripts, and in a signed-in device's bar the call for
the director."""

from django import template
from django.templatetags.static import static
from django.utils.html import format_html_join

from tournaments.services.table import director_calls

register = template.Library()

# The table device's scripts in the order its pages load them (each one job; table.js, last,
# starts them): the pages' script tags, and the files kept for offline use (views.table_app).
TABLE_SCRIPTS = tuple(
    f"tournaments/{name}.js"
    for name in (
        "offline_queue",
        "offline_send",
        "table_score",
        "table_round",
        "table_pad",
        "table_screen",
        "table_board",
        "table_lock",
        "table_send",
        "table_worker",
        "table",
    )
)


@register.inclusion_tag("tournaments/table/_call.html", takes_context=True)
def table_call(context, table_code):
    """The table's "Call the director" button, or the open call with its time."""
    return {
        "call": director_calls.open_call(table_code),
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def table_scripts():
    """The device's script tags, in the order they must run (``TABLE_SCRIPTS``)."""
    return format_html_join(
        "\n", '<script src="{}" defer></script>', ((static(path),) for path in TABLE_SCRIPTS)
    )
