"""The season's licence requests and renewals as the CSV a federation's office loads.

One row per ``Licence`` of the season with status *requested*; "renewal" says whether the
member held a licence (granted: active or since expired) the season before. Cells go
through ``clubsite.members.exports.csv_text`` so a name like ``=HYPERLINK(…)`` cannot run as a
spreadsheet formula. Like the header, the yes/no cells are fixed English words, not the
interface's language: the federation reads the file, and an upload is sent once per
content hash, so the same batch must give the same bytes whoever builds it.
"""

import datetime

from clubsite.members.exports import csv_text
from clubsite.members.services import HELD
from clubsite.models import Club, Licence, LicenceStatus, Season
from clubsite.web.collation import collated

HEADER = (
    "federation",
    "club_id",
    "licence_number",
    "last_name",
    "first_name",
    "birth_date",
    "gender",
    "email",
    "category",
    "requested_on",
    "renewal",
    "fee",
    "paid",
)


def requested_licences(season: Season):
    return (
        Licence.objects.filter(season=season, status=LicenceStatus.REQUESTED)
        .select_related("member", "category", "member__category")
        .order_by(*collated("member__last_name", "member__first_name"), "pk")
    )


def licence_batch(season: Season) -> tuple[str, str]:
    """(file name, CSV text) of the season's requested licences."""
    club = Club.current()
    licences = list(requested_licences(season))
    previous = set(
        Licence.objects.filter(
            season__end=season.start - datetime.timedelta(days=1),
            status__in=HELD,
            member__in=[lic.member_id for lic in licences],
        ).values_list("member_id", flat=True)
    )
    rows = []
    for lic in licences:
        m = lic.member
        category = lic.category or m.category
        rows.append(
            (
                lic.federation,
                club.federation_club_id,
                lic.number or m.licence_number,
                m.last_name,
                m.first_name,
                m.birth_date.isoformat() if m.birth_date else "",
                m.gender,
                m.email,
                category.code if category else "",
                lic.requested_on.isoformat() if lic.requested_on else "",
                "yes" if m.pk in previous else "no",
                lic.fee,
                "yes" if lic.paid else "no",
            )
        )
    name = f"licences-{season.name.replace('/', '-')}.csv"
    return name, csv_text(HEADER, rows)
