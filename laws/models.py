"""Stored editions of the Laws, as produced by ``laws.importer`` and ``import_laws``.

The tree is stored flat (one row per law part, in reading order) with its HTML
pre-rendered at import time, so a law page is two queries and no parsing.
"""

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Edition(models.Model):
    code = models.SlugField(_("code"), unique=True)  # "es-2017"
    language = models.CharField(_("language"), max_length=5)
    year = models.PositiveSmallIntegerField(_("year"))
    title = models.CharField(_("title"), max_length=200)
    coverage = models.CharField(_("coverage"), max_length=200)
    source_file = models.CharField(_("source file"), max_length=200)
    partial = models.BooleanField(_("partial"), default=False)
    position = models.PositiveSmallIntegerField(default=0)
    # Edition-level texts: introduction, its notes, national regulations (es-2017 appendix).
    extras = models.JSONField(default=dict)
    content_hash = models.CharField(max_length=64, default="")

    class Meta:
        ordering = ["position"]
        verbose_name = _("edition")
        verbose_name_plural = _("editions")

    def __str__(self) -> str:
        return self.code

    def get_absolute_url(self) -> str:
        return reverse("laws:toc", args=[self.code])


class Chapter(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="chapters")
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=200)

    class Meta:
        ordering = ["edition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "number"], name="laws_chapter_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.edition.code} {self.number}. {self.title}"


class Law(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="laws")
    chapter = models.ForeignKey(Chapter, null=True, on_delete=models.SET_NULL, related_name="laws")
    number = models.PositiveSmallIntegerField()
    title = models.CharField(max_length=300)
    group = models.CharField(max_length=300, blank=True)
    commentary = models.JSONField(default=list)  # paragraphs of the 2003 course

    class Meta:
        ordering = ["edition", "number"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "number"], name="laws_law_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.edition.code} {self.number}. {self.title}"

    def get_absolute_url(self) -> str:
        return reverse("laws:law", args=[self.edition.code, self.number])


class Node(models.Model):
    """A law (path "") or one of its sections/items, in reading order."""

    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="nodes")
    law = models.ForeignKey(Law, on_delete=models.CASCADE, related_name="nodes")
    anchor = models.CharField(max_length=100, unique=True)  # es-2017/law-12/C/1/e
    path = models.CharField(max_length=40, blank=True)  # C/1/e
    kind = models.CharField(max_length=12)
    label = models.CharField(max_length=8)
    source_label = models.CharField(max_length=8, blank=True)
    title = models.CharField(max_length=300, blank=True)
    depth = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    repaired = models.BooleanField(default=False)
    content = models.JSONField(default=list)  # blocks, notes, footnote keys, refs
    html = models.TextField(blank=True)  # rendered body (paragraphs, tables, notes)
    search_text = models.TextField(blank=True)  # plain text for full-text search
    first_line = models.PositiveIntegerField(default=0)
    last_line = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["edition", "law__number", "position"]
        indexes = [models.Index(fields=["law", "position"])]

    def __str__(self) -> str:
        return self.anchor

    def get_absolute_url(self) -> str:
        url = reverse("laws:law", args=[self.edition.code, self.law.number])
        return f"{url}#{self.html_id}" if self.path else url

    @property
    def display_label(self) -> str:
        """How the label is printed: ``A.``, ``1.``, ``(a)``, ``(i)``."""
        if self.kind in ("section", "item"):
            return f"{self.label}."
        if self.kind in ("subitem", "subsubitem"):
            return f"({self.label})"
        return ""

    @property
    def html_id(self) -> str:
        return self.path.replace("/", "") or "top"


class Term(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="terms")
    slug = models.SlugField(max_length=100)
    term = models.CharField(max_length=200)
    text = models.TextField()
    html = models.TextField(blank=True)
    aliases = models.JSONField(default=list)
    see = models.CharField(max_length=200, blank=True)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["edition", "position"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "slug"], name="laws_term_unique"),
        ]

    def __str__(self) -> str:
        return self.term


class Footnote(models.Model):
    edition = models.ForeignKey(Edition, on_delete=models.CASCADE, related_name="footnotes")
    key = models.CharField(max_length=20)
    marker = models.CharField(max_length=10)
    html = models.TextField()

    class Meta:
        ordering = ["edition", "id"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "key"], name="laws_footnote_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.edition.code}#fn-{self.key}"
