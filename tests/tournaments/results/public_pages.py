"""A finished, published event and the public pages' addresses and ranking rows, for the
tests of the public results pages."""

import random

from django.urls import reverse

from tournaments.demo import play_rounds
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup


def finished(section, director, seed=1, *, adjust=True, final=True):
    """Play every board of ``section``, award a 60/40 (Law 12C2), finish and publish."""
    play_rounds(section, random.Random(seed))
    adjusted = None
    if adjust:
        adjusted = corrections.adjust_score(
            user=director,
            section=section,
            round=2,
            table=2,
            board=section.movement["rounds"][1]["tables"][1]["boards"][0],
            adjustment={"kind": "artificial", "ns": 60, "ew": 40},
            reason="Información no autorizada",
            law="12C2",
        )
    setup.finish_session(section.session)
    tournament = section.session.tournament
    if final:
        publish.publish_final(tournament, user=director)
    else:
        publish.publish_provisional(tournament, user=director)
    tournament.refresh_from_db()
    return tournament, adjusted


def section_url(tournament, letter="A", session=1):
    return reverse("results:section", args=[tournament.slug, session, letter])


def ranking_rows(response):
    """(direction, [row dicts in displayed order]) for each table on a ranking page."""
    return [
        (item["direction"], [row.record for row in item["table"].rows])
        for item in response.context["tables"]
    ]
