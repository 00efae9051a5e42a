"""Admin: the superuser's back door; secretaries work in the club pages."""

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.http import Http404
from simple_history.admin import SimpleHistoryAdmin

from .models import Category, Club, ClubRole, Fee, Licence, Member, Payment, Season


class ClubHistoryAdmin(SimpleHistoryAdmin):
    """A row's history at its own club's host only: the history tables are not scoped, and
    the history page rebuilds a row it cannot find from them."""

    def history_view(self, request, object_id, extra_context=None):
        if self.get_object(request, unquote(object_id)) is None:
            raise Http404
        return super().history_view(request, object_id, extra_context)


@admin.register(Member)
class MemberAdmin(ClubHistoryAdmin):
    list_display = ("last_name", "first_name", "licence_number", "category", "status", "is_guest")
    list_filter = ("status", "is_guest", "category")
    search_fields = ("last_name", "first_name", "licence_number", "search_text")


@admin.register(Licence)
class LicenceAdmin(ClubHistoryAdmin):
    list_display = ("member", "season", "status", "fee", "paid")
    list_filter = ("season", "status", "paid")


@admin.register(Payment)
class PaymentAdmin(ClubHistoryAdmin):
    list_display = ("member", "season", "kind", "amount", "method", "paid_on")
    list_filter = ("season", "kind", "method")


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    """Who holds which role at the club of the admin's host."""

    list_display = ("user", "role")
    list_filter = ("role",)
    search_fields = ("user__username", "user__first_name", "user__last_name")


admin.site.register([Club, Season, Category, Fee])
