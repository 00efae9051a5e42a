"""URLs of the master points scale (namespace "points")."""

from django.urls import path

from ..views import points

urlpatterns = [
    path("", points.scale, name="scale"),
]
