"""URLs of a federation's officers (namespace "federation"), on every club's host."""

from django.urls import path

from federation import views

urlpatterns = [
    path("", views.index, name="index"),
    path("<str:federation>/", views.clubs, name="clubs"),
    path("<str:federation>/results/", views.results, name="results"),
    path("<str:federation>/licences/", views.licences, name="licences"),
    path("<str:federation>/ranking/", views.ranking, name="ranking"),
    path("<str:federation>/clubs/new/", views.club_new, name="club_new"),
    path("<str:federation>/clubs/<int:pk>/secretary/", views.club_secretary, name="club_secretary"),
    path("<str:federation>/clubs/<int:pk>/archive/", views.club_archive, name="club_archive"),
    path("<str:federation>/archives/<int:pk>/", views.archive_download, name="archive_download"),
    path("<str:federation>/clubs/<int:pk>/licences.csv", views.club_licences, name="club_licences"),
    path("<str:federation>/clubs/<int:pk>/leave/", views.club_leave, name="club_leave"),
]
