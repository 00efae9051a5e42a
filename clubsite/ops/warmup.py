"""Ready a web process before it serves, then keep the cyclic collector off what it loaded.

CPython's full collection walks every tracked object of the process. Under the live load of
a club night (40 tables posting, 50 phones on the ranking) collections ran several times a
minute in each gunicorn process and stopped all of its threads for 75-115 ms: most of the
posts' and reads' p99 (``docs/benchmarks.md``, issue 20). So the process loads now what it
would load on its first requests (every view through the URL patterns, the translation
catalogues, every template into the cached loader), collects once, and ``gc.freeze()`` puts
all that out of the collector's sight: later collections walk only what requests allocated
since. The youngest generation's threshold is raised as well, so the young collections that
remain come every few requests instead of several times a request.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings


def compile_templates() -> int:
    """Compile every template of the project's template directories; returns how many."""
    from django.template import TemplateSyntaxError, engines

    compiled = 0
    for engine in engines.all():
        for directory in engine.template_dirs:
            root = Path(directory)
            if (
                not root.is_dir()
                or not root.resolve().is_relative_to(settings.BASE_DIR)
                or ".venv" in root.parts
            ):
                continue  # Django's and the packages' own: the admin's are rarely served
            for path in sorted(root.rglob("*.html")):
                try:
                    engine.get_template(path.relative_to(root).as_posix())
                except TemplateSyntaxError:
                    continue  # raised again, with its page, when a view uses it
                compiled += 1
    return compiled


def load_catalogues() -> None:
    from django.utils import translation

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Spanish")


def warm_and_freeze() -> None:
    """Called once by ``clubsite.wsgi`` in each web process, before its first request."""
    if not settings.GC_FREEZE:
        return
    from django.urls import get_resolver

    get_resolver().reverse_dict  # noqa: B018 - imports every view and fills the resolver
    load_catalogues()
    compile_templates()
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(settings.GC_YOUNG_THRESHOLD, middle, old)


_pausing = threading.Lock()
_paused = [0, False]  # computations running, whether the collector was on before them


@contextmanager
def collector_paused():
    """No cyclic collection while a bounded computation runs (a classification, a season's
    tables): it makes tens of thousands of short-lived, acyclic objects, and each full
    collection they set off walks the heap, whatever the process keeps included (at 200
    tables a full classification took twice as long with the collector running,
    ``docs/benchmarks.md``). Reference counting still frees them; the collector resumes
    when the last computation running ends."""
    with _pausing:
        if _paused[0] == 0:
            _paused[1] = gc.isenabled()
            gc.disable()
        _paused[0] += 1
    try:
        yield
    finally:
        with _pausing:
            _paused[0] -= 1
            if _paused[0] == 0 and _paused[1]:
                gc.enable()
