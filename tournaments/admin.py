"""Admin: the superuser's back door; directors work in the tournament pages."""

from django.contrib import admin

from .models import (
    AuditEntry,
    Board,
    Entry,
    EntryPlayer,
    Penalty,
    Result,
    SeasonRankingRule,
    Seating,
    Section,
    Session,
    StoredRanking,
    TableCode,
    Tournament,
)


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0
    fields = ("number", "starts_at", "rounds", "boards_per_round", "status")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "event_type", "scoring_method", "status", "published_at")
    list_filter = ("status", "event_type", "scoring_method")
    search_fields = ("name", "venue")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [SessionInline]


@admin.register(Section)
class SectionAdmin(admin.ModelAdmin):
    list_display = ("session", "letter", "pool", "tables", "board_offset")


class EntryPlayerInline(admin.TabularInline):
    model = EntryPlayer
    extra = 0
    autocomplete_fields = ("member",)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("__str__", "tournament", "status", "late")
    list_filter = ("status", "late")
    search_fields = ("display_name", "name")
    inlines = [EntryPlayerInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shown, never changed here: results, penalties and stored rankings change only through
    the director's pages, which check the Law 79C period, write the audit trail (who, when,
    before, after, why) and re-classify. An admin edit would do none of that."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = (
        "section",
        "board",
        "round",
        "table",
        "contract",
        "declarer",
        "tricks",
        "ns_score",
        "status",
        "confirmed",
        "entered_at",
    )
    list_filter = ("status", "confirmed")


@admin.register(Penalty)
class PenaltyAdmin(ReadOnlyAdmin):
    list_display = ("session", "entry", "fraction_of_top", "board_number", "law", "given_by")


@admin.register(StoredRanking)
class StoredRankingAdmin(ReadOnlyAdmin):
    list_display = ("tournament", "session", "scope", "place", "entry", "points", "percentage")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "tournament", "action", "user", "table_code", "override")
    list_filter = ("action", "override")

    def has_change_permission(self, request, obj=None):
        return False  # the trail is a record: never edited

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TableCode)
class TableCodeAdmin(admin.ModelAdmin):
    list_display = ("code", "section", "table", "active")
    list_filter = ("active",)


admin.site.register([Board, Seating])


@admin.register(SeasonRankingRule)
class SeasonRankingRuleAdmin(admin.ModelAdmin):
    """The club's season ranking rule (shown on the public season ranking page)."""

    list_display = ("season", "rule", "n", "position_points")
