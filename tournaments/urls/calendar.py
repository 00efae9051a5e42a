"""URLs of the club's calendar and online entry (namespace "calendar")."""

from django.urls import path

from tournaments.views.public import calendar, online_entry

urlpatterns = [
    path("", calendar.index, name="index"),
    path("calendar.ics", calendar.feed, name="feed"),
    path("entry/<int:pk>/cancel/", online_entry.cancel, name="cancel"),
    path("partner/<int:pk>/withdraw/", online_entry.partner_withdraw, name="partner_withdraw"),
    path("<slug:slug>/", calendar.event, name="event"),
    path("<slug:slug>/enter/", online_entry.enter, name="enter"),
    path("<slug:slug>/partner/", online_entry.partner_wanted, name="partner_wanted"),
    path("<slug:slug>/partner-search/", online_entry.partner_search, name="partner_search"),
]
