"""Settings, languages and the background worker."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.urls import reverse

from clubsite.mail import reminders
from clubsite.models import Member, Season
from clubsite.tasks import send_arrears_reminders

ROOT = Path(__file__).resolve().parents[3]


def test_embedded_default_is_sqlite_under_var_and_eager_celery():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY")
    }
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='clubsite.settings';"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'],"
        " s.CELERY_TASK_ALWAYS_EAGER, s.LANGUAGE_CODE)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "django.db.backends.sqlite3"
    assert out[1].endswith("var/clubsite.sqlite3")
    assert out[2:] == ["True", "es"]


def test_secret_key_never_comes_from_the_repository():
    assert settings.SECRET_KEY
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    assert "var/secret_key" not in tracked


@pytest.mark.django_db
def test_spanish_by_default_and_the_switcher_changes_language(client):
    assert "Iniciar sesión" in client.get("/").content.decode()
    response = client.post(reverse("set_language"), {"language": "pt", "next": "/"})
    assert response.status_code == 302
    assert "Entrar" in client.get("/").content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Log in" in client.get("/").content.decode()


@pytest.mark.django_db
def test_browser_language_does_not_override_the_club_language(client):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.9").content.decode()
    assert '<html lang="es">' in html


@pytest.mark.django_db
def test_arrears_reminders_mail_members_with_email(demo_club, secretary):
    season = Season.current()
    with_mail = [d.member.pk for d in reminders.drafts(season, "es") if d.can_mail]
    rows = reminders.queue(season, members=with_mail, user=secretary, language="es")
    sent = send_arrears_reminders([r.pk for r in rows])
    assert sent == len(mail.outbox) == len(with_mail) > 0
    assert "pendiente" in mail.outbox[0].body


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_arrears_reminders_run_on_a_real_worker(demo_club, celery_worker_process, tmp_path):
    season = Season.current()
    members_with_mail = Member.objects.exclude(email="").count()
    chosen = [d.member.pk for d in reminders.drafts(season, "pt") if d.can_mail]
    rows = reminders.queue(season, members=chosen, user=None, language="pt")
    result = send_arrears_reminders.delay([r.pk for r in rows])
    sent = result.get(timeout=60)
    assert 0 < sent <= members_with_mail
    files = list(Path(celery_worker_process.mail_dir).iterdir())
    assert files and "pendentes" in files[0].read_text()
