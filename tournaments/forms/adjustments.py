"""The adjusted-score form: artificial, assigned, split, weighted, fouled or not played,
turned into the stored shape of ``services.adjustments``."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from .results import DECLARER_CHOICES, OverrideMixin, tricks_from

ADJUSTMENT_KINDS = [
    ("artificial", _("Artificial (%, A+/A/A−)")),
    ("assigned", _("Assigned score (one result)")),
    ("split", _("Split score (different for each side)")),
    ("weighted", _("Weighted score")),
    ("fouled", _("Fouled board (score within its group)")),
    ("not_played", _("Not played")),
]
PRESETS = [
    ("", _("Custom")),
    ("60/40", "60/40"),
    ("40/60", "40/60"),
    ("50/50", "50/50"),
    ("40/40", "40/40"),
    ("60/50", "60/50"),
    ("50/60", "50/60"),
    ("A+/A-", "A+/A−"),
    ("A-/A+", "A−/A+"),
    ("A/A", "A/A"),
    ("A+/A", "A+/A"),
    ("A/A+", "A/A+"),
]
NOT_PLAYED = [
    ("justified", _("Justified (session average)")),
    ("player_fault", _("Players' fault (at most 40%)")),
    ("organisation", _("Organisation's fault (at least 60%)")),
    ("relay", _("Relay or bye (own average)")),
]
SIDE_HELP = _("A percentage, or A+, A, A−")
# The law each kind is usually awarded under (2017 Laws, the edition the hints link to):
# the form starts with it and follows the kind until the director types another.
KIND_LAWS = {
    "artificial": "12C2a",
    "assigned": "12C1b",
    "split": "12C1e",
    "weighted": "12C1c",
    "fouled": "87",
    "not_played": "12C2a",
}


def _side(value: str) -> str | float:
    text = (value or "").strip().upper().replace("−", "-")
    if text in ("A+", "A", "A-"):
        return text
    try:
        number = float(text.replace(",", "."))
    except ValueError as exc:
        raise forms.ValidationError(SIDE_HELP) from exc
    if not 0 <= number <= 100:
        raise forms.ValidationError(_("A percentage is between 0 and 100."))
    return int(number) if number == int(number) else number


class AdjustmentForm(OverrideMixin):
    """Every kind of adjusted score, turned into the stored shape of ``services.adjustments``.

    Scores of assigned and weighted results are computed from contracts by the view (they
    depend on the board's vulnerability), so the form keeps them as typed.
    """

    kind = forms.ChoiceField(label=_("Kind"), choices=ADJUSTMENT_KINDS)
    preset = forms.ChoiceField(label=_("Artificial"), choices=PRESETS, required=False)
    ns_side = forms.CharField(label=_("NS"), max_length=5, required=False, help_text=SIDE_HELP)
    ew_side = forms.CharField(label=_("EW"), max_length=5, required=False, help_text=SIDE_HELP)
    split_ns = forms.IntegerField(label=_("NS score"), required=False)
    split_ew = forms.IntegerField(label=_("EW score (from NS's side)"), required=False)
    fouled_group = forms.CharField(
        label=_("Fouled group"), max_length=10, required=False, initial="1"
    )
    not_played = forms.ChoiceField(
        label=_("Not played because"), choices=NOT_PLAYED, required=False
    )
    reason = forms.CharField(
        label=_("Why"), max_length=300, widget=forms.Textarea(attrs={"rows": 2})
    )
    law = forms.CharField(
        label=_("Law"), max_length=40, required=False, help_text=_("For example 12C1c")
    )

    OUTCOMES = 3

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].widget.attrs["data-kind-laws"] = json.dumps(KIND_LAWS)
        for i in range(1, self.OUTCOMES + 1):
            self.fields[f"w{i}_percent"] = forms.IntegerField(
                label=_("Weight (%)"), min_value=1, max_value=100, required=False
            )
            self.fields[f"w{i}_contract"] = forms.CharField(
                label=_("Contract"), max_length=8, required=False
            )
            self.fields[f"w{i}_declarer"] = forms.ChoiceField(
                label=_("Declarer"), choices=DECLARER_CHOICES, required=False
            )
            self.fields[f"w{i}_result"] = forms.CharField(
                label=_("Result"), max_length=4, required=False
            )

    def outcome_rows(self):
        return [
            [self[f"w{i}_{name}"] for name in ("percent", "contract", "declarer", "result")]
            for i in range(1, self.OUTCOMES + 1)
        ]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "artificial":
            preset = data.get("preset") or ""
            ns, ew = preset.split("/") if preset else (data.get("ns_side"), data.get("ew_side"))
            try:
                data["adjustment"] = {"kind": "artificial", "ns": _side(ns), "ew": _side(ew)}
            except forms.ValidationError as exc:
                self.add_error("ns_side" if not preset else "preset", exc)
        elif kind == "split":
            if data.get("split_ns") is None or data.get("split_ew") is None:
                self.add_error("split_ns", _("Give both sides' scores."))
            else:
                data["adjustment"] = {
                    "kind": "split",
                    "ns_score": data["split_ns"],
                    "ew_score": data["split_ew"],
                }
        elif kind in ("assigned", "weighted"):
            rows = self._outcomes(data, 1 if kind == "assigned" else self.OUTCOMES)
            if kind == "assigned" and rows:
                rows = [(100, *rows[0][1:])]
            if rows and kind == "weighted" and sum(r[0] for r in rows) != 100:
                self.add_error("w1_percent", _("The weights must add up to 100%."))
            data["outcomes"] = rows
        elif kind == "fouled":
            data["adjustment"] = {
                "kind": "fouled",
                "group": (data.get("fouled_group") or "1").strip(),
            }
        elif kind == "not_played":
            data["adjustment"] = {
                "kind": "not_played",
                "reason": data.get("not_played") or "justified",
            }
        return data

    def _outcomes(self, data, count):
        rows = []
        for i in range(1, count + 1):
            contract = (data.get(f"w{i}_contract") or "").strip()
            percent = data.get(f"w{i}_percent") or (100 if count == 1 else None)
            if not contract:
                continue
            if percent is None:
                self.add_error(f"w{i}_percent", _("Give this result's weight."))
                continue
            try:
                tricks = tricks_from(contract, data.get(f"w{i}_result") or "")
            except forms.ValidationError as exc:
                self.add_error(f"w{i}_result", exc)
                continue
            rows.append((percent, contract, data.get(f"w{i}_declarer") or "", tricks))
        if not rows:
            self.add_error("w1_contract", _("Give at least one contract and its result."))
        return rows
