"""A 403 is one warning line in the log, not a traceback; a 500 keeps its traceback."""

import logging

from django.urls import reverse

from clubsite.ops.logfilters import OneLineRefusal


def test_a_forbidden_page_logs_one_line(player_client, caplog):
    caplog.set_level(logging.WARNING, logger="django.request")
    response = player_client.get(reverse("clubsite:member_list"))
    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    record = records[0]
    assert record.levelno == logging.WARNING and record.exc_info is None
    line = caplog.handler.format(record)
    assert "Forbidden" in line and "/club/" in line and "Traceback" not in line
    assert len(line.splitlines()) == 1


def test_a_forged_host_logs_one_line(client, caplog, settings):
    caplog.set_level(logging.WARNING)
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400
    records = [r for r in caplog.records if r.name.startswith("django.security")]
    assert records and all(r.exc_info is None for r in records)
    assert "Traceback" not in caplog.text


def test_a_server_error_keeps_its_traceback():
    record = logging.LogRecord(
        "django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s", ("/x/",), None
    )
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        record.exc_info = sys.exc_info()
    record.status_code = 500
    OneLineRefusal().filter(record)
    assert record.exc_info is not None
