"""A web process loads what its first requests would, then freezes it out of the collector."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

from clubsite.ops.warmup import compile_templates

ROOT = Path(__file__).resolve().parents[3]
PROBE = (
    "import gc, clubsite.wsgi\n"
    "from django.template import engines\n"
    "print(gc.get_freeze_count(), gc.get_threshold()[0],"
    " len(engines['django'].engine.template_loaders[0].get_template_cache))"
)


def _web_process(tmp_path, **env):
    """What ``import clubsite.wsgi`` leaves in a fresh process, as gunicorn imports it."""
    environment = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CELERY_BROKER_URL", "CACHE_URL", "GC_FREEZE")
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="clubsite.settings",
        DEBUG="0",
        CLUBSITE_VAR_DIR=str(tmp_path),
        SECRET_KEY="x" * 50,
        **env,
    )
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    return [int(n) for n in out.split()]


def test_a_web_process_freezes_its_loaded_heap_before_serving(tmp_path):
    frozen, young, templates = _web_process(tmp_path, GC_YOUNG_THRESHOLD="12345")
    assert frozen > 50_000  # Django, the views, the templates: all out of the collector's walk
    assert young == 12345
    assert templates >= 100  # every project template compiled, none left for a first request


def test_gc_freeze_0_leaves_the_collector_as_cpython_sets_it(tmp_path):
    frozen, young, templates = _web_process(tmp_path, GC_FREEZE="0")
    assert (frozen, young, templates) == (0, 700, 0)


def test_every_project_template_compiles():
    """The warm-up compiles them all: a template that does not is a bug on some page."""
    pages = sum(
        1
        for directory in (
            "templates",
            "tournaments/templates",
            "laws/templates",
            "clubsite/templates",
        )
        if (Path(settings.BASE_DIR) / directory).is_dir()
        for _ in (Path(settings.BASE_DIR) / directory).rglob("*.html")
    )
    assert compile_templates() == pages
