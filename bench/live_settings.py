"""The product's settings with the live-load bench's URLs (``live_urls``: an empty view).

bench_live_load.py starts gunicorn with ``DJANGO_SETTINGS_MODULE=live_settings`` and
``bench/`` on ``PYTHONPATH``; nothing else differs from production.
"""

from clubsite.settings import *  # noqa: F403

ROOT_URLCONF = "live_urls"
