"""Where the uploader may connect: a federation's public HTTPS address, nothing inside.

The secretary types the endpoint's URL, and the worker then POSTs files (with the
endpoint's token) to it. Without a check that is a way to make the server talk to
itself or its network (the database, Redis, a cloud's metadata service at
169.254.169.254): server-side request forgery. So an address is accepted only when

* its scheme is https (http only with ``FEDERATION_ALLOW_HTTP``, for a local test server),
* it has a host and no user:password part, and
* every address its host name resolves to is a public unicast one. Loopback and private
  ranges pass only with ``FEDERATION_ALLOW_PRIVATE`` (a test server, a federation on the
  club's own network); link-local (the metadata service), multicast, unspecified and
  reserved addresses never do.

The form checks when the secretary saves; ``send`` checks again just before each
attempt and connects to the very address it checked (``pinned_connection``), so a name
that resolves to something else a second later (DNS rebinding) cannot slip through.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import urllib.parse
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _


class UnsafeAddress(ValueError):
    """The endpoint's URL may not be used; the message says why, for the secretary."""


@dataclass(frozen=True)
class CheckedAddress:
    scheme: str
    host: str  # as written in the URL: the Host header, TLS's SNI and certificate name
    port: int
    ip: str  # the resolved address that was checked, and the one to connect to
    target: str  # path and query for the request line


def _allowed(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, allow_private: bool) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_multicast or ip.is_unspecified or ip.is_link_local or ip.is_reserved:
        return False
    if ip.is_global:
        return True
    return allow_private and (ip.is_loopback or ip.is_private)


def _resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnsafeAddress(_("The endpoint's host name could not be found.")) from exc
    return list(dict.fromkeys(info[4][0] for info in infos))


def check_url(url: str) -> CheckedAddress:
    """The checked address to connect to for ``url``, or ``UnsafeAddress``."""
    allow_http = getattr(settings, "FEDERATION_ALLOW_HTTP", False)
    allow_private = getattr(settings, "FEDERATION_ALLOW_PRIVATE", False)
    try:
        parts = urllib.parse.urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise UnsafeAddress(_("Enter a valid endpoint URL.")) from exc
    scheme = parts.scheme.lower()
    if scheme != "https" and not (scheme == "http" and allow_http):
        raise UnsafeAddress(_("The endpoint must be an https:// address."))
    host = parts.hostname
    if not host or parts.username is not None or parts.password is not None:
        raise UnsafeAddress(_("Enter a valid endpoint URL."))
    port = port or (443 if scheme == "https" else 80)
    addresses = _resolve(host, port)
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if not _allowed(ip, allow_private):
            raise UnsafeAddress(
                _(
                    "The endpoint's address %(address)s is not a public internet address; "
                    "uploads only go to a federation's public server."
                )
                % {"address": address}
            )
    if not addresses:
        raise UnsafeAddress(_("The endpoint's host name could not be found."))
    target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    return CheckedAddress(scheme=scheme, host=host, port=port, ip=addresses[0], target=target)


def pinned_connection(address: CheckedAddress, timeout: float) -> http.client.HTTPConnection:
    """A connection to ``address.ip`` that still speaks to ``address.host``: its Host header,
    and for https its SNI and the certificate it verifies (Python's default context)."""
    cls = http.client.HTTPSConnection if address.scheme == "https" else http.client.HTTPConnection
    connection = cls(address.host, address.port, timeout=timeout)

    def connect_to_checked(where, timeout=timeout, source_address=None):
        return socket.create_connection((address.ip, where[1]), timeout, source_address)

    connection._create_connection = connect_to_checked
    return connection
