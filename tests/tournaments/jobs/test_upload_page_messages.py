"""What the secretary's uploads page says became of an upload: sent, failed or queued.

Apart from test_uploads.py, whose tests share rows built once for the module inside a
transaction: this test needs real commits (the eager job runs in the request)."""

import pytest
from django.urls import reverse

from tournaments.models.uploads import FederationEndpoint, FileFormat, Upload, UploadState


@pytest.mark.django_db(transaction=True)  # real commits: the eager job runs in the request
def test_the_page_says_what_became_of_the_upload(
    fed, endpoint, mitchell_session, secretary_client, monkeypatch
):
    from tournaments import jobs

    def said(response):  # the messages shown on the page the post leads to
        return [(m.level_tag, str(m)) for m in response.context["messages"]]

    from django.conf import settings

    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    tournament = mitchell_session.session.tournament
    fed.script = ["fail"] * 4  # the first try and the endpoint's three retries
    response = secretary_client.post(
        reverse("uploads:send"), {"endpoint": endpoint.pk, "tournament": tournament.pk}, follow=True
    )
    failed = Upload.objects.get()
    assert failed.state == UploadState.FAILED and "500" in failed.error
    assert said(response) == [("error", f"The upload of {failed.file_name} failed: {failed.error}")]
    response = secretary_client.post(reverse("uploads:retry", args=[failed.upload_id]), follow=True)
    assert said(response) == [("success", f"Upload sent: {failed.file_name}.")]
    # With a broker the job waits for a worker: only then is "queued" the truth.
    monkeypatch.setattr(jobs.send_upload, "delay", lambda pk: None)
    other = FederationEndpoint.objects.create(name="PBN", url=fed.url, file_format=FileFormat.PBN)
    response = secretary_client.post(
        reverse("uploads:send"), {"endpoint": other.pk, "tournament": tournament.pk}, follow=True
    )
    waiting = Upload.objects.get(endpoint=other)
    assert waiting.state == UploadState.QUEUED
    assert said(response) == [("info", f"Upload queued: {waiting.file_name}.")]
