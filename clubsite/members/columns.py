"""The columns of the secretary's member list, declared once.

``MemberTable`` (the page) and ``member_export`` (its CSV) both read ``MEMBER_COLUMNS``:
the name, the heading and how a member's value is read as text. Adding a member field to
the roster and its CSV is one line here (plus the model and the form). A column with
``in_table=False`` is only in the CSV (the page would be too wide); the table may still
dress a value up (the licence state as a badge) but reads the same column.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import attrgetter

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clubsite.members.services import LicenceState


@dataclass(frozen=True)
class MemberColumn:
    name: str  # the member's attribute (or annotation): the table sorts on it
    header: Promise  # lazy: read in the language of the request
    value: Callable[[object], object]  # the member's cell as text (the CSV's cell)
    in_table: bool = True
    linkify: bool = False  # the table links the cell to the member's page
    order_by: Sequence[str] | None = None  # the table sorts on these instead of ``name``


def _yes_no(flag: bool) -> str:
    return gettext("yes") if flag else gettext("no")


MEMBER_COLUMNS: tuple[MemberColumn, ...] = (
    # the view annotates ``*_sort`` (clubsite.web.collation): "Ángel" before "José"
    MemberColumn(
        "last_name",
        _("Last name"),
        attrgetter("last_name"),
        linkify=True,
        order_by=("last_name_sort", "first_name_sort"),
    ),
    MemberColumn(
        "first_name",
        _("First name"),
        attrgetter("first_name"),
        order_by=("first_name_sort", "last_name_sort"),
    ),
    MemberColumn("licence_number", _("Licence"), attrgetter("licence_number")),
    MemberColumn(
        "category", _("Category"), lambda m: m.category or "", order_by=("category__name",)
    ),
    MemberColumn("status", _("Membership"), lambda m: m.get_status_display()),
    MemberColumn(
        "licence_state",
        _("Licence this season"),
        lambda m: LicenceState.LABELS.get(m.licence_state, ""),
    ),
    MemberColumn("email", _("Email"), attrgetter("email"), in_table=False),
    MemberColumn("phone", _("Phone"), attrgetter("phone"), in_table=False),
    MemberColumn("is_guest", _("Guest"), lambda m: _yes_no(m.is_guest), in_table=False),
)

TABLE_COLUMNS = tuple(c for c in MEMBER_COLUMNS if c.in_table)


def csv_header() -> list[str]:
    return [str(c.header) for c in MEMBER_COLUMNS]


def csv_row(member) -> list:
    return [c.value(member) for c in MEMBER_COLUMNS]
