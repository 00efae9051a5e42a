"""PBN deal strings (``N:S.H.D.C E… S… W…``) to hands by seat and back (pure).

Whether a deal is complete (52 different cards, 13 a hand) is ``services.boards.
normalise_deal``'s to say, for every way a deal comes in (a PBN file, a USEBIO hand record,
a dealing machine's file): one rule and one set of reasons, in the layer below."""

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "AKQJT98765432"


def hands(deal: str) -> dict[str, list[str]]:
    """``"N:AK.Q.J.T …"`` → ``{"N": ["AK", "Q", "J", "T"], …}`` (spades first); {} if empty."""
    deal = (deal or "").strip()
    if not deal:
        return {}
    first, _colon, rest = deal.partition(":")
    if first.upper() not in SEATS or len(rest.split()) != 4:
        raise ValueError(f"not a PBN deal: {deal!r}")
    start = SEATS.index(first.upper())
    out = {}
    for i, hand in enumerate(rest.split()):
        suits = hand.split(".")
        if len(suits) != 4:
            raise ValueError(f"not a PBN hand: {hand!r}")
        out[SEATS[(start + i) % 4]] = [s.upper().replace("10", "T") for s in suits]
    return out


def deal_text(by_seat: dict[str, list[str]]) -> str:
    """The inverse of ``hands``, always starting with North."""
    if not by_seat:
        return ""
    return "N:" + " ".join(".".join(by_seat[s]) for s in SEATS)


def random_deal(rng) -> str:
    """A shuffled deal from ``rng`` (a ``random.Random``), for demos, tests and benchmarks."""
    cards = [(s, r) for s in SUITS for r in RANKS]
    rng.shuffle(cards)
    seats = {}
    for i, seat in enumerate(SEATS):
        hand = cards[i * 13:(i + 1) * 13]
        seats[seat] = ["".join(r for r in RANKS if (s, r) in hand) for s in SUITS]
    return deal_text(seats)
