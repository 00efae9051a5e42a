"""The demo's tournaments with their boards dealt, as the PDF tests print them."""

import random

from tests.tournaments.conftest import build_demo_events
from tournaments.exports.deals import random_deal
from tournaments.models import Board


def build_dealt_events() -> None:
    """The demo club's Tuesday, Thursday and afternoon tournaments, every board dealt, with
    its double-dummy table and par."""
    build_demo_events("martes", "jueves", "tarde")
    rng = random.Random(5)
    for board in Board.objects.all():
        board.deal = random_deal(rng)
        board.double_dummy = {s: {"C": 7, "D": 6, "H": 9, "S": 10, "NT": 8} for s in "NESW"}
        board.par = {"score": 420, "contracts": ["4SN="]}
        board.save(update_fields=["deal", "double_dummy", "par"])
