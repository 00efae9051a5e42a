"""The public results pages: who sees what, rankings equal to the stored classification and
the scoring core, scorecards adding up, travellers with adjusted scores and law links,
hand records, player pages, and a constant number of queries on the ranking page."""

import datetime
import random
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from clubsite.accounts.permissions import Role
from clubsite.models import Member
from tests.conftest import make_user
from tests.module_rows import module_rows
from tests.tournaments.conftest import build_howell_session, build_mitchell_session, make_members
from tests.tournaments.results.public_pages import finished, ranking_rows, section_url
from tournaments.demo import play_rounds
from tournaments.models import (
    Board,
    RankingScope,
    Result,
    ResultStatus,
    Seating,
    Section,
    Session,
    StoredMark,
    StoredRanking,
)
from tournaments.scoring import BoardResult, TravellerLine, display_round, score_session
from tournaments.services.boards import board_words
from tournaments.services.results import pages as results
from tournaments.services.results import publish, scorecards
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def _mitchell_rows(django_db_setup, django_db_blocker):
    """The finished, published Mitchell most of these tests read (``mitchell_session``
    played, adjusted and published by its director), built once for the module."""
    with module_rows(django_db_blocker):
        director = make_user("dir", Role.DIRECTOR)
        section = build_mitchell_session(make_members())
        _tournament, adjusted = finished(section, director)
        yield {"section": section.pk, "adjusted": adjusted.pk}


@pytest.fixture
def mitchell(_mitchell_rows, db):
    section = Section.objects.get(pk=_mitchell_rows["section"])
    return section, section.session.tournament, Result.objects.get(pk=_mitchell_rows["adjusted"])


@pytest.fixture
def mitchell_members(_mitchell_rows, db):
    """The module's sixty members (``members``), in order."""
    return list(Member.objects.filter(licence_number__startswith="T-").order_by("licence_number"))


@pytest.fixture
def mitchell_director(_mitchell_rows, db):
    """The director who published the module's Mitchell (``director``)."""
    return User.objects.get(username="dir")


# --- who sees what --------------------------------------------------------------------------


def test_index_lists_published_tournaments_and_flags_the_running_one(
    client, mitchell, mitchell_members, movements, pairs, mitchell_director
):
    _section, tournament, _adj = mitchell
    members, director = mitchell_members, mitchell_director
    running = setup.create_tournament(name="Tarde", date=datetime.date(2025, 3, 9))
    session = running.sessions.get()
    section = setup.add_section(session)
    setup.seat_section(section, movements.mitchell(5, 5, 2), pairs(running, members[30:], 10))
    setup.start_session(session)
    play_rounds(section, random.Random(5), rounds=2)
    publish.publish_provisional(running, user=director)
    draft = setup.create_tournament(name="Borrador", date=datetime.date(2025, 3, 10))

    html = client.get(reverse("results:index")).content.decode()
    assert f'data-slug="{tournament.slug}"' in html
    assert f'data-slug="{running.slug}"' in html
    assert f'data-slug="{draft.slug}"' not in html
    item = html[html.index(f'data-slug="{running.slug}"') :]
    item = item[: item.index("</li>")]
    assert 'data-flag="in-progress"' in item
    final_item = html[html.index(f'data-slug="{tournament.slug}"') :]
    assert 'data-flag="in-progress"' not in final_item[: final_item.index("</li>")]
    # newest first
    assert html.index(running.slug) < html.index(tournament.slug)


def test_hidden_tournament_is_404_for_anonymous_and_visible_to_club_users(client, mitchell, player):
    section, tournament, adjusted = mitchell
    tournament.public_results = False
    tournament.save(update_fields=["public_results"])
    entry_id = Seating.objects.filter(section=section).first().entry_id
    urls = [
        reverse("results:tournament", args=[tournament.slug]),
        section_url(tournament),
        reverse("results:scorecard", args=[tournament.slug, 1, entry_id]),
        reverse("results:board", args=[tournament.slug, 1, section.pool, 1]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url
    assert tournament.slug not in client.get(reverse("results:index")).content.decode()
    client.force_login(player)
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert tournament.slug in client.get(reverse("results:index")).content.decode()


def test_unknown_tournament_session_section_and_pair_are_404(client, mitchell):
    _section, tournament, _adj = mitchell
    assert client.get(reverse("results:tournament", args=["nope"])).status_code == 404
    assert client.get(section_url(tournament, session=2)).status_code == 404
    assert client.get(section_url(tournament, letter="Z")).status_code == 404
    assert (
        client.get(reverse("results:scorecard", args=[tournament.slug, 1, 999999])).status_code
        == 404
    )
    assert (
        client.get(reverse("results:board", args=[tournament.slug, 1, "A", 99])).status_code == 404
    )


# --- the tournament page --------------------------------------------------------------------


def test_tournament_page_links_and_correction_period(client, mitchell):
    section, tournament, _adj = mitchell
    html = client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    assert section_url(tournament) in html
    assert 'data-status="final"' in html
    assert 'id="correction-period"' in html
    ends = timezone.localtime(tournament.correction_period_ends).strftime("%H:%M")
    assert ends in html
    boards = Board.objects.filter(session=section.session).count()
    assert html.count("data-board=") == boards == 14
    # after the Law 79C period the end time is no longer shown
    tournament.published_at = timezone.now() - datetime.timedelta(hours=2)
    tournament.save(update_fields=["published_at"])
    html = client.get(reverse("results:tournament", args=[tournament.slug])).content.decode()
    assert 'id="correction-period"' not in html
    assert 'data-status="final"' in html


# --- rankings -------------------------------------------------------------------------------


def core_scores(section):
    """The scoring core run directly on the section's stored results."""
    lines = {}
    for r in Result.objects.filter(section=section, status=ResultStatus.OK).select_related("board"):
        value = r.ns_score if not r.adjustment else ("%", r.adjustment["ns"], r.adjustment["ew"])
        lines.setdefault(r.board.number, []).append(TravellerLine(r.ns_id, r.ew_id, value))
    boards = [BoardResult(b, tuple(ls)) for b, ls in sorted(lines.items())]
    return score_session(boards, expected=7, boards_per_pair=14)


def test_mitchell_ranking_page_equals_stored_classification_and_core(client, mitchell):
    section, tournament, _adj = mitchell
    response = client.get(section_url(tournament))
    assert response.status_code == 200
    tables = ranking_rows(response)
    assert [d for d, _rows in tables] == ["NS", "EW"]
    scored = core_scores(section)
    for direction, rows in tables:
        stored = list(
            StoredRanking.objects.filter(
                section=section, scope=RankingScope.SECTION, direction=direction
            ).order_by("place", "number")
        )
        assert [r["entry_id"] for r in rows] == [s.entry_id for s in stored]
        assert len(rows) == 7
        for row, s in zip(rows, stored, strict=True):
            assert (row["place"], row["points"], row["percentage"]) == (
                s.place,
                s.points,
                s.percentage,
            )
            total = scored.totals[row["entry_id"]]
            assert row["percentage"] == display_round(total.percentage)
            assert row["points"] == display_round(total.points)
        percentages = [r["percentage"] for r in rows]
        assert percentages == sorted(percentages, reverse=True)
    html = response.content.decode()
    first = tables[0][1][0]
    assert f'data-entry="{first["entry_id"]}"' in html
    assert reverse("results:scorecard", args=[tournament.slug, 1, first["entry_id"]]) in html


def test_ranking_sorts_by_percentage_and_pair_number(client, mitchell):
    _section, tournament, _adj = mitchell
    ascending = ranking_rows(client.get(section_url(tournament) + "?ns-sort=percentage"))
    ns = dict(ascending)["NS"]
    assert [r["percentage"] for r in ns] == sorted(r["percentage"] for r in ns)
    ew_untouched = dict(ascending)["EW"]
    assert [r["place"] for r in ew_untouched] == sorted(r["place"] for r in ew_untouched)
    by_number = dict(ranking_rows(client.get(section_url(tournament) + "?ew-sort=-number")))
    assert [r["number"] for r in by_number["EW"]] == [7, 6, 5, 4, 3, 2, 1]


def test_ties_are_shown_as_a_range():
    rows = [
        {"place": 1, "tied": False},
        {"place": 2, "tied": True},
        {"place": 2, "tied": True},
        {"place": 4, "tied": False},
        {"place": 5, "tied": True},
        {"place": 5, "tied": True},
        {"place": 5, "tied": True},
    ]
    results.place_labels(rows)
    assert [r["place_label"] for r in rows] == ["1", "2-3", "2-3", "4", "5-7", "5-7", "5-7"]


def test_tied_places_render_as_a_range(client, mitchell):
    section, tournament, _adj = mitchell
    ns = list(
        StoredRanking.objects.filter(
            section=section, scope=RankingScope.SECTION, direction="NS"
        ).order_by("place")
    )
    for row in ns[1:3]:
        row.place, row.tied, row.points, row.percentage = 2, True, ns[1].points, ns[1].percentage
        row.save()
    html = client.get(section_url(tournament)).content.decode()
    assert len(re.findall(r'class="place"[^>]*>2-3<', html)) == 2


def test_stale_rankings_are_reclassified_before_reading(client, mitchell, mitchell_director):
    section, tournament, _adj = mitchell
    director = mitchell_director
    session = section.session
    version = Session.objects.get(pk=session.pk).ranking_version
    row = Result.objects.filter(
        section=section, status=ResultStatus.OK, adjustment__isnull=True
    ).first()
    corrections.correct_result(
        row, user=director, contract="7NT", declarer="N", tricks=13, reason="Tecleado mal"
    )
    response = client.get(section_url(tournament))
    assert Session.objects.get(pk=session.pk).ranking_version == version + 1
    scored = core_scores(section)
    for _direction, rows in ranking_rows(response):
        for r in rows:
            assert r["percentage"] == display_round(scored.totals[r["entry_id"]].percentage)


def _ranking_keys() -> list[str]:
    return [key for key in cache._cache if "ranking-html" in key]


@pytest.mark.engine_neutral  # the cache's keys, whatever stores the rankings
def test_invented_sorts_and_parameters_do_not_grow_the_cache(client, mitchell):
    """Anyone may invent query strings; only the table's own sorts make cache entries."""
    _section, tournament, _adj = mitchell
    url = section_url(tournament)
    client.get(url)
    cache.clear()
    rng = random.Random(4)
    columns = [
        "place",
        "-place",
        "number",
        "-number",
        "names",
        "-names",
        "points",
        "-points",
        "percentage",
        "-percentage",
    ]
    for i in range(300):
        noise = f"{rng.getrandbits(40):x}"
        query = rng.choice(
            [
                {"sort": noise},
                {"ns-sort": noise},
                {"ew-sort": noise},
                {"x": noise},
                {"ns-sort": rng.choice(columns), "x": noise},
                {"ns-sort": rng.choice(columns)},
                {"ew-sort": rng.choice(columns)},
                {"ns-sort": rng.choice(columns), "ew-sort": rng.choice(columns)},
            ]
        )
        response = client.get(url, query)
        assert response.status_code == 200, (i, query)
    # At most one entry per real combination of the two lines' sorts (and the plain page).
    assert len(_ranking_keys()) <= (len(columns) + 1) ** 2


def test_a_real_sort_is_still_served_from_the_cache(client, mitchell):
    _section, tournament, _adj = mitchell
    url = section_url(tournament)
    first = client.get(url, {"ns-sort": "-percentage"})
    assert "tables" in first.context
    again = client.get(url, {"ns-sort": "-percentage"})
    assert "tables" not in again.context
    assert len(_ranking_keys()) == 1
    client.get(url, {"ns-sort": "-percentage", "utm": "x"})  # rendered, not cached
    client.get(url, {"ns-sort": "bogus"})
    assert len(_ranking_keys()) == 1


# --- scorecards -----------------------------------------------------------------------------


def test_scorecard_totals_equal_the_ranking_totals(client, mitchell):
    section, tournament, adjusted = mitchell
    for ranking in StoredRanking.objects.filter(section=section, scope=RankingScope.SECTION):
        response = client.get(
            reverse("results:scorecard", args=[tournament.slug, 1, ranking.entry_id])
        )
        card = response.context["card"]
        assert len(card.rows) == 14
        exact = sum(
            Fraction(str(m.mark))
            for m in StoredMark.objects.filter(session=section.session, entry=ranking.entry_id)
        )
        assert abs(exact - Fraction(str(ranking.points))) <= Fraction(1, 100) * 14
        assert card.marks_total == sum(r["mark"] for r in card.rows)
        html = response.content.decode()
        total = re.search(r'id="scorecard-total" data-value="([^"]+)"', html).group(1)
        assert Decimal(total) == ranking.points
        assert f'data-value="{ranking.percentage}"' in html
    pair = adjusted.ns_id
    card = client.get(reverse("results:scorecard", args=[tournament.slug, 1, pair])).context["card"]
    row = next(r for r in card.rows if r["board"] == adjusted.board.number)
    assert row["adjusted"] == "60/40"
    assert row["percentage"] == Decimal("60.00")


def test_scorecard_shows_contracts_with_suit_symbols(client, mitchell):
    section, tournament, _adj = mitchell
    result = Result.objects.filter(
        section=section, status=ResultStatus.OK, contract__regex=r"^[1-7][HD]"
    ).first()
    html = client.get(
        reverse("results:scorecard", args=[tournament.slug, 1, result.ns_id])
    ).content.decode()
    symbol = {"H": "♥", "D": "♦"}[result.contract[1]]
    css = {"H": "suit-h", "D": "suit-d"}[result.contract[1]]
    assert f'{result.contract[0]}<span class="{css}">{symbol}</span>' in html


def test_contract_lead_and_result_formatting():
    from django.utils import translation

    call = board_words.contract_call("3NTX")
    for language, no_trumps in (("en", "NT"), ("es", "SA"), ("pt", "ST")):
        with translation.override(language):  # the word follows the reader's language
            assert (call.text, str(call.symbol), call.suffix) == ("3", no_trumps, "X")
    assert board_words.contract_call("4S").symbol == "♠"
    assert board_words.contract_call("PASS").suffix == "PASS"
    lead = board_words.lead_card("HT")
    assert (lead.symbol, lead.css, lead.suffix) == ("♥", "suit-h", "10")
    assert board_words.trick_result("4S", 10) == "="
    assert board_words.trick_result("4S", 11) == "+1"
    assert board_words.trick_result("4S", 8) == "−2"
    assert board_words.trick_result("PASS", None) == ""


# --- travellers and hand records ------------------------------------------------------------


@pytest.fixture
def laws(db):
    from laws.importer import parse_all
    from laws.services import store

    store(parse_all())


def test_traveller_shows_adjusted_score_with_law_link(client, mitchell, laws):
    section, tournament, adjusted = mitchell
    number = adjusted.board.number
    url = reverse("results:board", args=[tournament.slug, 1, section.pool, number])
    response = client.get(url)
    data = response.context["data"]
    assert len(data.rows) == 7
    row = next(r for r in data.rows if r["adjusted"])
    assert row["adjusted"] == "60/40"
    assert row["reason"] == "Información no autorizada"
    html = response.content.decode()
    link = re.search(r'<a class="law-link" href="([^"]+)"[^>]*>12C2</a>', html)
    assert link is not None
    assert link.group(1).startswith("/laws/es-2017/12/")
    assert client.get(link.group(1).split("#")[0]).status_code == 200
    # marks on the traveller are the stored marks
    for r in data.rows:
        ns = StoredMark.objects.get(session=section.session, board_number=number, entry=r["ns_id"])
        assert r["ns_mark"] == ns.mark
    adjusted_mark = StoredMark.objects.get(
        session=section.session, board_number=number, entry=adjusted.ns_id
    )
    assert adjusted_mark.percentage == Decimal("60.00")
    # Portuguese visitors get the Portuguese edition, English ones the Spanish 2017 one
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "pt"
    html = client.get(url).content.decode()
    assert re.search(r'class="law-link" href="/laws/pt-1997/12/[^"]*"', html)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(url).content.decode()
    assert re.search(r'class="law-link" href="/laws/es-2017/12/[^"]*"', html)


def test_law_citation_falls_back_to_plain_text(db):
    from laws.models import Edition

    Edition.objects.all().delete()  # the laws tests may have imported them for the session
    assert scorecards.law_link("12C2", "es") == {"text": "12C2", "url": "", "title": ""}
    assert scorecards.law_link("", "es") is None


def test_frequency_table_counts_scores_with_their_marks(client, mitchell):
    section, tournament, adjusted = mitchell
    number = adjusted.board.number
    data = client.get(
        reverse("results:board", args=[tournament.slug, 1, section.pool, number])
    ).context["data"]
    played = [r for r in data.rows if not r["adjusted"]]
    assert sum(f["count"] for f in data.frequencies) == len(played) == 6
    for f in data.frequencies:
        same = [r for r in played if r["ns_score"] == f["score"]]
        assert f["count"] == len(same)
        assert {r["ns_mark"] for r in same} == {f["ns_mark"]}
        assert {r["ew_mark"] for r in same} == {f["ew_mark"]}
    assert [f["score"] for f in data.frequencies] == sorted(
        (f["score"] for f in data.frequencies), reverse=True
    )


def test_hand_record_with_double_dummy_and_par(client, mitchell):
    section, tournament, _adj = mitchell
    board = Board.objects.get(session=section.session, number=1)
    board.deal = "N:AKQ2.JT9.876.543 JT9.AKQ2.543.876 876.543.AKQ2.JT9 543.876.JT9.AKQ2"
    board.double_dummy = {s: {"NT": 6, "S": 7, "H": 6, "D": 6, "C": 6} for s in "NESW"}
    board.par = {"score": 110, "contracts": ["2SN=", "2HS+1"]}
    board.save()
    url = reverse("results:board", args=[tournament.slug, 1, section.pool, 1])
    html = client.get(url).content.decode()
    assert 'id="hand-record"' in html
    for seat in "NESW":
        assert f'data-seat="{seat}"' in html
    north = html[html.index('data-seat="N"') : html.index('data-seat="E"')]
    assert '<span class="suit-s">♠</span> AKQ2' in north
    assert '<span class="suit-h">♥</span> J109' in north
    assert 'id="double-dummy"' in html
    par = html[html.index('id="par"') :]
    par = par[: par.index("</p>")]
    assert "NS +110" in par
    assert '2<span class="suit-s">♠</span></span>N=' in par
    assert '2<span class="suit-h">♥</span></span>S+1' in par
    other = reverse("results:board", args=[tournament.slug, 1, section.pool, 2])
    assert 'id="hand-record"' not in client.get(other).content.decode()


def test_parse_deal_rejects_malformed_text():
    assert board_words.parse_deal("") is None
    assert board_words.parse_deal("N:AKQ.JT9") is None
    hands = board_words.parse_deal(
        "E:AKQ2.JT9.876.543 JT9.AKQ2.543.876 876.543.AKQ2.JT9 543.876.JT9.AKQ2"
    )
    assert hands["E"][0][2] == "AKQ2" and hands["S"][1][2] == "AKQ2"


# --- players --------------------------------------------------------------------------------


def test_player_page_history_average_and_partners(
    client, mitchell, mitchell_director, mitchell_members
):
    _section, tournament, _adj = mitchell
    director, members = mitchell_director, mitchell_members
    howell_session = build_howell_session(members)  # ``howell_session`` on the same members
    howell, _ = finished(howell_session, director, seed=8, adjust=False)
    member = members[0]  # first pair of both events
    response = client.get(reverse("results:player", args=[member.pk]))
    history = response.context["history"]
    assert [r["tournament"].pk for r in history.rows] == [howell.pk, tournament.pk]
    expected = []
    for row in history.rows:
        stored = StoredRanking.objects.get(entry=row["entry_id"], scope=RankingScope.SECTION)
        assert row["percentage"] == stored.percentage
        assert row["place"] == stored.place
        expected.append(stored.percentage)
        assert [p.pk for p in row["partners"]] == list(
            stored.entry.players.exclude(pk=member.pk).values_list("pk", flat=True)
        )
    assert history.average == (sum(expected) / 2).quantize(Decimal("0.01"))
    assert sum(p["count"] for p in history.partners) == 2
    html = response.content.decode()
    assert (
        reverse("results:scorecard", args=[tournament.slug, 1, history.rows[1]["entry_id"]]) in html
    )


def test_my_results_show_a_linked_player_their_page(client, mitchell, player):
    section, _tournament, _adj = mitchell
    assert client.get(reverse("results:mine")).status_code == 302  # to the login page
    client.force_login(player)
    assert client.get(reverse("results:mine")).status_code == 404
    member = section.seatings.first().entry.players.first()
    member.user = player
    member.save()
    response = client.get(reverse("results:mine"))
    assert response.status_code == 200  # their member page, here (with their other clubs)
    assert response.context["history"].member == member and response.context["is_me"]
    assert response.context["elsewhere"] == []
    index = client.get(reverse("results:index")).content.decode()
    assert 'id="my-results"' in index


def test_player_with_only_hidden_results_is_404_for_anonymous(client, mitchell):
    section, tournament, _adj = mitchell
    tournament.public_results = False
    tournament.save(update_fields=["public_results"])
    member = section.seatings.first().entry.players.first()
    assert client.get(reverse("results:player", args=[member.pk])).status_code == 404
