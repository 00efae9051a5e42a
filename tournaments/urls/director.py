"""URLs of the director pages (namespace "director")."""

from django.urls import path

from ..views import (
    director,
    director_individual,
    director_print,
    director_run,
    director_setup,
    teams_director,
)

urlpatterns = [
    path("", director.index, name="index"),
    path("new/", director.tournament_create, name="tournament_create"),
    path("<int:pk>/", director.tournament_detail, name="tournament"),
    path("<int:pk>/edit/", director.tournament_edit, name="tournament_edit"),
    path("<int:pk>/entries/", director.entries, name="entries"),
    path("<int:pk>/entries/search/", director.member_search, name="member_search"),
    path("<int:pk>/audit/", director.audit, name="audit"),
    path("<int:pk>/publish/provisional/", director.publish_provisional,
         name="publish_provisional"),
    path("<int:pk>/publish/final/", director.publish_final, name="publish_final"),
    path("entries/<int:pk>/withdraw/", director.entry_withdraw, name="entry_withdraw"),
    path("entries/<int:pk>/substitute/", director.entry_substitute, name="entry_substitute"),
    # sessions and sections
    path("sessions/<int:pk>/", director_setup.session_detail, name="session"),
    path("sessions/<int:pk>/sections/new/", director_setup.section_add, name="section_add"),
    path("sessions/<int:pk>/start/", director_setup.session_start, name="session_start"),
    path("sessions/<int:pk>/finish/", director_setup.session_finish, name="session_finish"),
    path("sessions/<int:pk>/analyse/", director_setup.analyse, name="analyse"),
    path("sections/<int:pk>/movement/", director_setup.movement, name="movement"),
    path("sections/<int:pk>/movement/individual/", director_individual.movement,
         name="individual_movement"),
    path("sections/<int:pk>/print/tables/individual/", director_individual.table_cards,
         name="individual_tables"),
    path("sections/<int:pk>/seating/", director_setup.seating, name="seating"),
    path("sections/<int:pk>/late/", director_setup.late_entry, name="late_entry"),
    path("sections/<int:pk>/rounds/", director_setup.change_rounds, name="change_rounds"),
    path("sections/<int:pk>/boards/", director_setup.boards, name="boards"),
    path("sections/<int:pk>/boards/<int:board>/conditions/", director_setup.board_conditions,
         name="board_conditions"),
    path("sections/<int:pk>/boards/import/", director_setup.pbn_import, name="pbn_import"),
    path("sections/<int:pk>/boards/deal/", director_setup.deal, name="deal"),
    # print views
    path("sections/<int:pk>/print/tables/", director_print.table_cards, name="print_tables"),
    path("sections/<int:pk>/print/pairs/", director_print.pair_cards, name="print_pairs"),
    path("sections/<int:pk>/print/boards/", director_print.board_lists, name="print_boards"),
    path("sessions/<int:pk>/print/sheet/", director_print.session_sheet, name="print_sheet"),
    # running the session
    path("sessions/<int:pk>/console/", director_run.console, name="console"),
    path("sessions/<int:pk>/console/line/", director_run.find_line, name="find_line"),
    path("sessions/<int:pk>/penalties/", director_run.penalties, name="penalties"),
    path("sections/<int:pk>/line/<int:rnd>/<int:table>/<int:board>/", director_run.line,
         name="line"),
    path("results/<int:pk>/resolve/", director_run.resolve, name="resolve"),
    path("results/<int:pk>/confirm/", director_run.confirm, name="confirm"),
    # teams events
    path("<int:pk>/teams/", teams_director.settings, name="teams"),
    path("<int:pk>/teams/start/", teams_director.start, name="teams_start"),
    path("<int:pk>/teams/draw/", teams_director.draw, name="teams_draw"),
]
