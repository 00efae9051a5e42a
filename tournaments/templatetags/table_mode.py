"""What every page of a signed-in table device shows in its bar: the call for the director."""

from django import template

from ..services import director_calls

register = template.Library()


@register.inclusion_tag("tournaments/table/_call.html", takes_context=True)
def table_call(context, table_code):
    """The table's "Call the director" button, or the open call with its time."""
    return {"call": director_calls.open_call(table_code), "request": context.get("request"),
            "csrf_token": context.get("csrf_token")}
