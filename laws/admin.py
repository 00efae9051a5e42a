"""Read-mostly admin for the imported Laws (the importer is the source of truth)."""

from django.contrib import admin

from .models import Edition, Law, Term


@admin.register(Edition)
class EditionAdmin(admin.ModelAdmin):
    list_display = ["code", "language", "year", "title", "partial"]


@admin.register(Law)
class LawAdmin(admin.ModelAdmin):
    list_display = ["edition", "number", "title"]
    list_filter = ["edition"]
    search_fields = ["title"]


@admin.register(Term)
class TermAdmin(admin.ModelAdmin):
    list_display = ["edition", "term"]
    list_filter = ["edition"]
