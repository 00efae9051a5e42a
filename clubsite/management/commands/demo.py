"""``manage.py demo``: build (or complete) the demo club, or with ``--federation`` three demo
clubs on one installation; safe to run again."""

from django.conf import settings

from clubsite.demo import (
    DEMO_CLUBS,
    DEMO_OFFICER,
    DEMO_PASSWORD,
    DEMO_USERS,
    build_demo,
    build_federation,
)
from clubsite.ops.clubs import ClubCommand


class Command(ClubCommand):
    help = "Build a believable demo club (members, licences, fees, tournaments). Idempotent."

    def add_arguments(self, parser):
        parser.add_argument(
            "--federation",
            action="store_true",
            help="three demo clubs, each at <short name>.CLUB_BASE_DOMAIN",
        )

    def handle(self, *args, federation=False, **options):
        for line in build_federation() if federation else build_demo():
            self.stdout.write(f"demo: {line}")
        if federation:
            base = settings.CLUB_BASE_DOMAIN or "CLUB_BASE_DOMAIN"
            for slug, name, _address in DEMO_CLUBS:
                self.stdout.write(f"  {name}: http://{slug}.{base}/")
        self.stdout.write(f"demo logins (password for all: {DEMO_PASSWORD}):")
        for username, first, last, roles, _number in DEMO_USERS:
            self.stdout.write(f"  {username:<11} {first} {last} — {', '.join(roles)}")
        if federation:
            self.stdout.write(f"  {DEMO_OFFICER:<11} Elena Marín Gil — federation officer (AEB)")
