"""The director's forms: the event, entries, movements, boards, results and adjusted scores.

Forms check the shape of what was typed; the services decide whether it is allowed, and
their ``TournamentError`` is put back on the form (``add_service_error``) so the page shows
the message next to what the director typed.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import Gender, Member

from ..models import EventType, ScoringMethod, Tournament, Vulnerability
from ..models.boards import Seat
from ..models.event import PAIR_IMP_METHODS
from ..scoring import ScoringError, parse_contract


def add_service_error(form: forms.Form, error) -> None:
    """Show a service's refusal on the form, on the field it names when the form has it."""
    field = getattr(error, "field", None)
    form.add_error(field if field in form.fields else None, str(error.message))


# The calendar and online entry (services.online_entry); the form shows them together.
ENTRY_FIELDS = ["start_time", "in_calendar", "online_entry", "entry_opens_at",
                "entry_closes_at", "max_tables"]


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["name", "date", "venue", "event_type", "scoring_method", "match_vp_scale",
                  "session_count",
                  "mixed", "public_results", "show_traveller", "opponent_confirmation",
                  "correction_minutes", *ENTRY_FIELDS]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "entry_opens_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                  format="%Y-%m-%dT%H:%M"),
            "entry_closes_at": forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                   format="%Y-%m-%dT%H:%M"),
        }

    def clean_session_count(self):
        count = self.cleaned_data["session_count"]
        if not 1 <= count <= 20:
            raise forms.ValidationError(_("Between 1 and 20 sessions."))
        return count

    def clean(self):
        data = super().clean()
        team_methods = (ScoringMethod.IMPS, ScoringMethod.VPS)
        teams = data.get("event_type") == EventType.TEAMS
        if data.get("scoring_method") and teams != (data["scoring_method"] in team_methods):
            self.add_error("scoring_method",
                           _("Teams are scored in IMPs or victory points, and only teams are."))
        if data.get("match_vp_scale") and (
                data.get("event_type") != EventType.PAIRS
                or data.get("scoring_method") not in PAIR_IMP_METHODS):
            self.add_error("match_vp_scale",
                           _("Only Butler and cross-IMP pairs events convert matches to VPs."))
        if teams and data.get("session_count", 1) != 1:
            self.add_error("session_count", _("A teams event is played in one session."))
        opens, closes = data.get("entry_opens_at"), data.get("entry_closes_at")
        if opens and closes and closes <= opens:
            self.add_error("entry_closes_at", _("Entry must close after it opens."))
        if data.get("max_tables") == 0:
            self.add_error("max_tables", _("At least one table, or empty for no limit."))
        return data


class SectionForm(forms.Form):
    letter = forms.CharField(label=_("Letter"), max_length=3, required=False,
                             help_text=_("Empty: the next free letter."))
    pool = forms.CharField(label=_("Board pool"), max_length=3, required=False,
                           help_text=_("Same pool as another section: same boards, ranked "
                                       "together. Empty: its own boards."))
    board_offset = forms.IntegerField(label=_("Board offset"), min_value=0, max_value=999,
                                      initial=0, required=False)

    def clean_letter(self):
        return self.cleaned_data["letter"].strip().upper() or None

    def clean_pool(self):
        return self.cleaned_data["pool"].strip().upper() or None


# --- entries --------------------------------------------------------------------------------


class GuestForm(forms.Form):
    """A guest added on the spot, inside the entry form (prefix ``guest<slot>``)."""

    first_name = forms.CharField(label=_("First name"), max_length=80, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=120, required=False)
    licence_number = forms.CharField(label=_("Licence"), max_length=30, required=False)
    home_club = forms.CharField(label=_("Home club"), max_length=120, required=False)
    gender = forms.ChoiceField(label=_("Gender"), choices=Gender.choices, required=False)


class EntryForm(forms.Form):
    """The players of one entry, chosen from search results (``player1``, ``player2``, …)."""

    def __init__(self, *args, slots: int = 2, required: int | None = None, team: bool = False,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.slots = slots
        self.required = slots if required is None else required
        if team:
            self.fields["name"] = forms.CharField(label=_("Team name"), max_length=160)
        for i in range(1, slots + 1):
            self.fields[f"player{i}"] = forms.ModelChoiceField(
                Member.objects.all(), required=False, label=_("Player %(n)s") % {"n": i})
            self.fields[f"q{i}"] = forms.CharField(required=False, label=_("Search"))

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"player{i}") for i in range(1, self.slots + 1)]
        for i, member in enumerate(chosen, start=1):
            if member is None and i <= self.required and not self.has_error(f"player{i}"):
                self.add_error(f"player{i}", _("Choose player %(n)s: search by name or "
                                               "licence, or add a guest.") % {"n": i})
        return data

    def members(self) -> list[Member]:
        chosen = [self.cleaned_data[f"player{i}"] for i in range(1, self.slots + 1)]
        return [m for m in chosen if m is not None]


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=300)


class SubstituteForm(forms.Form):
    leaving = forms.ModelChoiceField(Member.objects.none(), label=_("Player leaving"))
    player1 = forms.ModelChoiceField(Member.objects.all(), label=_("Player joining"),
                                     required=False)
    q1 = forms.CharField(required=False, label=_("Search"))
    reason = forms.CharField(label=_("Why"), max_length=300, required=False)

    def __init__(self, *args, entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leaving"].queryset = Member.objects.filter(
            entry_seats__entry=entry, entry_seats__active=True)

    def clean(self):
        data = super().clean()
        if data.get("player1") is None and not self.has_error("player1"):
            self.add_error("player1", _("Choose who joins: search by name or licence, or add "
                                        "a guest."))
        return data


# --- movements and seating ------------------------------------------------------------------


class ManualMovementForm(forms.Form):
    kind = forms.ChoiceField(label=_("Movement"), choices=[("mitchell", _("Mitchell")),
                                                           ("howell", _("Howell"))])
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=60)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    boards_per_round = forms.IntegerField(label=_("Boards per round"), min_value=1,
                                          max_value=8, initial=2)


class RoundsForm(forms.Form):
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    reason = forms.CharField(label=_("Why"), max_length=300, required=False)


class LateEntryForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=None, label=_("Pair"))
    place = forms.ChoiceField(label=_("Place"), required=False)
    from_round = forms.IntegerField(
        label=_("Plays from round"), required=False, min_value=1, max_value=99,
        help_text=_("Boards its place passed before this round are scored as not played."))

    def __init__(self, *args, entries, places, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries
        self.fields["place"].choices = [("", _("First free place"))] + [
            (f"{n}:{line}", f"{n}{line}") for n, line in places]

    def chosen_place(self) -> tuple[int | None, str | None]:
        value = self.cleaned_data.get("place") or ""
        if not value:
            return None, None
        number, line = value.split(":")
        return int(number), line


# --- boards ---------------------------------------------------------------------------------


class BoardConditionsForm(forms.Form):
    dealer = forms.ChoiceField(label=_("Dealer"), choices=Seat.choices)
    vulnerability = forms.ChoiceField(label=_("Vulnerability"), choices=Vulnerability.choices,
                                      required=False)


class PBNImportForm(forms.Form):
    file = forms.FileField(label=_("PBN or Duplimate (.dup) file"))

    def clean_file(self):
        """The PBN file's text, or a dealing machine's file as its bytes."""
        from ..imports.dealer_dup import looks_like_dup

        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise forms.ValidationError(_("The file is too large (2 MB at most)."))
        raw = upload.read()
        if looks_like_dup(upload.name or "", raw):
            return raw
        for encoding in ("utf-8-sig", "latin-1"):
            try:
                return raw.decode(encoding)
            except UnicodeDecodeError:
                continue
        raise forms.ValidationError(_("The file is not text."))  # pragma: no cover


class DealForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), required=False, min_value=0,
                              max_value=2**31 - 1,
                              help_text=_("Same seed, same deals. Empty: random."))
    replace = forms.BooleanField(label=_("Replace deals already there"), required=False)


# --- results --------------------------------------------------------------------------------

DECLARER_CHOICES = [("", "—")] + [(s, s) for s in "NESW"]


def tricks_from(contract: str, result: str) -> int | None:
    """Tricks won by declarer from a contract and a result typed as ``=``, ``+1``, ``-2``
    (or a number of tricks 0–13). Raises ``forms.ValidationError``."""
    text = (result or "").strip().replace("−", "-").replace("–", "-")
    if not text:
        return None
    try:
        parsed = parse_contract(contract or "")
    except ScoringError as exc:
        raise forms.ValidationError(_("The contract is not valid (level 1–7, a strain, X or "
                                      "XX, or pass).")) from exc
    if text.isdigit():
        tricks = int(text)
    elif parsed is None:
        return None
    elif text == "=":
        tricks = parsed.level + 6
    elif text[0] in "+-" and text[1:].isdigit():
        tricks = parsed.level + 6 + int(text)
    else:
        raise forms.ValidationError(_("Write the result as =, +1, -2 or the number of tricks."))
    if not 0 <= tricks <= 13:
        raise forms.ValidationError(_("Tricks won by declarer must be between 0 and 13."))
    return tricks


class OverrideMixin(forms.Form):
    override = forms.BooleanField(
        label=_("Override: change the results after the correction period (Law 79C)"),
        required=False)


class ResultForm(OverrideMixin):
    contract = forms.CharField(label=_("Contract"), max_length=8,
                               help_text=_("4S, 3NTX, 6HXX or PASS"))
    declarer = forms.ChoiceField(label=_("Declarer"), choices=DECLARER_CHOICES, required=False)
    result = forms.CharField(label=_("Result"), max_length=4, required=False,
                             help_text=_("=, +1, -2 or tricks"))
    lead = forms.CharField(label=_("Lead"), max_length=4, required=False)
    ns_score = forms.IntegerField(label=_("NS score as written"), required=False,
                                  help_text=_("Only when the traveller's number differs."))
    reason = forms.CharField(label=_("Why"), max_length=300, required=False,
                             help_text=_("Needed when changing a stored result."))
    law = forms.CharField(label=_("Law"), max_length=40, required=False)

    def clean(self):
        data = super().clean()
        if "contract" in data:
            try:
                data["tricks"] = tricks_from(data["contract"], data.get("result", ""))
            except forms.ValidationError as exc:
                self.add_error("result", exc)
        return data


ADJUSTMENT_KINDS = [
    ("artificial", _("Artificial (%, A+/A/A−)")),
    ("assigned", _("Assigned score (one result)")),
    ("split", _("Split score (different for each side)")),
    ("weighted", _("Weighted score")),
    ("fouled", _("Fouled board (score within its group)")),
    ("not_played", _("Not played")),
]
PRESETS = [("", _("Custom")), ("60/40", "60/40"), ("40/60", "40/60"), ("50/50", "50/50"),
           ("40/40", "40/40"), ("60/50", "60/50"), ("50/60", "50/60"),
           ("A+/A-", "A+/A−"), ("A-/A+", "A−/A+"), ("A/A", "A/A"), ("A+/A", "A+/A"),
           ("A/A+", "A/A+")]
NOT_PLAYED = [("justified", _("Justified (session average)")),
              ("player_fault", _("Players' fault (at most 40%)")),
              ("organisation", _("Organisation's fault (at least 60%)")),
              ("relay", _("Relay or bye (own average)"))]
SIDE_HELP = _("A percentage, or A+, A, A−")


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
    fouled_group = forms.CharField(label=_("Fouled group"), max_length=10, required=False,
                                   initial="1")
    not_played = forms.ChoiceField(label=_("Not played because"), choices=NOT_PLAYED,
                                   required=False)
    reason = forms.CharField(label=_("Why"), max_length=300,
                             widget=forms.Textarea(attrs={"rows": 2}))
    law = forms.CharField(label=_("Law"), max_length=40, required=False,
                          help_text=_("For example 12C1c"))

    OUTCOMES = 3

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i in range(1, self.OUTCOMES + 1):
            self.fields[f"w{i}_percent"] = forms.IntegerField(
                label=_("Weight (%)"), min_value=1, max_value=100, required=False)
            self.fields[f"w{i}_contract"] = forms.CharField(label=_("Contract"), max_length=8,
                                                            required=False)
            self.fields[f"w{i}_declarer"] = forms.ChoiceField(
                label=_("Declarer"), choices=DECLARER_CHOICES, required=False)
            self.fields[f"w{i}_result"] = forms.CharField(label=_("Result"), max_length=4,
                                                          required=False)

    def outcome_rows(self):
        return [[self[f"w{i}_{name}"] for name in ("percent", "contract", "declarer", "result")]
                for i in range(1, self.OUTCOMES + 1)]

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
                data["adjustment"] = {"kind": "split", "ns_score": data["split_ns"],
                                      "ew_score": data["split_ew"]}
        elif kind in ("assigned", "weighted"):
            rows = self._outcomes(data, 1 if kind == "assigned" else self.OUTCOMES)
            if kind == "assigned" and rows:
                rows = [(100, *rows[0][1:])]
            if rows and kind == "weighted" and sum(r[0] for r in rows) != 100:
                self.add_error("w1_percent", _("The weights must add up to 100%."))
            data["outcomes"] = rows
        elif kind == "fouled":
            data["adjustment"] = {"kind": "fouled",
                                  "group": (data.get("fouled_group") or "1").strip()}
        elif kind == "not_played":
            data["adjustment"] = {"kind": "not_played",
                                  "reason": data.get("not_played") or "justified"}
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


class PenaltyForm(OverrideMixin):
    entry = forms.ModelChoiceField(queryset=None, label=_("Pair"))
    fraction_of_top = forms.DecimalField(label=_("Fraction of a top"), min_value=0,
                                         max_digits=5, decimal_places=3, initial="0.25")
    board = forms.IntegerField(label=_("Board"), required=False, min_value=1, max_value=999)
    reason = forms.CharField(label=_("Why"), max_length=300)
    law = forms.CharField(label=_("Law"), max_length=40, required=False)

    def __init__(self, *args, entries, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries


class ReasonForm(OverrideMixin):
    reason = forms.CharField(label=_("Why"), max_length=300)

    def clean_reason(self):
        """One line of text: a posted CR LF is kept as the LF a browser's form would send, so
        the trail holds the reason as typed."""
        return self.cleaned_data["reason"].replace("\r\n", "\n")


class PublishForm(OverrideMixin):
    pass
