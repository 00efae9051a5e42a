from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    default = True
    name = "clubsite"
    verbose_name = _("Club")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in, user_login_failed
        from django.db.backends.signals import connection_created
        from django.db.models.signals import post_migrate

        from clubsite import tenancy
        from clubsite.accounts.signin import count_account_failure
        from clubsite.accounts.staff_sessions import stamp_sign_in
        from clubsite.ops.clubs import ensure_default_club
        from clubsite.web.collation import register_sqlite

        user_login_failed.connect(count_account_failure, dispatch_uid="count_account_failure")
        user_logged_in.connect(stamp_sign_in, dispatch_uid="stamp_staff_sign_in")
        # names sorted by the language on SQLite too (PostgreSQL has the ICU collations)
        connection_created.connect(register_sqlite, dispatch_uid="register_sqlite_collations")
        # the club a host naming no club reaches exists after a flush too (tests, restore)
        post_migrate.connect(ensure_default_club, sender=self, dispatch_uid="ensure_default_club")
        tenancy.connect_job_signals()


class SuperuserAdminConfig(admin_apps.AdminConfig):
    """Django's admin, for the installation's superusers only."""

    default = False
    default_site = "clubsite.web.admin_site.SuperuserAdminSite"
