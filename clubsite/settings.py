"""Settings, read from the environment only.

With no environment at all the site runs embedded: SQLite under var/, Celery tasks
eagerly in-process, mail to the console, a secret key generated into var/. Production
and CI set DATABASE_URL, CELERY_BROKER_URL and friends (see README.md).
"""

import datetime
import json
import os
import secrets
from pathlib import Path

import dj_database_url
from csp import constants as csp_constants
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("CLUBSITE_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """A key from the environment, or one generated once and kept in var/ (never in git)."""
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# Many clubs on one installation (clubsite/tenancy.py, clubsite/web/club_host.py): a club is
# reached by its own host name, or as <short name>.CLUB_BASE_DOMAIN; a host naming no club
# reaches DEFAULT_CLUB_ID (the club the migrations make: a one-club installation keeps its
# URLs). DEFAULT_CLUB_ID="" makes an unknown host "not found". ALLOWED_HOSTS must admit the
# clubs' hosts (".clubs.example.org" admits every sub-domain).
CLUB_BASE_DOMAIN = os.environ.get("CLUB_BASE_DOMAIN", "").strip().lower().lstrip(".")
DEFAULT_CLUB_ID = int(os.environ.get("DEFAULT_CLUB_ID", "1") or 0) or None

INSTALLED_APPS = [
    "clubsite.apps.SuperuserAdminConfig",  # django.contrib.admin, superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_tables2",
    "django_filters",
    "django_htmx",
    "csp",
    "simple_history",
    "axes",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "clubsite",
    "tournaments",
    "laws",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Every request after this runs in the scope of the club its host reaches.
    "clubsite.web.club_host.ClubMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "clubsite.web.middleware.ClubLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "clubsite.accounts.staff_sessions.StaffIdleTimeoutMiddleware",
    "clubsite.accounts.two_factor.TwoFactorMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as axes asks: it answers a locked-out sign-in with clubsite.accounts.signin.locked_out.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "clubsite.urls"
WSGI_APPLICATION = "clubsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clubsite.web.context_processors.club",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'clubsite.sqlite3'}"),
        # Each gunicorn thread keeps its connection between requests (no connect per post
        # or read).
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets readers (ranking pages) go on while a table device writes.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = (
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=5000;"
    )
    # A transaction that reads and then writes takes the write lock when it begins (and
    # waits busy_timeout for it): a deferred one that had read before another writer
    # committed fails at once ("database is locked") instead of waiting, a 500.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
    # Secretaries, directors and admins: twelve characters at least (clubsite/staff_sessions).
    {
        "NAME": "clubsite.accounts.staff_sessions.StaffPasswordLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
]
# A staff account's session ends after this many minutes without a request of its own (0:
# never); players' and table devices' sessions are not affected.
STAFF_IDLE_MINUTES = int(os.environ.get("STAFF_IDLE_MINUTES", "30"))
# Two-factor sign-in (clubsite/accounts/two_factor.py): staff accounts must set up an authenticator
# app and give its code after the password; off only for the demo of `make run`. Players
# may turn it on for themselves either way.
STAFF_TWO_FACTOR = env_bool("STAFF_TWO_FACTOR", True)


def _otp_issuer(device):
    """The club's name beside the code in the authenticator app (read when asked)."""
    from clubsite.accounts.two_factor import issuer

    return issuer(device)


OTP_TOTP_ISSUER = _otp_issuer
# Sign-in throttling (django-axes, see clubsite/accounts/signin.py): after LOGIN_FAILURE_LIMIT wrong
# passwords for one username from one address, that pair is locked out for
# LOGIN_COOLOFF_MINUTES; a successful sign-in clears its count. Every failure is stored
# (AccessAttempt, AccessFailureLog) and logged.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
# Wrong passwords for one account from any address within the cool-off (clubsite/accounts/signin.py).
LOGIN_ACCOUNT_FAILURE_LIMIT = int(os.environ.get("LOGIN_ACCOUNT_FAILURE_LIMIT", "20"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
AXES_LOCKOUT_CALLABLE = "clubsite.accounts.signin.locked_out"
AXES_CLIENT_IP_CALLABLE = "clubsite.accounts.signin.client_ip"
# Behind the site's own reverse proxy the client's address is read from X-Forwarded-For,
# TRUSTED_PROXY_COUNT entries from the right (one proxy: the entry it appended).
BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", False)
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Spanish first; Portuguese and English complete. URLs carry no language prefix: the
# choice lives in a cookie set by the switcher, and the club's language is the default.
LANGUAGE_CODE = os.environ.get("LANGUAGE_CODE", "es")
LANGUAGES = [("es", _("Spanish")), ("pt", _("Portuguese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Madrid")
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", VAR_DIR / "media"))
# Where `manage.py backup` (and `make backup`) writes when no --output is given.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", VAR_DIR / "backups"))
# Production sets STATIC_MANIFEST=1 after collectstatic for hashed, compressed files; the
# embedded default and the tests serve straight from the apps' static folders.
# Generated PDFs go through Django's storage API: a folder under MEDIA_ROOT by default (shared
# by every web and worker process of one machine), or any storage backend by setting, e.g.
# MEDIA_STORAGE=storages.backends.s3.S3Storage with MEDIA_STORAGE_OPTIONS='{"bucket_name": ...}'
# (django-storages, installed separately) when the processes run on several machines.
STORAGES = {
    "default": {
        "BACKEND": os.environ.get("MEDIA_STORAGE", "django.core.files.storage.FileSystemStorage"),
        "OPTIONS": json.loads(os.environ.get("MEDIA_STORAGE_OPTIONS") or "{}"),
    },
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = True
# Files served at the site's root, as browsers and crawlers ask for them: /favicon.ico.
WHITENOISE_ROOT = BASE_DIR / "clubsite" / "root"
WHITENOISE_AUTOREFRESH = DEBUG

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "clubsite@localhost")
# Mails to players (results, corrections, waiting-list notices, ``tournaments.jobs.mail``):
# how many one task sends over one SMTP connection (the rest queued as further tasks), and
# how many times a mail the server refused is tried in all before it is left failed.
MAIL_BATCH_SIZE = int(os.environ.get("MAIL_BATCH_SIZE", "50"))
MAIL_ATTEMPTS = int(os.environ.get("MAIL_ATTEMPTS", "5"))

# Celery: no broker means eager, in-process execution (the embedded default).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "")
# Sites sharing one broker each keep their own queue (the tests give each xdist worker one).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis redelivers an unacknowledged task (a worker killed mid-task) after this many seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "3600")),
    # A broker that is down must not hold a table's post: connect and send fail fast.
    "socket_connect_timeout": 1,
    "socket_timeout": 5,
}
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
# The worker waits for a broker that went away however long it takes, and comes back.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Celery's consumer, less the fault that ends a 5.7.0 worker when Redis goes away while it
# holds a countdown task (clubsite/ops/worker_consumer.py).
CELERY_WORKER_CONSUMER = "clubsite.ops.worker_consumer:Consumer"
# PDF and upload jobs are kept in the database; the broker's message only says "now". A job
# waiting or running this many seconds past its due time was lost (the broker was down when
# it was queued, the worker was killed mid-way): the worker's sweep (``tournaments.jobs.sweep``,
# every JOB_SWEEP_SECONDS, run by the beat embedded in the worker: ``celery worker -B``)
# sends it again, and the job's record makes a second run a no-op.
JOB_STALL_SECONDS = int(os.environ.get("JOB_STALL_SECONDS", "120"))
JOB_SWEEP_SECONDS = float(os.environ.get("JOB_SWEEP_SECONDS", "30"))
# ``federation`` is no installed app, so autodiscovery misses its jobs (a club's archive).
CELERY_IMPORTS = ["tournaments.jobs.sweep", "federation.jobs"]
CELERY_BEAT_SCHEDULE = {
    "requeue-stalled-jobs": {
        "task": "tournaments.jobs.sweep.requeue_stalled_jobs",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
    "requeue-stalled-archives": {
        "task": "federation.jobs.requeue_stalled_archives",
        "schedule": JOB_SWEEP_SECONDS,
        "options": {"expires": JOB_SWEEP_SECONDS},
    },
}
CELERY_BEAT_SCHEDULE_FILENAME = os.environ.get(
    "CELERY_BEAT_SCHEDULE_FILENAME", str(VAR_DIR / "celerybeat-schedule")
)
# Live rankings and travellers follow new results at most this many seconds late: the
# first result of each such window queues one re-classification for the end of the window.
RANKING_REFRESH_SECONDS = int(os.environ.get("RANKING_REFRESH_SECONDS", "5"))
# ...and sooner when the posts pause: the queued classification runs once no result came in
# for this long (seconds, e.g. 0.25), so a round's last results show at once; 0 (the default):
# at the window's end. Sparse posts then classify far more often (docs/benchmarks.md).
RANKING_QUIET_SECONDS = float(os.environ.get("RANKING_QUIET_SECONDS", "0"))
# A live ranking's page asks again this often while its session is played (htmx; a 304
# until a new ranking is stored).
LIVE_RANKING_POLL_SECONDS = int(os.environ.get("LIVE_RANKING_POLL_SECONDS", "15"))
# Web processes load their views, templates and catalogues, then freeze that heap out of the
# cyclic collector's walks (clubsite/ops/warmup.py): its pauses were most of the live p99.
GC_FREEZE = os.environ.get("GC_FREEZE", "1") != "0"
GC_YOUNG_THRESHOLD = int(os.environ.get("GC_YOUNG_THRESHOLD", "20000"))
# Shared by every web and Celery process (e.g. redis://127.0.0.1:6379/1), so that window
# and the rendered rankings are kept once for all of them; in-process memory without it.
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    # django-redis, because a Redis that is down must cost a cache miss, not a 500: with
    # IGNORE_EXCEPTIONS every cache call answers like a miss, sessions fall back to the
    # database and the failure is logged once a minute (logger "clubsite.cache").
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "clubsite",
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": float(os.environ.get("CACHE_TIMEOUT", "0.5")),
                "SOCKET_TIMEOUT": float(os.environ.get("CACHE_TIMEOUT", "0.5")),
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    DJANGO_REDIS_LOGGER = "clubsite.cache"
    # Every table device's post reads its session: from the cache, written through to the
    # database, instead of a query each time; the database alone while the cache is down.
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
# Publishing results queues their PDF. Without a broker that would render in the web
# request, so the embedded default makes PDFs on demand from the tournament's PDF page.
RESULTS_PDF_ON_PUBLISH = env_bool("RESULTS_PDF_ON_PUBLISH", bool(CELERY_BROKER_URL))
# A correction to published results re-makes their PDF at the end of a window this long, so a
# director's burst of corrections gives one PDF, of the last version (needs a broker).
RESULTS_PDF_REFRESH_SECONDS = int(os.environ.get("RESULTS_PDF_REFRESH_SECONDS", "60"))
# Rendered parts of results PDFs, kept under the hash of their HTML (tournaments/pdf/part_cache.py):
# a corrected PDF lays out again only the parts that changed. Empty: no cache.
PDF_PART_CACHE_DIR = os.environ.get("PDF_PART_CACHE_DIR", str(VAR_DIR / "pdf-parts"))
PDF_PART_CACHE_FILES = int(os.environ.get("PDF_PART_CACHE_FILES", "2000"))
# The site's public address (e.g. https://club.example.org). Printed QR codes then hold the
# table's sign-in address, so a phone camera opens it; without it, print pages use the
# address they were asked at and PDFs (made in a worker, with no request) hold the code only.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
# Table sign-in: after this many failed attempts from one device, or for one table (from
# devices that never signed in there), within the window (seconds from the first failure),
# further attempts are refused until it ends (tournaments/services/table/table_signin.py).
TABLE_SIGNIN_MAX_FAILURES = int(os.environ.get("TABLE_SIGNIN_MAX_FAILURES", "10"))
TABLE_SIGNIN_WINDOW_SECONDS = int(os.environ.get("TABLE_SIGNIN_WINDOW_SECONDS", "600"))
# From one address (the room's devices share the club's Wi-Fi): higher than per device.
TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS = int(
    os.environ.get("TABLE_SIGNIN_MAX_FAILURES_PER_ADDRESS", "50")
)

# Federation uploads go only to public https servers. A test or a federation server on the
# club's own network may allow plain http and loopback/private addresses; link-local
# (cloud metadata), multicast and reserved addresses are never allowed.
FEDERATION_ALLOW_HTTP = env_bool("FEDERATION_ALLOW_HTTP", False)
FEDERATION_ALLOW_PRIVATE = env_bool("FEDERATION_ALLOW_PRIVATE", False)

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"
DJANGO_TABLES2_TABLE_ATTRS = {"class": "data"}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Content Security Policy (django-csp 4): only this site's own scripts, styles and images
# (plus data: images, the QR codes of printed cards); no inline script, style attribute or
# <style> in any page (site.js handles the data-print and data-check-all attributes, htmx's
# indicator CSS is in site.css); never framed; forms post only here.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp_constants.SELF],
        "script-src": [csp_constants.SELF],
        "style-src": [csp_constants.SELF],
        "img-src": [csp_constants.SELF, "data:"],
        "font-src": [csp_constants.SELF],
        "connect-src": [csp_constants.SELF],
        # The table device's service worker (/table/sw.js) and its web app manifest.
        "worker-src": [csp_constants.SELF],
        "manifest-src": [csp_constants.SELF],
        "object-src": [csp_constants.NONE],
        "base-uri": [csp_constants.SELF],
        "frame-ancestors": [csp_constants.NONE],
        "form-action": [csp_constants.SELF],
    },
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_HTTPS_PROXY else None
# HTTPS only, once the site is served over it (README, Production): redirect plain HTTP and
# tell browsers to come back over HTTPS for SECURE_HSTS_SECONDS. Off by default, since a
# site on a laptop at the club is reached over plain HTTP; behind a proxy the redirect
# needs BEHIND_HTTPS_PROXY, or the proxy's HTTP requests would redirect forever.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # 403s and suspicious requests: one warning line each, no traceback; an outage of the
    # shared cache: one line a minute (clubsite/ops/logfilters.py).
    "filters": {
        "one_line_refusal": {"()": "clubsite.ops.logfilters.OneLineRefusal"},
        "once_a_minute": {"()": "clubsite.ops.logfilters.OncePerInterval", "seconds": 60},
    },
    # On the handler for every logger; on the loggers too, so any handler gets one line
    # (a logger's filters do not apply to its children: django.security.* named one by one).
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["one_line_refusal"]}},
    "loggers": {
        **{
            name: {"filters": ["one_line_refusal"]}
            for name in (
                "django.request",
                "django.security.DisallowedHost",
                "django.security.SuspiciousOperation",
                "django.security.RequestDataTooBig",
                "django.security.TooManyFieldsSent",
                "django.security.TooManyFilesSent",
            )
        },
        "clubsite.cache": {"filters": ["once_a_minute"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
