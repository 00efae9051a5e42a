"""The chart geometry and figures without HTTP or a database: round scales, bars and lines
inside the picture, long names cut, empty data, and a pure geometry module."""

import ast
import datetime
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.utils import translation

from tournaments.charts import figures, svg


@pytest.mark.parametrize(
    "span, intervals, step",
    [
        (100, 4, 25),
        (10, 4, 2.5),
        (7, 4, 2),
        (0.3, 3, 0.1),
        (1234, 4, 500),
        (3, 4, 1),
    ],
)
def test_steps_are_round(span, intervals, step):
    assert svg.nice_step(span, intervals) == pytest.approx(step)


def test_ranges_hold_the_values_on_whole_steps():
    low, high, step = svg.nice_range(-17, 43)
    assert (low, high, step) == (-20, 60, 20)
    assert svg.ticks(low, high, step) == [-20, 0, 20, 40, 60]
    # one value, or none, still makes a range around it
    assert svg.nice_range(5, 5)[:2] == (4.5, 5.5)
    assert svg.nice_range(0, 0)[:2] == (-1, 1)
    assert svg.nice_step(0) == 1.0 and svg.nice_step(float("nan")) == 1.0


def test_a_scale_maps_its_ends_and_a_flat_domain_to_the_middle():
    scale = svg.Linear(0, 100, 50, 350)
    assert (scale(0), scale(50), scale(100)) == (50, 200, 350)
    assert svg.Linear(3, 3, 0, 10)(3) == 5


def test_long_names_are_cut_with_an_ellipsis():
    assert svg.fit("García", 100) == "García"
    cut = svg.fit("Fernández de la Peña – Rodríguez Iglesias", 66)
    assert cut.endswith("…") and len(cut) <= 10


def _bars(values, **kw):
    items = [(f"Pareja {i}", v, str(v)) for i, v in enumerate(values)]
    return svg.bar_chart("k", "t", "d", items, value_text=str, headers=("a",), **kw)


def test_bars_grow_from_zero_inside_the_picture_in_the_given_order():
    chart = _bars([62.5, 48.0, 55.25], domain=(0.0, 100.0), reference=50.0)
    assert [b.full_label for b in chart.bars] == ["Pareja 0", "Pareja 1", "Pareja 2"]
    ys = [b.y for b in chart.bars]
    assert ys == sorted(ys) and ys[1] - ys[0] == svg.ROW
    for bar in chart.bars:
        assert bar.x == chart.zero_x and chart.zero_x >= chart.label_x
        assert bar.x + bar.width <= chart.width and bar.value_x < chart.width
    widths = [b.width for b in chart.bars]
    assert widths[0] > widths[2] > widths[1]
    # 62.5 % of the bar area
    area = chart.ticks[-1].position - chart.ticks[0].position
    assert widths[0] == pytest.approx(area * 0.625, abs=0.05)
    assert [t.label for t in chart.ticks] == ["0.0", "25.0", "50.0", "75.0", "100.0"]
    assert chart.reference.position == chart.ticks[2].position
    assert chart.height == svg.AXIS + 3 * svg.ROW + 6


def test_negative_bars_grow_left_of_zero():
    chart = _bars([12, -7])
    plus, minus = chart.bars
    assert plus.x == chart.zero_x and not plus.negative
    assert minus.negative and minus.x + minus.width == pytest.approx(chart.zero_x)
    assert chart.ticks[0].position < chart.zero_x < chart.ticks[-1].position


def test_a_value_outside_a_fixed_domain_stays_inside_the_picture():
    chart = _bars([130.0], domain=(0.0, 100.0))
    assert chart.bars[0].x + chart.bars[0].width == chart.ticks[-1].position


def test_lines_stay_in_the_plot_skip_missing_values_and_thin_their_labels():
    labels = [str(i) for i in range(1, 21)]
    values = [40 + i for i in range(20)]
    club = [None if i % 5 == 0 else 50.0 for i in range(20)]
    chart = svg.line_chart(
        "k",
        "t",
        "d",
        labels,
        [("Yo", "main", values), ("Club", "reference", club)],
        value_text=str,
        headers=("a",),
    )
    mine, average = chart.series
    assert len(mine.points) == 20 and len(average.points) == 16
    for p in mine.points + average.points:
        assert chart.left <= p.x <= chart.right and chart.top <= p.y <= chart.bottom
    assert mine.points[0].y > mine.points[-1].y  # higher values are drawn higher up
    assert len(chart.x_ticks) <= svg.MOST_X_LABELS + 1 and chart.x_ticks[-1].label == "20"
    assert mine.path.count(",") == 20
    assert average.legend_x > mine.legend_x


def test_one_point_sits_in_the_middle():
    chart = svg.line_chart(
        "k", "t", "d", ["1"], [("Yo", "main", [55.0])], value_text=str, headers=("a",)
    )
    (point,) = chart.series[0].points
    assert point.x == pytest.approx((chart.left + chart.right) / 2)


def test_figures_are_none_without_data_and_speak_the_language():
    assert figures.ranking("r", "A", [], imps=False) is None
    assert (
        figures.ranking("r", "A", [figures.RankingLine("1", "X", None, None)], imps=False) is None
    )
    assert figures.frequencies("b", 1, [figures.Frequency(420, 2, None)], imps=False) is None
    assert figures.history("h", []) is None
    assert figures.team_progress("t", "Equipo", "VPs", [], []) is None
    line = figures.RankingLine("3", "Ana – Luis", Decimal("57.14"), Decimal("40"))
    titles = {}
    for language in ("es", "pt", "en"):
        with translation.override(language):
            chart = figures.ranking("r", "A", [line], imps=False)
            titles[language] = chart.title
            assert chart.bars[0].value_label == ("57.14 %" if language == "en" else "57,14 %")
    assert len(set(titles.values())) == 3


def test_frequency_bars_name_the_score_and_count_the_tables():
    with translation.override("en"):
        chart = figures.frequencies(
            "b",
            7,
            [figures.Frequency(420, 3, Decimal("10")), figures.Frequency(-100, 1, Decimal("0"))],
            imps=False,
        )
    assert [b.label for b in chart.bars] == ["+420", "−100"]
    assert chart.bars[0].value_label == "10.00 (×3)"
    assert chart.rows[1] == ("−100", "1", "0.00")


def test_history_is_oldest_first_and_team_progress_averages():
    with translation.override("es"):
        chart = figures.history(
            "h",
            [
                figures.SessionPoint(datetime.date(2025, 3, 11), "Martes", Decimal("61"), None),
                figures.SessionPoint(
                    datetime.date(2025, 3, 4), "Martes", Decimal("45"), Decimal("50")
                ),
            ],
        )
    assert [t.label for t in chart.x_ticks] == ["04/03", "11/03"]
    assert [p.label for p in chart.series[0].points] == ["45,00", "61,00"]
    assert len(chart.series[1].points) == 1
    with translation.override("en"):
        team = figures.team_progress(
            "t", "1 Ases", "PV", [Fraction(31, 2), Fraction(27)], [Fraction(10), Fraction(61, 3)]
        )
    assert team.rows == (("1", "15.50", "10.00"), ("2", "27.00", "20.33"))
    assert len(team.series[0].points) == 2


def test_the_geometry_imports_nothing_of_django_or_the_project():
    tree = ast.parse(Path(svg.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    names += [
        n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level
    ]
    assert not [n for n in names if n.split(".")[0] in {"django", "tournaments", "clubsite"}]
