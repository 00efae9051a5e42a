"""URLs of the director pages (namespace "director")."""

from django.urls import path

from tournaments.views.director import (
    disputes as director_disputes,
)
from tournaments.views.director import (
    events as director,
)
from tournaments.views.director import (
    handicaps as director_handicaps,
)
from tournaments.views.director import (
    individual as director_individual,
)
from tournaments.views.director import (
    printing as director_print,
)
from tournaments.views.director import (
    reinstate as director_reinstate,
)
from tournaments.views.director import (
    results_mail,
)
from tournaments.views.director import (
    room as director_room,
)
from tournaments.views.director import (
    run as director_run,
)
from tournaments.views.director import (
    sessions as director_sessions,
)
from tournaments.views.director import (
    setup as director_setup,
)
from tournaments.views.director import (
    table_mode as director_table_mode,
)
from tournaments.views.office import points, table_money
from tournaments.views.public import online_entry
from tournaments.views.teams import director as teams_director
from tournaments.views.teams import knockout as teams_knockout

urlpatterns = [
    path("", director.index, name="index"),
    path("new/", director.tournament_create, name="tournament_create"),
    path("<int:pk>/", director.tournament_detail, name="tournament"),
    path("<int:pk>/edit/", director.tournament_edit, name="tournament_edit"),
    path("<int:pk>/entries/", director.entries, name="entries"),
    path("<int:pk>/entries/search/", director.member_search, name="member_search"),
    path("<int:pk>/handicaps/", director_handicaps.handicaps, name="handicaps"),
    path("<int:pk>/audit/", director.audit, name="audit"),
    path("<int:pk>/audit/csv/", director.audit_csv, name="audit_csv"),
    path("<int:pk>/publish/provisional/", director.publish_provisional, name="publish_provisional"),
    path("<int:pk>/publish/final/", director.publish_final, name="publish_final"),
    path("<int:pk>/points/award/", points.award, name="points_award"),
    path("<int:pk>/mail/", results_mail.preview, name="results_mail"),
    path("<int:pk>/mail/send/", results_mail.send, name="results_mail_send"),
    path("<int:pk>/registrations/", online_entry.director_list, name="registrations"),
    path("<int:pk>/registrations/take/", online_entry.take_into_session, name="registrations_take"),
    path(
        "registrations/<int:pk>/cancel/", online_entry.director_cancel, name="registration_cancel"
    ),
    path("entries/<int:pk>/withdraw/", director.entry_withdraw, name="entry_withdraw"),
    path("entries/<int:pk>/reinstate/", director_reinstate.entry_reinstate, name="entry_reinstate"),
    path("entries/<int:pk>/substitute/", director.entry_substitute, name="entry_substitute"),
    # sessions and sections
    path("sessions/<int:pk>/", director_setup.session_detail, name="session"),
    path("sessions/<int:pk>/sections/new/", director_setup.section_add, name="section_add"),
    path("sessions/<int:pk>/start/", director_setup.session_start, name="session_start"),
    path("sessions/<int:pk>/finish/", director_setup.session_finish, name="session_finish"),
    path("sessions/<int:pk>/analyse/", director_setup.analyse, name="analyse"),
    path(
        "sessions/<int:pk>/seat-from-previous/",
        director_sessions.seat_from_previous,
        name="seat_from_previous",
    ),
    path("sections/<int:pk>/movement/", director_setup.movement, name="movement"),
    path(
        "sections/<int:pk>/movement/individual/",
        director_individual.movement,
        name="individual_movement",
    ),
    path(
        "sections/<int:pk>/print/tables/individual/",
        director_individual.table_cards,
        name="individual_tables",
    ),
    path(
        "sections/<int:pk>/print/players/individual/",
        director_individual.player_cards,
        name="individual_players",
    ),
    path("sections/<int:pk>/seating/", director_setup.seating, name="seating"),
    path("sections/<int:pk>/late/", director_setup.late_entry, name="late_entry"),
    path("sections/<int:pk>/rounds/", director_setup.change_rounds, name="change_rounds"),
    path("sections/<int:pk>/boards/", director_setup.boards, name="boards"),
    path(
        "sections/<int:pk>/boards/<int:board>/conditions/",
        director_setup.board_conditions,
        name="board_conditions",
    ),
    path("sections/<int:pk>/boards/import/", director_setup.pbn_import, name="pbn_import"),
    path("sections/<int:pk>/boards/deal/", director_setup.deal, name="deal"),
    # table money: the door list and the cash sheet
    path("sessions/<int:pk>/fees/", table_money.door, name="table_fees"),
    path("sessions/<int:pk>/fees/update/", table_money.door_update, name="table_fees_update"),
    path("fees/<int:pk>/pay/", table_money.fee_pay, name="fee_pay"),
    path("fees/<int:pk>/refund/", table_money.fee_refund, name="fee_refund"),
    path("sessions/<int:pk>/cash/", table_money.sheet, name="cash_sheet"),
    path("sessions/<int:pk>/cash/close/", table_money.sheet_close, name="cash_close"),
    path("sessions/<int:pk>/cash/reopen/", table_money.sheet_reopen, name="cash_reopen"),
    # print views
    path("sections/<int:pk>/print/tables/", director_print.table_cards, name="print_tables"),
    path("sections/<int:pk>/print/pairs/", director_print.pair_cards, name="print_pairs"),
    path("sections/<int:pk>/print/boards/", director_print.board_lists, name="print_boards"),
    path("sessions/<int:pk>/print/sheet/", director_print.session_sheet, name="print_sheet"),
    # running the session
    path("sessions/<int:pk>/console/", director_run.console, name="console"),
    path("sessions/<int:pk>/console/line/", director_run.find_line, name="find_line"),
    path("sessions/<int:pk>/console/pin/", director_table_mode.table_pin, name="table_pin"),
    path("calls/<int:pk>/answer/", director_table_mode.answer_call, name="answer_call"),
    # the room screen: its link, the round clock, the hidden rounds
    path("sessions/<int:pk>/room/", director_room.room, name="room"),
    path("sessions/<int:pk>/room/clock/", director_room.room_clock_change, name="room_clock"),
    path("sessions/<int:pk>/room/settings/", director_room.room_settings, name="room_settings"),
    path("sessions/<int:pk>/penalties/", director_run.penalties, name="penalties"),
    path(
        "sections/<int:pk>/line/<int:rnd>/<int:table>/<int:board>/", director_run.line, name="line"
    ),
    # the adjusted-score form's law hint, following what is typed (htmx)
    path("laws/hint/", director_run.law_hint, name="law_hint"),
    path("results/<int:pk>/resolve/", director_run.resolve, name="resolve"),
    path("results/<int:pk>/confirm/", director_run.confirm, name="confirm"),
    path("results/<int:pk>/keep/", director_disputes.keep_disputed, name="keep_disputed"),
    # teams events
    path("<int:pk>/teams/", teams_director.settings, name="teams"),
    path("<int:pk>/teams/start/", teams_director.start, name="teams_start"),
    path("<int:pk>/teams/draw/", teams_director.draw, name="teams_draw"),
    path(
        "<int:pk>/teams/match/<int:match>/lineups/",
        teams_director.match_lineups,
        name="teams_lineups",
    ),
    path("<int:pk>/teams/knockout/draw/", teams_knockout.draw, name="knockout_draw"),
    path("<int:pk>/teams/knockout/seeds/", teams_knockout.seeds, name="knockout_seeds"),
    path(
        "<int:pk>/teams/knockout/<int:match>/carry/",
        teams_knockout.carry_over,
        name="knockout_carry",
    ),
    path(
        "<int:pk>/teams/knockout/<int:match>/tie/", teams_knockout.tie_segment, name="knockout_tie"
    ),
]
