"""The uploads tests' fake federation and its endpoint (test_uploads.py and the modules of
its transactional tests, which cannot share that module's rows)."""

import pytest

from tests.support_fake_federation import FakeFederation
from tournaments.models.uploads import AuthKind, FederationEndpoint, FileFormat, PostMode


@pytest.fixture
def fed(settings):
    """The fake federation listens on 127.0.0.1 over plain http: allowed for these tests
    only (production refuses both, see tests/tournaments/exports/test_federation_address.py)."""
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True
    server = FakeFederation().start()
    yield server
    server.stop()


@pytest.fixture
def endpoint(fed, db, settings):
    settings.UPLOAD_RETRY_BASE_SECONDS = 0
    return FederationEndpoint.objects.create(
        name="AEB resultados",
        url=fed.url,
        auth=AuthKind.TOKEN,
        secret="s3cret",
        file_format=FileFormat.USEBIO,
        mode=PostMode.FORM,
        timeout=1,
        max_retries=3,
    )
