"""How the files write a number: no trailing zeros, nothing for an unknown value (pure)."""

from __future__ import annotations

from decimal import Decimal


def number_text(value: Decimal | None, places: int = 2) -> str:
    """``Decimal("12.50")`` → ``"12.5"``; ``None`` → ``""`` (files carry no trailing zeros)."""
    if value is None:
        return ""
    text = f"{Decimal(value):.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
