"""Shuffled deals for demos, tests and benchmarks (pure). The notation itself (seats, suits,
ranks, ``hands``, ``deal_text``) is ``scoring.deals``'s."""

from ..scoring.deals import RANKS, SEATS, SUITS, deal_text


def random_deal(rng) -> str:
    """A shuffled deal from ``rng`` (a ``random.Random``), for demos, tests and benchmarks."""
    cards = [(s, r) for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    seats = {}
    for i, seat in enumerate(SEATS):
        hand = cards[i * 13 : (i + 1) * 13]
        seats[seat] = ["".join(r for r in RANKS if (s, r) in hand) for s in SUITS]
    return deal_text(seats)
