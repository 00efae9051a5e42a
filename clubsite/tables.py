"""Tables of the club app (django-tables2: sorting and pagination done in the database)."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .services import LicenceState


class MemberTable(tables.Table):
    select = tables.CheckBoxColumn(accessor="pk", attrs={"th__input": {"aria-label": _("All")}})
    last_name = tables.Column(verbose_name=_("Last name"), linkify=True)
    first_name = tables.Column(verbose_name=_("First name"))
    licence_number = tables.Column(verbose_name=_("Licence"))
    category = tables.Column(verbose_name=_("Category"), order_by=("category__name",))
    status = tables.Column(verbose_name=_("Membership"))
    licence_state = tables.Column(verbose_name=_("Licence this season"))

    class Meta:
        attrs = {"class": "data members"}
        order_by = ("last_name", "first_name")
        fields = ()
        sequence = ("select", "last_name", "first_name", "licence_number", "category", "status",
                    "licence_state")

    def render_licence_state(self, value):
        label = LicenceState.LABELS.get(value, value)
        return format_html('<span class="badge badge-{}">{}</span>', value, label)

    def render_status(self, record):
        return record.get_status_display()
