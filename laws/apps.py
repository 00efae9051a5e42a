from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LawsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "laws"
    verbose_name = _("Laws of Duplicate Bridge")
