"""Clubs as tenants: which club a request, a job or a command works for.

One installation serves many clubs (a federation hosting its clubs); each club sees only its
own members, seasons, tournaments and everything under them. The isolation is enforced, not
remembered: every club-owned model's default manager is a django-scopes ``ScopedManager``
(pretix's library, made for exactly this: a query on a scoped model outside a scope raises
``ScopeError`` instead of reading every club's rows), filtering on the path from the model to
its club. The scope is opened by ``clubsite.web.club_host.ClubMiddleware`` for a request, by
the Celery signals below for a job (the club travels in the message's headers), and by
``club_command`` for a management command. Laws and users are shared: not scoped.

This module imports no model, so models can use it.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django_scopes import ScopedManager, ScopeError, get_scope, scope, scopes_disabled

__all__ = [
    "ClubOwned",
    "ScopeError",
    "club_field",
    "club_manager",
    "club_scope",
    "current_club_id",
    "default_club_id",
    "scopes_disabled",
    "thread_in_scope",
]

# The header a queued job carries its club in.
CLUB_HEADER = "clubsite_club"


def club_manager(path: str = "club", manager_class: type[models.Manager] = models.Manager):
    """The default manager of a club-owned model: its rows of the current club only.
    ``path`` leads from the model to its club (``"tournament__club"``)."""
    return ScopedManager(_manager_class=manager_class, club=path)


def club_field(related_name: str) -> models.ForeignKey:
    """The ``club`` field of a club-owned model with no club-owned parent: filled with the
    scope's club, never edited (a row does not move between clubs)."""
    return models.ForeignKey(
        "clubsite.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        default=current_club_id,
        editable=False,
        related_name=related_name,
    )


class ClubOwned:
    """A mixin for a model with a ``club`` field and constraints per club: a form (which
    never shows the club) still checks them, so a duplicate is a form error, not a 500."""

    def validate_constraints(self, exclude=None):
        super().validate_constraints(exclude=set(exclude or ()) - {"club"})

    def validate_unique(self, exclude=None):
        super().validate_unique(exclude=set(exclude or ()) - {"club"})


def current_club_id() -> int:
    """The id of the club the running request, job or command works for. The default of
    every ``club`` field: a row is created in the scope's club."""
    club = get_scope().get("club")
    if club is None:
        raise ScopeError("No club scope is active: open one with clubsite.tenancy.club_scope.")
    return club


def active_club_id() -> int | None:
    """The scope's club, or None outside any (a management shell, a migration)."""
    return get_scope().get("club")


def default_club_id() -> int | None:
    """The club a host that names no club reaches (``DEFAULT_CLUB_ID``; 1 unless set): so a
    one-club installation keeps its URLs. None when unset: an unknown host is not found."""
    return settings.DEFAULT_CLUB_ID


@contextlib.contextmanager
def club_scope(club) -> Iterator[None]:
    """Work as ``club`` (a club or its id) until the block ends."""
    club_id = getattr(club, "pk", club)
    with scope(club=club_id):
        yield


def thread_in_scope(
    target: Callable, args: tuple = (), kwargs: dict | None = None, **options
) -> threading.Thread:
    """A thread that runs ``target`` in the caller's club scope: a new thread starts with
    empty context variables, and the scope is one."""
    context = contextvars.copy_context()
    return threading.Thread(
        target=context.run, args=(target, *args), kwargs=kwargs or {}, **options
    )


# --- jobs carry their club ------------------------------------------------------------------


def _job_published(headers=None, **kwargs) -> None:
    """A job queued in a club's scope carries the club in its headers."""
    club = active_club_id()
    if headers is not None and club is not None:
        headers[CLUB_HEADER] = club


_open_scopes: dict[str, contextlib.ExitStack] = {}


def _job_starts(task_id=None, task=None, **kwargs) -> None:
    """A job runs in the club it was queued for. One queued without a club (the beat's
    sweep) opens its own scope per club. Eager jobs run in their caller's scope already."""
    request = getattr(task, "request", None)
    if request is None or getattr(request, "is_eager", False):
        return
    club = getattr(request, CLUB_HEADER, None)
    if club is None:
        club = (getattr(request, "headers", None) or {}).get(CLUB_HEADER)
    if club is None:
        return
    stack = contextlib.ExitStack()
    stack.enter_context(scope(club=int(club)))
    _open_scopes[task_id] = stack


def _job_ends(task_id=None, **kwargs) -> None:
    stack = _open_scopes.pop(task_id, None)
    if stack is not None:
        stack.close()


def connect_job_signals() -> None:
    from celery.signals import before_task_publish, task_postrun, task_prerun

    before_task_publish.connect(_job_published, weak=False, dispatch_uid="clubsite-club-out")
    task_prerun.connect(_job_starts, weak=False, dispatch_uid="clubsite-club-in")
    task_postrun.connect(_job_ends, weak=False, dispatch_uid="clubsite-club-done")
