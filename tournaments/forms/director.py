"""The director's set-up forms: the event, its sections, entries, movements and boards.

Results, penalties and publishing are in ``forms.results``; adjusted scores in
``forms.adjustments``.

Forms check the shape of what was typed; the services decide whether it is allowed, and
their ``TournamentError`` is put back on the form (``add_service_error``) so the page shows
the message next to what the director typed.
"""

from django import forms
from django.utils.translation import gettext_lazy as _

from clubsite.models import Gender, Member
from clubsite.web.club_forms import ClubModelForm

from ..models import EventType, Tournament, Vulnerability
from ..models.boards import Seat
from ..scoring import methods


def add_service_error(form: forms.Form, error) -> None:
    """Show a service's refusal on the form, on the field it names when the form has it."""
    field = getattr(error, "field", None)
    form.add_error(field if field in form.fields else None, str(error.message))


# The calendar and online entry (services.online_entry); the form shows them together.
ENTRY_FIELDS = [
    "start_time",
    "in_calendar",
    "online_entry",
    "entry_opens_at",
    "entry_closes_at",
    "max_tables",
]


class TournamentForm(ClubModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "venue",
            "event_type",
            "scoring_method",
            "match_vp_scale",
            "session_count",
            "mixed",
            "public_results",
            "live_ranking",
            "show_traveller",
            "opponent_confirmation",
            "ask_lead",
            "handicap_ranking",
            "correction_minutes",
            *ENTRY_FIELDS,
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "start_time": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "entry_opens_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
            "entry_closes_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    def clean_session_count(self):
        count = self.cleaned_data["session_count"]
        if not 1 <= count <= 20:
            raise forms.ValidationError(_("Between 1 and 20 sessions."))
        return count

    def clean(self):
        data = super().clean()
        teams = data.get("event_type") == EventType.TEAMS
        if data.get("scoring_method") and teams != methods.method(data["scoring_method"]).is_teams:
            self.add_error(
                "scoring_method",
                _("Teams are scored in IMPs or victory points, and only teams are."),
            )
        if data.get("match_vp_scale") and (
            data.get("event_type") != EventType.PAIRS
            or not methods.method(data.get("scoring_method") or "").is_pair_imps
        ):
            self.add_error(
                "match_vp_scale",
                _("Only Butler and cross-IMP pairs events convert matches to VPs."),
            )
        if teams and data.get("session_count", 1) != 1:
            self.add_error("session_count", _("A teams event is played in one session."))
        opens, closes = data.get("entry_opens_at"), data.get("entry_closes_at")
        if opens and closes and closes <= opens:
            self.add_error("entry_closes_at", _("Entry must close after it opens."))
        if data.get("max_tables") == 0:
            self.add_error("max_tables", _("At least one table, or empty for no limit."))
        return data


class SectionForm(forms.Form):
    letter = forms.CharField(
        label=_("Letter"), max_length=3, required=False, help_text=_("Empty: the next free letter.")
    )
    pool = forms.CharField(
        label=_("Board pool"),
        max_length=3,
        required=False,
        help_text=_(
            "Same pool as another section: same boards, ranked together. Empty: its own boards."
        ),
    )
    board_offset = forms.IntegerField(
        label=_("Board offset"), min_value=0, max_value=999, initial=0, required=False
    )

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

    def __init__(
        self, *args, slots: int = 2, required: int | None = None, team: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.slots = slots
        self.required = slots if required is None else required
        if team:
            self.fields["name"] = forms.CharField(label=_("Team name"), max_length=160)
        for i in range(1, slots + 1):
            self.fields[f"player{i}"] = forms.ModelChoiceField(
                Member.objects.all(), required=False, label=_("Player %(n)s") % {"n": i}
            )
            self.fields[f"q{i}"] = forms.CharField(required=False, label=_("Search"))

    def clean(self):
        data = super().clean()
        chosen = [data.get(f"player{i}") for i in range(1, self.slots + 1)]
        for i, member in enumerate(chosen, start=1):
            if member is None and i <= self.required and not self.has_error(f"player{i}"):
                self.add_error(
                    f"player{i}",
                    _("Choose player %(n)s: search by name or licence, or add a guest.") % {"n": i},
                )
        return data

    def members(self) -> list[Member]:
        chosen = [self.cleaned_data[f"player{i}"] for i in range(1, self.slots + 1)]
        return [m for m in chosen if m is not None]


class WithdrawForm(forms.Form):
    reason = forms.CharField(label=_("Why"), max_length=300)


class SubstituteForm(forms.Form):
    leaving = forms.ModelChoiceField(Member.objects.none(), label=_("Player leaving"))
    player1 = forms.ModelChoiceField(
        Member.objects.none(), label=_("Player joining"), required=False
    )
    q1 = forms.CharField(required=False, label=_("Search"))
    reason = forms.CharField(label=_("Why"), max_length=300, required=False)

    def __init__(self, *args, entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["leaving"].queryset = Member.objects.filter(
            entry_seats__entry=entry, entry_seats__active=True
        )
        self.fields["player1"].queryset = Member.objects.all()  # the club's, in the request

    def clean(self):
        data = super().clean()
        if data.get("player1") is None and not self.has_error("player1"):
            self.add_error(
                "player1", _("Choose who joins: search by name or licence, or add a guest.")
            )
        return data


# --- movements and seating ------------------------------------------------------------------


class ManualMovementForm(forms.Form):
    """A Mitchell or Howell by hand, offering only what the field can play: the kinds that
    seat ``pairs`` pairs, and by default the most rounds the first of them plays. Numbers
    the movement cannot play are refused in the director's language."""

    kind = forms.ChoiceField(
        label=_("Movement"), choices=[("mitchell", _("Mitchell")), ("howell", _("Howell"))]
    )
    tables = forms.IntegerField(label=_("Tables"), min_value=1, max_value=60)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    boards_per_round = forms.IntegerField(
        label=_("Boards per round"), min_value=1, max_value=8, initial=2
    )

    def __init__(self, *args, pairs: int = 0, **kwargs):
        from tournaments.services.setup import movements

        super().__init__(*args, **kwargs)
        self.pairs = pairs or None
        tables = max(1, (pairs + 1) // 2)
        kinds = movements.kinds_for(tables, self.pairs) if pairs else ["mitchell", "howell"]
        if kinds:
            self.fields["kind"].choices = [c for c in self.fields["kind"].choices if c[0] in kinds]
        kind = kinds[0] if kinds else "mitchell"
        most = movements.most_rounds(kind, tables, self.pairs) or 1
        self.initial.update(
            {
                "kind": kind,
                "tables": tables,
                "rounds": most,
                "boards_per_round": self.initial.get("boards_per_round", 2),
            }
        )

    def clean(self):
        from tournaments.services.errors import TournamentError
        from tournaments.services.setup import movements

        data = super().clean()
        kind, tables, rounds = data.get("kind"), data.get("tables"), data.get("rounds")
        if kind and tables and rounds:
            pairs = self.pairs
            if kind == "mitchell" and pairs and not 2 * tables - 1 <= pairs <= 2 * tables:
                pairs = None
            try:
                movements.check_numbers(kind, tables, rounds, pairs)
            except TournamentError as exc:
                add_service_error(self, exc)
        return data


class RoundsForm(forms.Form):
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=30)
    reason = forms.CharField(label=_("Why"), max_length=300, required=False)


class LateEntryForm(forms.Form):
    entry = forms.ModelChoiceField(queryset=None, label=_("Pair"))
    place = forms.ChoiceField(label=_("Place"), required=False)
    from_round = forms.IntegerField(
        label=_("Plays from round"),
        required=False,
        min_value=1,
        max_value=99,
        help_text=_("Boards its place passed before this round are scored as not played."),
    )

    def __init__(self, *args, entries, places, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].queryset = entries
        self.fields["place"].choices = [("", _("First free place"))] + [
            (f"{n}:{line}", f"{n}{line}") for n, line in places
        ]

    def chosen_place(self) -> tuple[int | None, str | None]:
        value = self.cleaned_data.get("place") or ""
        if not value:
            return None, None
        number, line = value.split(":")
        return int(number), line


# --- boards ---------------------------------------------------------------------------------


class BoardConditionsForm(forms.Form):
    dealer = forms.ChoiceField(label=_("Dealer"), choices=Seat.choices)
    vulnerability = forms.ChoiceField(
        label=_("Vulnerability"), choices=Vulnerability.choices, required=False
    )


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
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("Same seed, same deals. Empty: random."),
    )
    replace = forms.BooleanField(label=_("Replace deals already there"), required=False)
