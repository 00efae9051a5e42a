"""Tables of the club app (django-tables2: sorting and pagination done in the database)."""

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from clubsite.members.columns import TABLE_COLUMNS, MemberColumn
from clubsite.members.services import LicenceState


class _ListedColumn(tables.Column):
    """A column of ``MEMBER_COLUMNS``: its heading, link and sort, and its cell read as the
    CSV reads it (an empty value still shows the table's "—")."""

    def __init__(self, column: MemberColumn):
        self.member_column = column
        super().__init__(
            verbose_name=column.header, linkify=column.linkify, order_by=column.order_by
        )

    def render(self, record):
        return self.member_column.value(record)


# The metaclass collects the columns, in the order of MEMBER_COLUMNS.
_MemberColumns = type(tables.Table)(
    "_MemberColumns",
    (tables.Table,),
    {"__module__": __name__, **{c.name: _ListedColumn(c) for c in TABLE_COLUMNS}},
)


class MemberTable(_MemberColumns):
    select = tables.CheckBoxColumn(accessor="pk", attrs={"th__input": {"aria-label": _("All")}})

    class Meta:
        attrs = {"class": "data members"}
        order_by = ("last_name", "first_name")
        fields = ()
        sequence = ("select", *(c.name for c in TABLE_COLUMNS))

    def render_licence_state(self, value):
        label = LicenceState.LABELS.get(value, value)
        return format_html('<span class="badge badge-{}">{}</span>', value, label)
