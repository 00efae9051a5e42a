"""Filters of the secretary's member list."""

import django_filters
from django.utils.translation import gettext_lazy as _

from clubsite.members.services import LicenceState, search_members
from clubsite.models import Category, MemberStatus


class MemberFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(label=_("Search"), method="filter_text")
    status = django_filters.ChoiceFilter(label=_("Membership"), choices=MemberStatus.choices)
    licence_state = django_filters.ChoiceFilter(
        label=_("Licence this season"), choices=LicenceState.CHOICES
    )
    category = django_filters.ModelChoiceFilter(
        label=_("Category"), queryset=lambda request: Category.objects.all()
    )
    is_guest = django_filters.BooleanFilter(label=_("Guest"))

    def filter_text(self, queryset, name, value):
        return search_members(queryset, value)
