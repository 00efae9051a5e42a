"""Sortable tables of the public results (django-tables2 over plain rows already read).

Rows are the dicts ``services.results`` builds from the
stored classification, so sorting happens in memory without another query. Every number
cell carries its raw value in ``data-value`` (tests and scripts read it; people read the
localised text).
"""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubsite.web.collation import collation_key


def _num_attrs(key: str, extra: str = "") -> dict:
    """A right-aligned number column named ``key`` (the class lets scripts find it)."""
    css = f"num {key} {extra}".strip()
    return {
        "td": {"class": css, "data-value": lambda record: record.get(key) or ""},
        "th": {"class": css},
    }


class RankingTable(tables.Table):
    """A matchpoint ranking: place (ties "3-4"), pair number, players, points, percentage.

    django-tables2 reads the sort parameter and orders the rows; the page writes the rows
    with its own template (``_ranking_table.html``), which is several times faster than
    rendering every cell through the table for a 60-table field.
    """

    place = tables.Column(
        verbose_name=_("Place"),
        accessor="place_label",
        order_by=("place", "number"),
        attrs={
            "td": {"class": "place", "data-value": lambda record: record["place"]},
            "th": {"class": "place"},
        },
    )
    number = tables.Column(verbose_name=_("Pair"), attrs=_num_attrs("number"))
    names = tables.Column(
        verbose_name=_("Players"),
        order_by=("names_key", "place"),
        attrs={"td": {"class": "names"}, "th": {"class": "names"}},
    )
    # on a phone the matchpoints give way: the percentage ranks the same (issue #35, 360px)
    points = tables.Column(verbose_name=_("Points"), attrs=_num_attrs("points", "hide-phone"))
    percentage = tables.Column(
        verbose_name=_("%"), attrs=_num_attrs("percentage"), order_by=("percentage", "place")
    )

    class Meta:
        attrs = {"class": "data ranking"}
        orderable = True
        order_by = ("place",)


class ImpRankingTable(RankingTable):
    """Cross-IMPs and Butler: the total is in IMPs and there is no percentage."""

    points = tables.Column(
        verbose_name=_("IMPs"), attrs=_num_attrs("points"), order_by=("points", "place")
    )

    class Meta(RankingTable.Meta):
        exclude = ("percentage",)


class IndividualRankingTable(RankingTable):
    """An individual: one player per line, numbered as in the movement."""

    number = tables.Column(verbose_name=_("Player"), attrs=_num_attrs("number"))

    class Meta(RankingTable.Meta):
        pass


class VpRankingTable(ImpRankingTable):
    """Butler or cross-IMP pairs converted match by match: the total is in VPs."""

    points = tables.Column(
        verbose_name=_("VPs"), attrs=_num_attrs("points"), order_by=("points", "place")
    )


class IndividualImpRankingTable(ImpRankingTable):
    """A Butler or cross-IMP individual: one player per line, the total in IMPs."""

    number = tables.Column(verbose_name=_("Player"), attrs=_num_attrs("number"))

    class Meta(ImpRankingTable.Meta):
        pass


class HandicapRankingTable(RankingTable):
    """A handicap event's matchpoint ranking: the scratch one, then each pair's handicap,
    its percentage with half the handicap and the place that gives. On a phone the pair's
    number, the points and the handicap itself give way, so both places and percentages fit."""

    number = tables.Column(verbose_name=_("Pair"), attrs=_num_attrs("number", "hide-phone"))
    points = tables.Column(verbose_name=_("Points"), attrs=_num_attrs("points", "hide-phone"))
    handicap = tables.Column(
        verbose_name=_("Handicap"),
        attrs=_num_attrs("handicap", "hide-phone"),
        order_by=("handicap", "place"),
    )
    handicap_percentage = tables.Column(
        verbose_name=_("% hcp"),
        attrs=_num_attrs("handicap_percentage"),
        order_by=("handicap_percentage", "place"),
    )
    handicap_place = tables.Column(
        verbose_name=_("Place hcp"),
        accessor="handicap_place_label",
        order_by=("handicap_place", "number"),
        attrs=_num_attrs("handicap_place"),
    )

    class Meta(RankingTable.Meta):
        pass


class IndividualHandicapRankingTable(HandicapRankingTable):
    """An individual ranked with handicaps: one player per line, each with their own."""

    number = tables.Column(verbose_name=_("Player"), attrs=_num_attrs("number", "hide-phone"))

    class Meta(HandicapRankingTable.Meta):
        pass


def with_sort_key(rows: list[dict], field: str) -> list[dict]:
    """The rows, each with ``<field>_key``: the names sorted as the reader's language does."""
    return [{**row, f"{field}_key": collation_key(row.get(field))} for row in rows]


def ranking_table(
    rows: list[dict],
    imps: bool,
    prefix: str = "",
    individual: bool = False,
    vps: bool = False,
    handicaps: bool = False,
) -> RankingTable:
    rows = with_sort_key(rows, "names")
    if handicaps and not imps:
        cls = IndividualHandicapRankingTable if individual else HandicapRankingTable
        return cls(rows, prefix=prefix)
    if vps:
        return VpRankingTable(rows, prefix=prefix)
    if individual:
        cls = IndividualImpRankingTable if imps else IndividualRankingTable
        return cls(rows, prefix=prefix)
    cls = ImpRankingTable if imps else RankingTable
    return cls(rows, prefix=prefix)
