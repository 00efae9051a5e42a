"""URLs of the club's calendar and online entry (namespace "calendar")."""

from django.urls import path

from ..views import calendar, registrations

urlpatterns = [
    path("", calendar.index, name="index"),
    path("calendar.ics", calendar.feed, name="feed"),
    path("entry/<int:pk>/cancel/", registrations.cancel, name="cancel"),
    path("partner/<int:pk>/withdraw/", registrations.partner_withdraw, name="partner_withdraw"),
    path("<slug:slug>/", calendar.event, name="event"),
    path("<slug:slug>/enter/", registrations.enter, name="enter"),
    path("<slug:slug>/partner/", registrations.partner_wanted, name="partner_wanted"),
]
