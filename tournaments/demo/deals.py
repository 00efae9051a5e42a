"""Deals for the demo club, with their double-dummy tables and par, shipped as data.

Double-dummy analysis takes about a second a deal here, too slow to repeat on every
``manage.py demo``; the deals are analysed once by running this module and stored in
``data/demo_deals.json``. The demo reads them back, so its hand records, double-dummy tables
and the results played on them agree.

    python -m tournaments.demo.deals      # regenerates data/demo_deals.json
"""

import json
import random
from functools import cache
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data" / "demo_deals.json"
COUNT = 64
SEED = 2003


@cache
def load() -> list[dict]:
    """Stored deals: ``[{"number", "deal", "double_dummy", "par"}]`` for boards 1..COUNT."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def generate(count: int = COUNT, seed: int = SEED) -> list[dict]:
    from tournaments.services.boards.deals import analyse, random_deal

    from ..scoring import board_conditions

    rng = random.Random(seed)
    out = []
    for number in range(1, count + 1):
        deal = random_deal(rng)
        dealer, vulnerability = board_conditions(number)
        double_dummy, par = analyse(deal, dealer, vulnerability or "")
        out.append({"number": number, "deal": deal, "double_dummy": double_dummy, "par": par})
    return out


if __name__ == "__main__":  # pragma: no cover - a maintenance script
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubsite.settings")
    django.setup()
    DATA.write_text(json.dumps(generate(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
