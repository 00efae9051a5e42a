"""Backups of the club's database and media files, and putting one back.

A backup is two files side by side with one stem, ``clubsite-YYYYMMDD-HHMMSS``:

- the database: ``.sqlite3`` made with SQLite's online backup API (a consistent copy of a
  site that keeps running and writing; copying the file could catch a half-written page),
  or ``.pgdump``, PostgreSQL's custom format from ``pg_dump -Fc`` (one snapshot, restored
  with ``pg_restore``);
- ``-media.tar.gz``: ``MEDIA_ROOT`` (generated PDFs, uploads), which the database names.

Each file is written under a temporary name and renamed when complete, so a backup that
failed half-way never looks like one. Restoring refuses a database that already holds data
unless told to overwrite it: restoring over the live club by mistake loses whatever was
entered since the backup.
"""

import os
import shutil
import sqlite3
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.db import connections
from django.utils import timezone

STEM_FORMAT = "clubsite-%Y%m%d-%H%M%S"
MEDIA_SUFFIX = "-media.tar.gz"
SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".pgdump"}
# Rows that a freshly migrated database holds already: they are no one's data.
NOT_DATA = {"contenttypes", "sessions", "admin"}
# The default club's row alone is made by the migrations: a database with data has more.
NOT_DATA_MODELS = {"auth.permission", "auth.group", "clubsite.club"}


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why (for the command line)."""


@dataclass(frozen=True)
class BackupFiles:
    database: Path
    media: Path


def media_path(database_dump: Path) -> Path:
    """The media archive that belongs to a database dump (same stem, next to it)."""
    return database_dump.with_name(database_dump.stem + MEDIA_SUFFIX)


def _vendor(using: str) -> str:
    vendor = connections[using].vendor
    if vendor not in SUFFIXES:
        raise BackupError(f"backups support SQLite and PostgreSQL, not {vendor}")
    return vendor


# --- backing up ---------------------------------------------------------------------------


def backup(output: Path, *, using: str = "default") -> BackupFiles:
    """Write the database and the media archive into ``output`` (created if missing)."""
    vendor = _vendor(using)
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    stem = timezone.localtime().strftime(STEM_FORMAT)
    database = output / (stem + SUFFIXES[vendor])
    if database.exists():  # two backups in one second: keep both
        stem += f"-{os.getpid()}"
        database = output / (stem + SUFFIXES[vendor])
    dump = _sqlite_backup if vendor == "sqlite" else _pg_dump
    _atomically(database, lambda tmp: dump(using, tmp))
    media = output / (stem + MEDIA_SUFFIX)
    _atomically(media, _tar_media)
    return BackupFiles(database, media)


def _atomically(path: Path, write) -> None:
    tmp = path.with_name(path.name + ".part")
    try:
        write(tmp)
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def _sqlite_backup(using: str, target: Path) -> None:
    connection = connections[using]
    connection.ensure_connection()
    destination = sqlite3.connect(target)
    try:
        # One step: the whole database under one read lock, so the copy is consistent even
        # while the site writes (they wait for the copy; a club database takes a moment).
        connection.connection.backup(destination)
    finally:
        destination.close()


def _pg_env(settings_dict: dict) -> dict:
    env = dict(os.environ)
    for key, name in (
        ("HOST", "PGHOST"),
        ("PORT", "PGPORT"),
        ("USER", "PGUSER"),
        ("PASSWORD", "PGPASSWORD"),
    ):
        if settings_dict.get(key):
            env[name] = str(settings_dict[key])
    sslmode = (settings_dict.get("OPTIONS") or {}).get("sslmode")
    if sslmode:
        env["PGSSLMODE"] = sslmode
    return env


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(command: list[str], env: dict) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def _pg_dump(using: str, target: Path) -> None:
    settings_dict = connections[using].settings_dict
    _run(
        [
            _pg_tool("pg_dump"),
            "--format=custom",
            "--no-owner",
            "--no-privileges",
            f"--file={target}",
            f"--dbname={settings_dict['NAME']}",
        ],
        _pg_env(settings_dict),
    )


def _tar_media(target: Path) -> None:
    root = Path(settings.MEDIA_ROOT)
    with tarfile.open(target, "w:gz") as archive:
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    archive.add(path, arcname=str(path.relative_to(root)), recursive=False)


# --- restoring ------------------------------------------------------------------------------


def holds_data(using: str = "default") -> bool:
    """Whether the database has any of the club's rows (a migrated empty one has none)."""
    connection = connections[using]
    existing = set(connection.introspection.table_names())
    for model in apps.get_models():
        meta = model._meta
        if meta.app_label in NOT_DATA or meta.label_lower in NOT_DATA_MODELS:
            continue
        if not meta.managed or meta.proxy or meta.db_table not in existing:
            continue
        if model._base_manager.using(using).exists():
            return True
    return False


def restore(database_dump: Path, *, using: str = "default", overwrite: bool = False) -> list[str]:
    """Put a backup back: the database from ``database_dump`` and, when the archive is next
    to it, the media files. Refused (``BackupError``) over a database holding data unless
    ``overwrite``. Returns what was done, one line each."""
    database_dump = Path(database_dump)
    vendor = _vendor(using)
    if not database_dump.is_file():
        raise BackupError(f"no such backup: {database_dump}")
    if database_dump.suffix != SUFFIXES[vendor]:
        raise BackupError(
            f"{database_dump.name} is not a {vendor} backup (expected a {SUFFIXES[vendor]} file)"
        )
    if not overwrite and holds_data(using):
        raise BackupError(
            "the database is not empty: restoring replaces everything in it; "
            "run again with --yes to overwrite it"
        )
    if vendor == "sqlite":
        _sqlite_restore(database_dump, using)
    else:
        _pg_restore(database_dump, using)
    done = [f"database restored from {database_dump.name}"]
    media = media_path(database_dump)
    if media.is_file():
        count = _untar_media(media)
        done.append(f"{count} media files restored from {media.name}")
    else:
        done.append(f"no media archive {media.name}: media files left as they are")
    return done


def _sqlite_restore(dump: Path, using: str) -> None:
    source = sqlite3.connect(f"{dump.resolve().as_uri()}?mode=ro", uri=True)
    try:
        try:
            tables = {
                row[0]
                for row in source.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{dump.name} is not a SQLite database") from exc
        if "django_migrations" not in tables:
            raise BackupError(f"{dump.name} is not a backup of this site")
        connection = connections[using]
        connection.ensure_connection()
        source.backup(connection.connection)
    finally:
        source.close()


def _pg_restore(dump: Path, using: str) -> None:
    connection = connections[using]
    settings_dict = connection.settings_dict
    connection.close()  # our own session must hold no lock on the tables being replaced
    _run(
        [
            _pg_tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--no-privileges",
            "--single-transaction",
            "--exit-on-error",
            f"--dbname={settings_dict['NAME']}",
            str(dump),
        ],
        _pg_env(settings_dict),
    )


def _untar_media(archive_path: Path) -> int:
    root = Path(settings.MEDIA_ROOT)
    root.mkdir(parents=True, exist_ok=True)
    resolved_root = root.resolve()
    count = 0
    with tarfile.open(archive_path, "r:gz") as archive:
        for member in archive.getmembers():
            target = (root / member.name).resolve()
            # Only plain files inside MEDIA_ROOT: a crafted archive cannot write elsewhere.
            if not member.isfile() or not target.is_relative_to(resolved_root):
                raise BackupError(f"{archive_path.name}: refusing {member.name!r}")
        for member in archive.getmembers():
            target = root / member.name
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.extractfile(member) as source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)
            count += 1
    return count
