"""URLs of the master points scale (namespace "points")."""

from django.urls import path

from tournaments.views.office import points

urlpatterns = [
    path("", points.scale, name="scale"),
]
