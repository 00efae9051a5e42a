"""URLs of table money for the secretary and the players (namespace "money"); the session's
door list and cash sheet are director pages (``urls.director``)."""

from django.urls import path

from tournaments.views.office import money as money_office

urlpatterns = [
    path("", money_office.report, name="report"),
    path("report.csv", money_office.report_csv, name="report_csv"),
    path("report.xlsx", money_office.report_xlsx, name="report_xlsx"),
    path("unpaid/", money_office.unpaid, name="unpaid"),
    path("unpaid.csv", money_office.unpaid_csv, name="unpaid_csv"),
    path("unpaid.xlsx", money_office.unpaid_xlsx, name="unpaid_xlsx"),
    path("rates/", money_office.rates, name="rates"),
    path("balances/", money_office.balances, name="balances"),
    path("balances/<int:pk>/", money_office.balance, name="balance"),
    path("mine/", money_office.mine, name="mine"),
]
