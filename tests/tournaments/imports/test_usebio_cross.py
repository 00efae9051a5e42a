"""Cross-IMP and Butler files other scorers write reproduce with 0 differences under --strict.

``usebio_writer`` (our own small scorer) writes each cross-IMP style: the mark as the average
of the IMPs against every other result, their sum, or the sum factored up to the board played
most often; rounded to 0.01, 0.1 or whole IMPs before totalling, or totalled exact. The fields
have a board played fewer times (5 of 6), a Mitchell pair that sits out and a Howell where a
pair sits out each round; artificial scores
carry the IMPs the director awarded (A6040 as +3 / −3), in cross-IMPs and in Butler.
"""

import io
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.imports.test_usebio_conventions import (
    howell_sitout,
    mitchell_lines,
    mitchell_sitout,
    two_sections_board_short,
)
from tests.tournaments.imports.usebio_writer import Event, Section, Style, write
from tournaments.imports import usebio
from tournaments.imports.usebio_conventions import describe
from tournaments.imports.usebio_verify import tried_words
from tournaments.models import RankingScope, Result, StoredRanking
from tournaments.models.uploads import ImportState

pytestmark = pytest.mark.django_db

CROSS_STYLES = {
    f"{form}_{places}": Style(cross=form, cross_places=places)
    for form in ("average", "sum", "factored")
    for places in (None, 2, 1, 0)
}
# a half (0.25 to one decimal, 0.5 to whole IMPs) rounded to the even figure; a sum is whole
CROSS_STYLES |= {
    f"{form}_{places}_even": Style(cross=form, cross_places=places, cross_half="even")
    for form in ("average", "factored")
    for places in (1, 0)
}


def cross(event: Event) -> Event:
    event.kind = "CROSS_IMPS"
    return event


def with_imp_awards(event: Event) -> Event:
    """A6040 where the director gave +3 / −3, a plain A5050 and A4060 (0 / 0, −2 / +2)."""
    lines = event.sections[0].lines
    for ln, code, award in zip(
        lines[::9], ("A6040", "A5050", "A4060"), ((3, -3), None, None), strict=False
    ):
        ln.score, ln.awarded_imps = code, award
    return event


def wide_field_board_short(rng) -> Event:
    """Two sections of 5 tables share 5 boards (10 results, 9 comparisons); board 3 was not
    played at one table of B (8 comparisons): averages in ninths and eighths, so every
    rounding and every form writes other figures."""
    a = mitchell_lines(5, 5, 1, rng)
    b = [ln for ln in mitchell_lines(5, 5, 1, rng) if not (ln.board == 3 and ln.table == 2)]
    return Event(
        "CROSS_IMPS",
        [
            Section("A", True, [1, 2, 3, 4, 5], a, full_set=5),
            Section("B", True, [1, 2, 3, 4, 5], b, full_set=5),
        ],
        expected=10,
    )


SCENARIOS = {
    "wide_field": wide_field_board_short,
    "board_short": lambda rng: cross(two_sections_board_short(rng)),
    "mitchell_sitout": lambda rng: cross(mitchell_sitout(rng)),
    "howell_sitout": lambda rng: cross(howell_sitout(rng)),
    "awards": lambda rng: with_imp_awards(cross(two_sections_board_short(rng))),
}


def _import(text: str, name: str = "cruzado.xml"):
    record = usebio.import_file(text, file_name=name)
    assert record.state == ImportState.DONE
    return record


def _style_of(conventions: dict) -> Style:
    return Style(
        cross=conventions["cross_imps"],
        cross_places=conventions["cross_round"],
        cross_half=conventions.get("cross_half", "away"),
    )


@pytest.mark.parametrize("style", CROSS_STYLES)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_cross_imp_files_in_every_style_reproduce_exactly(scenario, style):
    event = SCENARIOS[scenario](random.Random(11))
    text = write(event, CROSS_STYLES[style])
    record = _import(text)
    assert record.differences == [], record.differences[:5]
    # the convention recognised writes this very file (two styles that write the same
    # figures for this field cannot be told apart, and need not be)
    assert write(event, _style_of(record.tournament.conventions)) == text


# A sum is whole IMPs: totalled exact or rounded to 0.01, it writes the same file (the import
# then reads it as exact), so only one of the two can be told apart.
DISTINCT = {k: v for k, v in CROSS_STYLES.items() if k != "sum_2"}


@pytest.mark.parametrize("style", DISTINCT)
def test_each_cross_imp_style_is_told_apart_where_the_figures_differ(style):
    """A field with a board played fewer times: a seed where this style's file differs
    from every other style's is recognised as exactly this style."""
    chosen = CROSS_STYLES[style]
    for seed in range(60):
        text = write(wide_field_board_short(random.Random(seed)), chosen)
        if all(
            write(wide_field_board_short(random.Random(seed)), other) != text
            for key, other in DISTINCT.items()
            if key != style
        ):
            break
    else:
        raise AssertionError("no seed separates this style from every other")
    record = _import(text)
    assert record.differences == []
    c = record.tournament.conventions
    assert (c["cross_imps"], c["cross_round"]) == (chosen.cross, chosen.cross_places)
    assert c.get("cross_half", "away") == chosen.cross_half


def test_a_pair_that_sat_out_is_ranked_on_its_imps_as_the_file_totals_them():
    text = write(cross(mitchell_sitout(random.Random(5))), Style(cross="sum", cross_places=1))
    record = _import(text)
    assert record.differences == []
    rows = StoredRanking.objects.filter(tournament=record.tournament, scope=RankingScope.SECTION)
    assert {r.boards for r in rows if r.direction == "NS" and r.number == 5} == {8}


@pytest.mark.parametrize("kind", ["CROSS_IMPS", "BUTLER_PAIRS"])
def test_artificial_scores_keep_the_imps_the_director_awarded(kind):
    event = with_imp_awards(two_sections_board_short(random.Random(2)))
    event.kind = kind
    record = _import(write(event, Style(cross="sum")))
    assert record.differences == [], record.differences[:5]
    assert record.tournament.conventions["artificial"] == "awarded"
    awarded = Result.objects.get(
        section__session__tournament=record.tournament, adjustment__ns=60, adjustment__ns_imps="3"
    )
    assert awarded.adjustment["ew_imps"] == "-3"
    from tournaments.models import StoredMark

    marks = {m.direction: m.mark for m in StoredMark.objects.filter(result=awarded)}
    assert marks == {"NS": 3, "EW": -3}


def test_a_cross_imp_line_no_convention_reproduces_is_reported_with_the_rules_tried(tmp_path):
    text = write(wide_field_board_short(random.Random(7)), Style(cross_places=1))
    marker = "<NS_CROSS_IMP_POINTS>"
    head, tail = text.split(marker, 1)
    value, rest = tail.split("<", 1)
    wrong = str(Decimal(value.replace("-", "")) + 7)
    path = tmp_path / "mal.xml"
    path.write_text(head + marker + wrong + "<" + rest)
    out = io.StringIO()
    with pytest.raises(CommandError, match="differences"):
        call_command("import_usebio", str(path), "--strict", stdout=out)
    from tournaments.models.uploads import ResultImport

    record = ResultImport.objects.get(file_name="mal.xml")
    [diff] = [d for d in record.differences if d["what"] == "mark NS"]
    assert diff["file"] == wrong and Fraction(diff["ours"]) == Fraction(value)
    used = describe(record.tournament.conventions)
    tried = tried_words(diff["tried"])
    assert all(w in tried for w in used)
    for other in ("sum", "factored"):  # the other forms, named as tried
        assert describe({"cross_imps": other})[0] in tried
    report = out.getvalue()
    assert wrong in report and value in report and describe({"cross_imps": "sum"})[0] in report


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10_000),
    style=st.sampled_from(sorted(CROSS_STYLES)),
    scenario=st.sampled_from(sorted(SCENARIOS)),
)
def test_property_any_cross_imp_file_our_writer_writes_imports_with_no_difference(
    seed, style, scenario
):
    """Whatever the scores, the style and the field: written by the other scorer, imported,
    every figure of the file is reproduced."""
    event = SCENARIOS[scenario](random.Random(seed))
    text = write(event, CROSS_STYLES[style])
    record = usebio.import_file(text, file_name="propiedad.xml", replace=True)
    assert record.state == ImportState.DONE
    assert record.differences == [], record.differences[:5]


@pytest.mark.parametrize("compared", ["section", "field"])
@pytest.mark.parametrize("form", ["average", "sum"])
def test_sections_sharing_boards_compared_per_section_or_over_the_field(compared, form):
    """Two sections playing the same boards: each result compared within its own section,
    or with both sections' results; recognised, recorded, and scored in pools that follow."""
    style = Style(cross=form, cross_places=1, datum_field=compared)
    event = wide_field_board_short(random.Random(3))
    text = write(event, style)
    other = write(
        wide_field_board_short(random.Random(3)),
        Style(
            cross=form, cross_places=1, datum_field="field" if compared == "section" else "section"
        ),
    )
    assert other != text  # the two ways write other marks for this field
    record = _import(text)
    assert record.differences == []
    conventions = record.tournament.conventions
    assert conventions["cross_field"] == compared and conventions["cross_imps"] == form
    pools = set(record.tournament.sessions.get().sections.values_list("pool", flat=True))
    assert len(pools) == (2 if compared == "section" else 1)
