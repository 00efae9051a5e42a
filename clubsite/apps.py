from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    name = "clubsite"
    verbose_name = _("Club")

    def ready(self):
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from .signin import count_account_failure
        from .staff_sessions import stamp_sign_in

        user_login_failed.connect(count_account_failure, dispatch_uid="count_account_failure")
        user_logged_in.connect(stamp_sign_in, dispatch_uid="stamp_staff_sign_in")
