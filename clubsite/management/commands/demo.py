"""``manage.py demo``: build (or complete) the demo club; safe to run again."""

from django.core.management.base import BaseCommand

from clubsite.demo import DEMO_PASSWORD, DEMO_USERS, build_demo


class Command(BaseCommand):
    help = "Build a believable demo club (members, licences, fees, tournaments). Idempotent."

    def handle(self, *args, **options):
        for line in build_demo():
            self.stdout.write(f"demo: {line}")
        self.stdout.write(f"demo logins (password for all: {DEMO_PASSWORD}):")
        for username, first, last, roles, _number in DEMO_USERS:
            self.stdout.write(f"  {username:<11} {first} {last} — {', '.join(roles)}")
