"""URLs of the public results pages (namespace "results")."""

from django.urls import path, re_path

from tournaments.views.office import pdfs
from tournaments.views.public import hands, room
from tournaments.views.public import results as public
from tournaments.views.teams import public as teams_public

urlpatterns = [
    path("", public.index, name="index"),
    path("me/", public.my_results, name="mine"),
    path("season/", public.season_ranking, name="season"),
    path("season/<int:pk>/", public.season_ranking, name="season_for"),
    path("player/<int:pk>/", public.player, name="player"),
    # the room screen's secret link (no tournament's page: a link token is 20+ characters)
    re_path(r"^room/(?P<token>[A-Za-z0-9_-]{20,64})/$", room.screen, name="room"),
    path("<slug:slug>/", public.tournament, name="tournament"),
    path("<slug:slug>/pdf/", pdfs.published_pdf, name="pdf"),
    path("<slug:slug>/overall/", public.event_ranking, name="event"),
    path("<slug:slug>/teams/", teams_public.standings, name="teams"),
    path("<slug:slug>/teams/schedule/", teams_public.schedule, name="teams_schedule"),
    path("<slug:slug>/teams/round/<int:number>/", teams_public.round_results, name="teams_round"),
    path("<slug:slug>/teams/match/<int:pk>/", teams_public.match, name="teams_match"),
    path("<slug:slug>/teams/bracket/", teams_public.bracket, name="teams_bracket"),
    path("<slug:slug>/<int:session>/section/<str:letter>/", public.section_ranking, name="section"),
    path("<slug:slug>/<int:session>/pool/<str:pool>/", public.pool_ranking, name="pool"),
    path("<slug:slug>/<int:session>/pair/<int:entry>/", public.scorecard, name="scorecard"),
    path("<slug:slug>/<int:session>/hands.pbn", hands.session_pbn, name="hands"),
    path("<slug:slug>/<int:session>/board/<str:pool>/<int:number>/", public.board, name="board"),
]
