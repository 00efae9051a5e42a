"""``manage.py reset_two_factor USERNAME``: for a person who lost both the phone and the
recovery codes; their sessions end, and their next sign-in sets up a new authenticator app."""

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from clubsite.accounts.two_factor import sign_out_everywhere, turn_off
from clubsite.ops.clubs import ClubCommand


class Command(ClubCommand):
    help = (
        "Remove USERNAME's authenticator app and recovery codes: staff set up a new "
        "app at their next sign-in."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no account named {options['username']!r}")
        turn_off(user)
        ended = sign_out_everywhere(user)
        self.stdout.write(
            f"two-factor sign-in reset for {user.username}; {ended} session(s) "
            "signed out (change the password too if it may be known)"
        )
