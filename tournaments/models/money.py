"""Table money: what each player pays to play a session, how it was paid, the members'
prepaid balances and each session's cash sheet.

The rules live in ``services.table_fees`` (charging, paying, refunds, balances) and
``services.cash_sheet`` (the sheet's figures, closing and reopening). Amounts are
``Decimal`` in cents everywhere.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from clubsite.models import Category, Member, Season
from clubsite.tenancy import club_manager
from clubsite.web.collation import collated

from .event import Session


class FeeCategory(models.TextChoices):
    MEMBER = "member", pgettext_lazy("table fee category", "Member")
    GUEST = "guest", pgettext_lazy("table fee category", "Guest")
    JUNIOR = "junior", pgettext_lazy("table fee category", "Junior")
    FREE = "free", pgettext_lazy("table fee category", "Free entry")


class TableMethod(models.TextChoices):
    CASH = "cash", _("Cash")
    CARD = "card", _("Card")
    TRANSFER = "transfer", _("Bank transfer")
    PREPAID = "prepaid", _("Prepaid balance")


class TableFeeRates(models.Model):
    """A season's table fees: one amount per category, which member categories count as
    junior, which play free (their membership includes the table fee), and whether a
    prepaid balance may go below zero."""

    season = models.OneToOneField(
        Season, verbose_name=_("season"), on_delete=models.CASCADE, related_name="table_fee_rates"
    )
    member_fee = models.DecimalField(_("member"), max_digits=7, decimal_places=2, default=0)
    guest_fee = models.DecimalField(_("guest"), max_digits=7, decimal_places=2, default=0)
    junior_fee = models.DecimalField(_("junior"), max_digits=7, decimal_places=2, default=0)
    junior_categories = models.ManyToManyField(
        Category,
        verbose_name=_("junior categories"),
        blank=True,
        related_name="+",
        help_text=_("Members of these categories pay the junior fee."),
    )
    free_categories = models.ManyToManyField(
        Category,
        verbose_name=_("categories that play free"),
        blank=True,
        related_name="+",
        help_text=_("Their membership includes the table fee: their entries are free."),
    )
    overdraft_allowed = models.BooleanField(
        _("prepaid balances may go below zero"),
        default=False,
        help_text=_("Otherwise a table fee is only drawn from a balance that covers it."),
    )

    objects = club_manager("season__club")

    class Meta:
        verbose_name = _("table fees")
        verbose_name_plural = _("table fees")

    def __str__(self) -> str:
        return str(self.season)


class TableFee(models.Model):
    """One player's fee for one session: charged once (the database refuses a second)."""

    session = models.ForeignKey(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="table_fees"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("player"), on_delete=models.PROTECT, related_name="table_fees"
    )
    category = models.CharField(_("fee category"), max_length=8, choices=FeeCategory.choices)
    amount = models.DecimalField(_("amount"), max_digits=7, decimal_places=2)
    method = models.CharField(_("paid by"), max_length=8, choices=TableMethod.choices, blank=True)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("marked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    voided_at = models.DateTimeField(
        _("cancelled at"),
        null=True,
        blank=True,
        help_text=_(
            "The player no longer plays the session; the fee is kept, with its "
            "payments and refunds, but nothing is due."
        ),
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["session", *collated("member__last_name", "member__first_name")]
        verbose_name = _("table fee")
        verbose_name_plural = _("table fees")
        constraints = [
            models.UniqueConstraint(fields=["session", "member"], name="one_table_fee"),
            models.CheckConstraint(condition=Q(amount__gte=0), name="table_fee_not_negative"),
            models.CheckConstraint(
                condition=(Q(method="") & Q(paid_at__isnull=True))
                | (~Q(method="") & Q(paid_at__isnull=False)),
                name="table_fee_paid_has_method",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session} · {self.member} · {self.amount}"

    @property
    def is_paid(self) -> bool:
        return bool(self.method)

    @property
    def is_due(self) -> bool:
        return not self.method and self.amount > 0 and self.voided_at is None


class TableFeeMove(models.Model):
    """A payment or a refund of a table fee, kept for the cash sheet and the reports: the
    fee holds its state, the moves how it got there (a refund has a negative amount)."""

    fee = models.ForeignKey(
        TableFee, verbose_name=_("table fee"), on_delete=models.CASCADE, related_name="moves"
    )
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+", editable=False)
    method = models.CharField(_("method"), max_length=8, choices=TableMethod.choices)
    amount = models.DecimalField(_("amount"), max_digits=7, decimal_places=2)
    at = models.DateTimeField(_("when"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("table fee payment")
        verbose_name_plural = _("table fee payments")
        indexes = [models.Index(fields=["session", "method"]), models.Index(fields=["at"])]

    def __str__(self) -> str:
        return f"{self.fee} · {self.method} · {self.amount}"


class BalanceKind(models.TextChoices):
    TOP_UP = "topup", _("Top-up")
    TABLE_FEE = "fee", _("Table fee")
    REFUND = "refund", _("Table fee refunded")


class BalanceMove(models.Model):
    """One line of a member's prepaid account; the balance is their sum. Lines are never
    changed: a mistake is put right by another line."""

    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="balance_moves"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=BalanceKind.choices)
    amount = models.DecimalField(_("amount"), max_digits=8, decimal_places=2)
    method = models.CharField(_("paid by"), max_length=8, choices=TableMethod.choices, blank=True)
    fee = models.ForeignKey(
        TableFee,
        verbose_name=_("table fee"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="balance_moves",
    )
    note = models.CharField(_("note"), max_length=200, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = club_manager("member__club")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("prepaid balance line")
        verbose_name_plural = _("prepaid balance lines")
        indexes = [models.Index(fields=["member", "at"])]

    def __str__(self) -> str:
        return f"{self.member} · {self.amount}"


class CashSheet(models.Model):
    """A session's cash sheet once the secretary reconciles it: what was counted per method
    and when it was closed. While ``closed_at`` is set nothing of the session's fees moves."""

    session = models.OneToOneField(
        Session, verbose_name=_("session"), on_delete=models.CASCADE, related_name="cash_sheet"
    )
    counted_cash = models.DecimalField(
        _("cash counted"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    counted_card = models.DecimalField(
        _("card receipts"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    counted_transfer = models.DecimalField(
        _("transfers received"), max_digits=8, decimal_places=2, null=True, blank=True
    )
    note = models.TextField(_("note"), blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("closed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = club_manager("session__tournament__club")

    class Meta:
        verbose_name = _("cash sheet")
        verbose_name_plural = _("cash sheets")

    def __str__(self) -> str:
        return str(self.session)

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None
