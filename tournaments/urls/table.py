"""URLs of the table devices (namespace "table"). The link URL comes last: it takes any word (a
table card's token)."""

from django.urls import path

from tournaments.views.table import (
    app as table_app,
)
from tournaments.views.table import (
    corrections as table_corrections,
)
from tournaments.views.table import (
    entry as table,
)
from tournaments.views.table import (
    signin as table_signin,
)
from tournaments.views.table import (
    teams as teams_table,
)

urlpatterns = [
    path("", table_signin.index, name="index"),
    path("sw.js", table_app.service_worker, name="service_worker"),
    path("manifest.webmanifest", table_app.manifest, name="manifest"),
    path("offline/", table_app.offline, name="offline"),
    path("leave/", table_signin.leave, name="leave"),
    path("play/", table.home, name="home"),
    path("play/match/", teams_table.match, name="match"),
    path("play/match/lineups/", teams_table.lineups, name="lineups"),
    path("play/<int:round>/<int:board>/", table.board, name="board"),
    path("preview/", table.preview, name="preview"),
    path("result/", table.result, name="result"),
    path("confirm/<int:pk>/", table.confirm, name="confirm"),
    path("correct/<int:pk>/", table_corrections.correct, name="correct"),
    path("dispute/<int:pk>/", table_corrections.dispute, name="dispute"),
    path("call/", table_signin.call, name="call"),
    path("<str:token>/", table_signin.enter, name="enter"),
]
