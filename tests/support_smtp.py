"""A real SMTP server for the tests that check what leaves the site on the wire: Django's
own SMTP backend talks to it over a socket, and each message is kept as its envelope (the
addresses the server was asked to deliver to) and its parsed headers and text."""

import email
import email.policy
import socket
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller


@dataclass
class Received:
    envelope_to: list[str]
    message: email.message.EmailMessage


@dataclass
class Sink:
    received: list[Received] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        self.received.append(Received(list(envelope.rcpt_tos), message))
        return "250 OK"

    def to(self, address: str) -> list[Received]:
        return [r for r in self.received if address in r.envelope_to]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start() -> tuple[Controller, Sink, int]:
    sink = Sink()
    port = free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, sink, port
