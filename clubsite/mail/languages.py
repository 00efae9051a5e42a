"""The language a mail to a member is written in: theirs, else the club's."""

from django.conf import settings


def language_of(member) -> str:
    codes = {code for code, _name in settings.LANGUAGES}
    return member.language if member.language in codes else settings.LANGUAGE_CODE
