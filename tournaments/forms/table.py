"""The score-entry form of a table device: big buttons in, a traveller line out.

The buttons post plain choices (level, strain, doubling, declarer, lead, ``=``/``+n``/``−n``);
``clean`` turns them into what ``services.entry.submit_result`` takes (contract notation,
tricks won by declarer, lead card). The same form checks the JSON endpoint's posts, so the
page without JavaScript and the offline queue are validated alike.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

PASS = "PASS"
LEVELS = [(str(n), str(n)) for n in range(1, 8)] + [(PASS, _("Pass"))]
STRAINS = [("C", "♣"), ("D", "♦"), ("H", "♥"), ("S", "♠"), ("NT", _("NT"))]
DOUBLES = [("", "—"), ("X", "X"), ("XX", "XX")]
SEATS = [("N", _("N")), ("E", _("E")), ("S", _("S")), ("W", _("W"))]
LEAD_SUITS = [("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣")]
LEAD_RANKS = [(r, "10" if r == "T" else r) for r in "AKQJT98765432"]
OVER = [(f"+{n}", f"+{n}") for n in range(1, 7)]
UNDER = [(f"-{n}", f"−{n}") for n in range(1, 14)]
MADE = [("=", "=")] + OVER + UNDER


def made_text(level: int, tricks: int) -> str:
    """``=``, ``+1`` or ``−2``: tricks against the contract, as players say it."""
    diff = tricks - (level + 6)
    return "=" if diff == 0 else (f"+{diff}" if diff > 0 else f"−{-diff}")


class ResultForm(forms.Form):
    round = forms.IntegerField(min_value=1, max_value=999, widget=forms.HiddenInput)
    board = forms.IntegerField(min_value=1, max_value=999, widget=forms.HiddenInput)
    level = forms.ChoiceField(
        label=_("Contract"),
        choices=LEVELS,
        error_messages={"required": _("Choose the level, or Pass.")},
    )
    strain = forms.ChoiceField(label=_("Strain"), choices=STRAINS, required=False)
    double = forms.ChoiceField(label=_("Doubled"), choices=DOUBLES, required=False)
    declarer = forms.ChoiceField(label=_("Declarer"), choices=SEATS, required=False)
    lead_suit = forms.ChoiceField(label=_("Lead"), choices=LEAD_SUITS, required=False)
    lead_rank = forms.ChoiceField(label=_("Lead card"), choices=LEAD_RANKS, required=False)
    made = forms.ChoiceField(label=_("Result"), choices=MADE, required=False)
    idempotency_key = forms.CharField(max_length=80, widget=forms.HiddenInput)

    def clean(self):
        data = super().clean()
        level = data.get("level")
        if not level:
            return data
        if level == PASS:
            if data.get("lead_suit") or data.get("lead_rank"):
                self.add_error("lead_rank", _("A passed-out board has no lead."))
            data.update(contract=PASS, declarer="", tricks=None, lead="")
            return data
        for field, message in (
            ("strain", _("Choose the suit or NT.")),
            ("declarer", _("Choose who declared: N, E, S or W.")),
            ("made", _("Choose the result: =, +n or −n.")),
        ):
            if not data.get(field) and field not in self.errors:
                self.add_error(field, message)
        suit, rank = data.get("lead_suit"), data.get("lead_rank")
        if bool(suit) != bool(rank):
            self.add_error(
                "lead_rank" if suit else "lead_suit",
                _("Choose both the suit and the card of the lead, or neither."),
            )
        made = data.get("made")
        if made:
            tricks = int(level) + 6 + (0 if made == "=" else int(made))
            if not 0 <= tricks <= 13:
                self.add_error(
                    "made",
                    _("%(made)s is not possible in a %(level)s-level contract.")
                    % {"made": made, "level": level},
                )
            data["tricks"] = tricks
        data["contract"] = f"{level}{data.get('strain') or ''}{data.get('double') or ''}"
        data["lead"] = f"{suit}{rank}" if suit and rank else ""
        return data

    def is_complete(self) -> bool:
        """Whether enough was chosen to score (for the preview: no nagging before that)."""
        level = self.data.get("level")
        return level == PASS or all(
            self.data.get(f) for f in ("level", "strain", "declarer", "made")
        )
