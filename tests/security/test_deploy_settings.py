"""``manage.py check --deploy`` is clean with the production variables the README lists,
and not without them (so the test can fail)."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {  # README.md, "Production"
    "DEBUG": "0",
    "ALLOWED_HOSTS": "club.example.org",
    "SECURE_COOKIES": "1",
    "BEHIND_HTTPS_PROXY": "1",
    "SECURE_SSL_REDIRECT": "1",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "SECURE_HSTS_PRELOAD": "1",
}


def check_deploy(tmp_path, extra: dict) -> subprocess.CompletedProcess:
    # A production server's environment: none of the test run's own variables (the browser
    # tests set DJANGO_ALLOW_ASYNC_UNSAFE for Playwright, which a deployment must not have).
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION and not k.startswith(("SECURE_", "DJANGO_"))
    }
    env.update(SECRET_KEY=secrets.token_urlsafe(60), CLUBSITE_VAR_DIR=str(tmp_path), **extra)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_the_documented_production_variables(tmp_path):
    readme = (ROOT / "README.md").read_text()
    assert all(f"`{name}`" in readme or f"{name}=" in readme for name in PRODUCTION)
    done = check_deploy(tmp_path, PRODUCTION)
    assert done.returncode == 0, done.stderr + done.stdout
    assert "no issues" in done.stdout and "WARNINGS" not in done.stderr


def test_check_deploy_warns_without_them(tmp_path):
    done = check_deploy(tmp_path, {"ALLOWED_HOSTS": "club.example.org"})
    assert done.returncode != 0
    assert "security.W004" in done.stderr and "security.W008" in done.stderr
