"""Project URLs. No language prefix: the language lives in a cookie (see middleware)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import set_language

from clubsite.accounts import account_link_views, two_factor_views
from clubsite.accounts.permissions import login_required, public
from clubsite.accounts.signin import SignInForm
from clubsite.members import views

club_patterns = (
    [
        path("members/", views.member_list, name="member_list"),
        path("members/new/", views.member_create, name="member_create"),
        path("members/export.csv", views.member_export, name="member_export"),
        path("members/<int:pk>/", views.member_detail, name="member_detail"),
        path("members/<int:pk>/edit/", views.member_edit, name="member_edit"),
        path("members/<int:pk>/renew/", views.licence_renew, name="licence_renew"),
        path("members/<int:pk>/payments/new/", views.payment_create, name="payment_create"),
        path("members/<int:pk>/account/", views.account_open, name="account_open"),
        path(
            "members/<int:pk>/account/resend/",
            views.account_link_resend,
            name="account_link_resend",
        ),
        path("account-link/<str:token>/", account_link_views.account_link, name="account_link"),
        path("categories/", views.categories, name="categories"),
        path("licences/renew/", views.licences_renew, name="licences_renew"),
        path("import/", views.roster_import, name="roster_import"),
        path("import/confirm/", views.roster_confirm, name="roster_confirm"),
        path("arrears/", views.arrears, name="arrears"),
        path("arrears/remind/", views.arrears_remind, name="arrears_remind"),
        path("arrears/reminders/", views.arrears_preview, name="arrears_preview"),
        path("arrears/reminders/sent/", views.arrears_sent, name="arrears_sent"),
        path("fees/", views.fee_schedule, name="fee_schedule"),
        path("settings/", views.club_settings, name="club_settings"),
        path("audit/", views.audit_log, name="audit_log"),
        path("me/", views.profile, name="profile"),
    ],
    "clubsite",
)

urlpatterns = [
    path("", views.home, name="home"),
    path("club/", include(club_patterns)),
    path("club/money/", include(("tournaments.urls.money", "money"))),
    path("club/uploads/", include(("tournaments.urls.uploads", "uploads"))),
    path("club/points/", include(("tournaments.urls.points", "points"))),
    path("laws/", include("laws.urls")),
    path("federation/", include(("federation.urls", "federation"))),
    path("director/", include(("tournaments.urls.director", "director"))),
    path("table/", include(("tournaments.urls.table", "table"))),
    path("results/", include(("tournaments.urls.public", "results"))),
    path("calendar/", include(("tournaments.urls.calendar", "calendar"))),
    path(
        "accounts/login/",
        public(auth_views.LoginView.as_view(authentication_form=SignInForm)),
        name="login",
    ),
    path("accounts/logout/", public(auth_views.LogoutView.as_view()), name="logout"),
    path("accounts/two-factor/", two_factor_views.verify, name="two_factor_verify"),
    path("accounts/two-factor/setup/", two_factor_views.setup, name="two_factor_setup"),
    path("accounts/two-factor/setup/qr.svg", two_factor_views.qr, name="two_factor_qr"),
    path("accounts/two-factor/codes/", two_factor_views.codes, name="two_factor_codes"),
    path("accounts/two-factor/manage/", two_factor_views.manage, name="two_factor_manage"),
    path("accounts/two-factor/off/", two_factor_views.turn_off, name="two_factor_off"),
    path(
        "accounts/password/reset/",
        public(auth_views.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        public(auth_views.PasswordResetDoneView.as_view()),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        public(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        public(auth_views.PasswordResetCompleteView.as_view()),
        name="password_reset_complete",
    ),
    path(
        "accounts/password/change/",
        login_required(auth_views.PasswordChangeView.as_view()),
        name="password_change",
    ),
    path(
        "accounts/password/change/done/",
        login_required(auth_views.PasswordChangeDoneView.as_view()),
        name="password_change_done",
    ),
    path("i18n/setlang/", public(set_language), name="set_language"),
    path("admin/", admin.site.urls),
]
