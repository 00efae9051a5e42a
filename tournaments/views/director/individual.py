"""The director's set-up of an individual event: the movement for the players present
(8, 12 or 16: the course's position table for 16, cyclic for 8 and 12), the table cards
that show the four seats of every round and each player's movement card."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubsite.accounts.permissions import director_required
from tournaments.models import Entry, EntryStatus, EventType, Seating
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual
from tournaments.services.setup import movements as section_movements
from tournaments.views.director.common import get_section


class IndividualMovementForm(forms.Form):
    players = forms.TypedChoiceField(
        label=gettext_lazy("Players"),
        coerce=int,
        choices=[(n, n) for n in individual.SUPPORTED_PLAYERS],
    )
    boards_per_round = forms.IntegerField(
        label=gettext_lazy("Boards per round"),
        min_value=1,
        max_value=4,
        initial=2,
        help_text=gettext_lazy(
            "16 players: the course's position table plays 2 boards a round (30 boards)."
        ),
    )
    reason = forms.CharField(label=gettext_lazy("Why change"), max_length=300, required=False)

    def clean(self):
        data = super().clean()
        if data.get("players") == 16 and data.get("boards_per_round") not in (None, 2):
            self.add_error(
                "boards_per_round", _("With 16 players the movement plays 2 boards a round.")
            )
        return data


def is_individual_event(section) -> bool:
    return section.session.tournament.event_type == EventType.INDIVIDUAL


def _available(section) -> list[Entry]:
    elsewhere = (
        Seating.objects.filter(session_id=section.session_id)
        .exclude(section=section)
        .values("entry_id")
    )
    return list(
        Entry.objects.filter(tournament_id=section.session.tournament_id, status=EntryStatus.ACTIVE)
        .exclude(pk__in=elsewhere)
        .order_by("id")
    )


@director_required
def movement(request, pk):
    """Seat the players present in an individual movement; player numbers follow the order of
    registration (the seating page changes them)."""
    section = get_section(pk)
    if not is_individual_event(section):
        return redirect("director:movement", section.pk)
    available = _available(section)
    if request.method == "POST":
        wanted = {int(i) for i in request.POST.getlist("entries") if i.isdigit()}
        chosen = [e for e in available if e.pk in wanted]
    else:
        chosen = available
    fitting = next((n for n in individual.SUPPORTED_PLAYERS if n >= len(chosen)), 16)
    form = IndividualMovementForm(
        request.POST or None, initial={"players": fitting, "boards_per_round": 2}
    )
    if request.method == "POST" and form.is_valid():
        players = form.cleaned_data["players"]
        try:
            if section.session.tournament.method.is_teams:  # scored as pairs are
                raise TournamentError(
                    _(
                        "Individual events are scored in matchpoints, Butler "
                        "or cross-IMPs: change the tournament's scoring "
                        "method first."
                    )
                )
            if len(chosen) != players:
                raise TournamentError(
                    _(
                        "The movement is for %(players)s players and %(count)s are present: "
                        "register or leave out players (substitutes) to match."
                    )
                    % {"players": players, "count": len(chosen)}
                )
            movement_dict = individual.build_movement(
                players, form.cleaned_data["boards_per_round"]
            )
            if Seating.objects.filter(section=section).exists():
                setup.change_movement(
                    section, movement_dict, user=request.user, reason=form.cleaned_data["reason"]
                )
            else:
                setup.seat_section(section, movement_dict, chosen)
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("Movement chosen and players seated."))
            return redirect("director:seating", section.pk)
    return render(
        request,
        "tournaments/director/movement_individual.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "available": available,
            "chosen": {e.pk for e in chosen},
            "count": len(chosen),
            "form": form,
            "supported": individual.SUPPORTED_PLAYERS,
            "current": section_movements.movement_summary(section.movement)
            if section.movement
            else None,
        },
        status=400 if request.method == "POST" else 200,
    )


@director_required
def table_cards(request, pk):
    """Table cards of an individual: for each round the four seats, numbers and names."""
    section = get_section(pk)
    return render(
        request,
        "tournaments/director/print_tables_individual.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "cards": individual.table_cards(section),
        },
    )


@director_required
def player_cards(request, pk):
    """Player movement cards of an individual: for each round the table, seat, partner,
    opponents and boards of one player (what the pair cards are to a pairs event)."""
    section = get_section(pk)
    return render(
        request,
        "tournaments/director/print_players_individual.html",
        {
            "section": section,
            "session": section.session,
            "tournament": section.session.tournament,
            "cards": individual.player_cards(section),
        },
    )
