"""The uploader only talks to a federation's public https server (no SSRF): the form and
every send check the URL's scheme and every address its host resolves to, the connection
goes to the address that was checked, and a federation gets a deadline for its whole answer.

Host names are resolved by a stand-in for ``socket.getaddrinfo``: no test uses the network.
"""

import socket
import time

import pytest
from django.utils import translation

from tests.support_fake_federation import FakeFederation
from tournaments import jobs
from tournaments.exports.federation_address import UnsafeAddress, check_url
from tournaments.forms.uploads import EndpointForm
from tournaments.models.uploads import AuthKind, FederationEndpoint, FileFormat, UploadState

NAMES = {
    "localhost": ["127.0.0.1", "::1"],
    "resultados.federacion.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "metadata.example": ["169.254.169.254"],
    "intranet.example": ["10.0.0.7"],
    "mixed.example": ["93.184.216.34", "192.168.1.10"],
}
ORIGINAL_GETADDRINFO = socket.getaddrinfo


@pytest.fixture
def dns(monkeypatch):
    """Names resolve from ``NAMES`` (IP literals to themselves); ``asked`` lists lookups."""
    asked = []

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        asked.append(host)
        addresses = NAMES.get(host)
        if addresses is None:
            try:
                return ORIGINAL_GETADDRINFO(host, port, family, type, proto, socket.AI_NUMERICHOST)
            except socket.gaierror:
                raise socket.gaierror(socket.EAI_NONAME, "Name or service not known") from None
        return [
            (socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
            for a in addresses
        ]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


NOT_PUBLIC = "is not a public internet address"
HTTPS_ONLY = "The endpoint must be an https:// address."


@pytest.mark.parametrize(
    ("url", "reason"),
    [
        ("https://127.0.0.1/upload", NOT_PUBLIC),
        ("https://localhost:8443/upload", NOT_PUBLIC),
        ("https://10.1.2.3/upload", NOT_PUBLIC),
        ("https://intranet.example/upload", NOT_PUBLIC),
        ("https://169.254.169.254/latest/meta-data/", NOT_PUBLIC),
        ("https://metadata.example/upload", NOT_PUBLIC),
        ("https://[::1]/upload", NOT_PUBLIC),
        ("https://[::ffff:127.0.0.1]/upload", NOT_PUBLIC),
        ("https://[fe80::1]/upload", NOT_PUBLIC),
        ("https://0.0.0.0/upload", NOT_PUBLIC),
        ("https://224.0.0.1/upload", NOT_PUBLIC),
        ("https://mixed.example/upload", NOT_PUBLIC),  # one bad address is enough
        ("http://resultados.federacion.example/upload", HTTPS_ONLY),
        ("ftp://resultados.federacion.example/upload", HTTPS_ONLY),
        ("https://user:pw@resultados.federacion.example/", "Enter a valid endpoint URL."),
        ("https://no-such-host.example/upload", "host name could not be found"),
    ],
)
def test_addresses_inside_or_not_https_are_refused(dns, url, reason):
    with pytest.raises(UnsafeAddress, match=reason):
        check_url(url)


def test_a_public_https_endpoint_is_accepted(dns):
    checked = check_url("https://resultados.federacion.example:8443/api/upload?club=7")
    assert (checked.scheme, checked.host, checked.port, checked.ip, checked.target) == (
        "https",
        "resultados.federacion.example",
        8443,
        "93.184.216.34",
        "/api/upload?club=7",
    )
    assert check_url("https://[2606:2800:220:1:248:1893:25c8:1946]/").ip.startswith("2606:")


def test_test_servers_need_both_settings_and_link_local_stays_out(dns, settings):
    settings.FEDERATION_ALLOW_HTTP = True
    with pytest.raises(UnsafeAddress, match=NOT_PUBLIC):
        check_url("http://127.0.0.1:8000/upload")
    settings.FEDERATION_ALLOW_PRIVATE = True
    assert check_url("http://127.0.0.1:8000/upload").ip == "127.0.0.1"
    assert check_url("http://intranet.example/upload").ip == "10.0.0.7"
    for url in ("http://169.254.169.254/", "http://metadata.example/", "http://[fe80::1]/"):
        with pytest.raises(UnsafeAddress, match=NOT_PUBLIC):
            check_url(url)


def _form(url: str, **extra) -> EndpointForm:
    return EndpointForm(
        {
            "name": "AEB",
            "federation": "AEB",
            "url": url,
            "file_format": "usebio",
            "mode": "form",
            "auth": "none",
            "timeout": 30,
            "max_retries": 5,
            "enabled": "on",
            **extra,
        }
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/upload",
        "https://localhost/upload",
        "https://10.0.0.7/",
        "https://169.254.169.254/",
        "https://[::1]/upload",
        "http://resultados.federacion.example/",
    ],
)
def test_the_form_says_why_an_endpoint_is_refused(dns, url):
    form = _form(url)
    assert not form.is_valid()
    [message] = form.errors["url"]
    assert NOT_PUBLIC in message or message == HTTPS_ONLY


@pytest.mark.django_db
def test_the_form_saves_a_public_https_endpoint_and_caps_the_timeout(dns):
    assert _form("https://resultados.federacion.example/upload").is_valid()
    form = _form("https://resultados.federacion.example/upload", timeout=3600)
    assert not form.is_valid() and form.errors["timeout"] == ["Between 1 and 120 seconds."]


@pytest.mark.django_db
def test_the_form_refuses_in_the_secretarys_language(dns, secretary_client, settings):
    from django.urls import reverse

    secretary_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    response = secretary_client.post(
        reverse("uploads:endpoint_new"),
        {
            "name": "AEB",
            "federation": "AEB",
            "url": "https://169.254.169.254/",
            "auth": "none",
            "file_format": "usebio",
            "mode": "form",
            "timeout": 30,
            "max_retries": 5,
        },
    )
    assert response.status_code == 200
    assert "no es una dirección pública de internet" in response.content.decode()
    assert not FederationEndpoint.objects.exists()


@pytest.fixture
def mitchell_tournament(mitchell_session):
    return mitchell_session.session.tournament


def _upload(endpoint, tournament, capture):
    with capture(execute=True):
        made, _created = jobs.request_upload(endpoint, tournament=tournament)
    made.refresh_from_db()
    return made


@pytest.mark.django_db
def test_send_checks_again_and_never_connects_inside(
    dns, mitchell_tournament, monkeypatch, django_capture_on_commit_callbacks
):
    """An endpoint stored before this check (or edited in the admin) is refused at send
    time, before any connection, and not retried."""
    connections = []
    monkeypatch.setattr(
        socket, "create_connection", lambda *args, **kwargs: connections.append(args)
    )
    endpoint = FederationEndpoint.objects.create(
        name="Old",
        url="https://metadata.example/latest",
        auth=AuthKind.NONE,
        file_format=FileFormat.USEBIO,
        max_retries=3,
    )
    upload = _upload(endpoint, mitchell_tournament, django_capture_on_commit_callbacks)
    assert upload.state == UploadState.FAILED and connections == []
    assert upload.attempts.count() == 1
    assert "The endpoint was not contacted" in upload.error and NOT_PUBLIC in upload.error


@pytest.mark.django_db
def test_the_connection_goes_to_the_address_that_was_checked(
    mitchell_tournament, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """DNS rebinding: the name answers a test server's address when checked, then the
    metadata service's. The request still reaches the checked address, under its name."""
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True
    answers = iter(["127.0.0.1"])

    def rebinding(host, port, *args, **kwargs):
        if host == "rebinding.example":
            address = next(answers, "169.254.169.254")
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]
        return ORIGINAL_GETADDRINFO(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    fed = FakeFederation().start()
    try:
        port = fed.server.server_address[1]
        endpoint = FederationEndpoint.objects.create(
            name="Rebinding",
            url=f"http://rebinding.example:{port}/upload",
            auth=AuthKind.NONE,
            file_format=FileFormat.USEBIO,
            timeout=2,
            max_retries=0,
        )
        upload = _upload(endpoint, mitchell_tournament, django_capture_on_commit_callbacks)
    finally:
        fed.stop()
    assert upload.state == UploadState.SENT, upload.error
    [request] = fed.requests
    assert request["headers"]["Host"] == f"rebinding.example:{port}"


@pytest.mark.django_db
def test_an_answer_dripped_byte_by_byte_is_cut_off_at_the_timeout(
    mitchell_tournament, settings, django_capture_on_commit_callbacks
):
    """The endpoint's timeout bounds the whole answer, not each byte of it."""
    settings.FEDERATION_ALLOW_HTTP = settings.FEDERATION_ALLOW_PRIVATE = True
    fed = FakeFederation().start()
    fed.script, fed.drip_bytes, fed.drip_seconds = ["drip"], 20, 0.4  # 8 s in all
    try:
        endpoint = FederationEndpoint.objects.create(
            name="Slow",
            url=fed.url,
            auth=AuthKind.NONE,
            file_format=FileFormat.USEBIO,
            timeout=1,
            max_retries=0,
        )
        started = time.monotonic()
        upload = _upload(endpoint, mitchell_tournament, django_capture_on_commit_callbacks)
        took = time.monotonic() - started
    finally:
        fed.stop()
    assert upload.state == UploadState.FAILED and "timed out" in upload.error
    assert took < 4, took
