"""The admin site: the superuser's back door across the installation's clubs (a staff flag
alone would open every club's rows and every account)."""

from django.contrib import admin


class SuperuserAdminSite(admin.AdminSite):
    def has_permission(self, request):
        return request.user.is_active and request.user.is_superuser
