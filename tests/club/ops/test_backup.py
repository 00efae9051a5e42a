"""Backups round trip: build the demo club, back up, wipe, restore, and find every row again.

SQLite always (the online backup API, on the test database); PostgreSQL when the tests run
on it (``pg_dump``/``pg_restore`` custom format into a scratch database named after the
test database, never the main one).
"""

import sqlite3
import tarfile

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from clubsite.demo import build_club
from clubsite.models import Member
from clubsite.ops import backup as backups
from tournaments.demo import build_tournaments
from tournaments.models import Result, StoredRanking


def snapshot() -> dict:
    """Every Member, Result and StoredRanking row, all values, in key order."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Member, Result, StoredRanking)
    }


def build_club_with_results(media_root):
    build_club()
    build_tournaments(only=("torneo-de-los-martes",))
    (media_root / "pdfs").mkdir(parents=True, exist_ok=True)
    (media_root / "pdfs" / "resultados.pdf").write_bytes(b"%PDF-1.7 demo")
    (media_root / "uploads" / "2025").mkdir(parents=True, exist_ok=True)
    (media_root / "uploads" / "2025" / "torneo.xml").write_text("<USEBIO/>", encoding="utf-8")


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.MEDIA_ROOT.mkdir()
    return settings.MEDIA_ROOT


def backup_files(out):
    database = [p for p in out.iterdir() if p.suffix in (".sqlite3", ".pgdump")]
    assert len(database) == 1
    return database[0], backups.media_path(database[0])


@pytest.mark.django_db(transaction=True)
def test_sqlite_round_trip_restores_every_row_and_the_media(tmp_path, media_root):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite backup path (the PostgreSQL one has its own test)")
    build_club_with_results(media_root)
    before = snapshot()
    assert before["Result"] and before["StoredRanking"] and before["Member"]
    out = tmp_path / "backups"
    call_command("backup", output=str(out))
    dump, media = backup_files(out)
    assert dump.name.startswith("clubsite-") and media.is_file()
    # A real SQLite database, copied consistently (not a .part left over).
    copy = sqlite3.connect(dump)
    assert copy.execute("SELECT count(*) FROM tournaments_result").fetchone()[0] == len(
        before["Result"]
    )
    copy.close()
    assert not list(out.glob("*.part"))
    with tarfile.open(media) as archive:
        assert sorted(archive.getnames()) == ["pdfs/resultados.pdf", "uploads/2025/torneo.xml"]

    # Over a database that holds the club: refused without --yes, nothing touched.
    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(dump))

    call_command("flush", interactive=False, verbosity=0)
    for path in media_root.rglob("*.pdf"):
        path.unlink()
    assert snapshot() == {"Member": [], "Result": [], "StoredRanking": []}

    call_command("restore", str(dump))
    assert snapshot() == before
    assert (media_root / "pdfs" / "resultados.pdf").read_bytes() == b"%PDF-1.7 demo"

    # With --yes a restore over the (now full) database goes through and changes nothing.
    call_command("restore", str(dump), yes=True)
    assert snapshot() == before


@pytest.mark.django_db
def test_restore_refuses_what_is_not_a_backup(tmp_path, media_root):
    if connection.vendor != "sqlite":
        pytest.skip("SQLite files")
    with pytest.raises(CommandError, match="no such backup"):
        call_command("restore", str(tmp_path / "missing.sqlite3"))
    wrong = tmp_path / "notes.sqlite3"
    wrong.write_text("not a database")
    with pytest.raises(CommandError, match="not a SQLite database"):
        call_command("restore", str(wrong))
    other = tmp_path / "clubsite.pgdump"
    other.write_bytes(b"PGDMP")
    with pytest.raises(CommandError, match="not a sqlite backup"):
        call_command("restore", str(other))


def test_a_crafted_media_archive_cannot_write_outside_media(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path / "media"
    archive = tmp_path / "evil-media.tar.gz"
    payload = tmp_path / "payload"
    payload.write_text("x")
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(payload, arcname="../escaped.txt")
    with pytest.raises(backups.BackupError, match="refusing"):
        backups._untar_media(archive)
    assert not (tmp_path / "escaped.txt").exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgres_round_trip_into_a_scratch_database(tmp_path, media_root):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    build_club_with_results(media_root)
    before = snapshot()
    out = tmp_path / "backups"
    call_command("backup", output=str(out))
    dump, media = backup_files(out)
    assert dump.read_bytes()[:5] == b"PGDMP"  # pg_dump's custom format
    assert media.is_file()

    main_name = connection.settings_dict["NAME"]
    scratch = f"{main_name}_restore"[:63]
    with connection.cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        cursor.execute(f'CREATE DATABASE "{scratch}"')
    connection.close()
    connection.settings_dict["NAME"] = scratch
    try:
        call_command("restore", str(dump))  # a new, empty database: no --yes needed
        assert snapshot() == before
        with pytest.raises(CommandError, match="--yes"):
            call_command("restore", str(dump))
        call_command("restore", str(dump), yes=True)
        assert snapshot() == before
    finally:
        connection.close()
        connection.settings_dict["NAME"] = main_name
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
    # the test database itself was never touched
    assert snapshot() == before
