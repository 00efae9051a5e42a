"""Filters of the director's pages (django-filter): the audit trail by session, table,
person and kind. The page and its CSV export read the same filter, so the file holds what
the page shows."""

import django_filters
from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from tournaments.services.running import audit_log


class AuditFilter(django_filters.FilterSet):
    session = django_filters.ModelChoiceFilter(
        label=_("Session"), queryset=None, method="filter_session", empty_label=_("Every session")
    )
    table = django_filters.CharFilter(
        label=_("Table"),
        method="filter_table",
        max_length=8,
        validators=[
            RegexValidator(
                r"^\s*[A-Za-z]?\s*\d{1,3}\s*$",
                _("A table is its number, with the section letter if you like: 3 or A3."),
            )
        ],
        widget=forms.TextInput(attrs={"placeholder": "A3", "size": 4}),
    )
    person = django_filters.ModelChoiceFilter(
        label=_("Who"), queryset=None, field_name="user", empty_label=_("Everyone")
    )
    kind = django_filters.ChoiceFilter(
        label=_("What"), choices=audit_log.KINDS, field_name="action", empty_label=_("Every kind")
    )

    def __init__(self, data=None, *, tournament, **kwargs):
        super().__init__(data, queryset=audit_log.trail(tournament), **kwargs)
        self.filters["session"].queryset = tournament.sessions.order_by("number")
        self.filters["person"].queryset = audit_log.people(tournament)
        self.filters["person"].field.label_from_instance = lambda u: (
            u.get_full_name() or u.get_username()
        )
        self.filters["session"].field.label_from_instance = lambda s: (
            _("Session %(number)s") % {"number": s.number}
        )

    def filter_session(self, queryset, name, value):
        return audit_log.for_session(queryset, value)

    def filter_table(self, queryset, name, value):
        table = audit_log.parse_table(value)
        if table is None:
            return queryset.none()
        return audit_log.for_table(queryset, *table)
