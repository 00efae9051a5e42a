"""Admin: the superuser's back door; secretaries work in the club pages."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Category, Club, Fee, Licence, Member, Payment, Season


@admin.register(Member)
class MemberAdmin(SimpleHistoryAdmin):
    list_display = ("last_name", "first_name", "licence_number", "category", "status", "is_guest")
    list_filter = ("status", "is_guest", "category")
    search_fields = ("last_name", "first_name", "licence_number", "search_text")


@admin.register(Licence)
class LicenceAdmin(SimpleHistoryAdmin):
    list_display = ("member", "season", "status", "fee", "paid")
    list_filter = ("season", "status", "paid")


@admin.register(Payment)
class PaymentAdmin(SimpleHistoryAdmin):
    list_display = ("member", "season", "kind", "amount", "method", "paid_on")
    list_filter = ("season", "kind", "method")


admin.site.register([Club, Season, Category, Fee])
