"""Language choice without URL prefixes.

The club's language (settings.LANGUAGE_CODE) is what a visitor sees first; the language
switcher stores a cookie that wins from then on. The browser's Accept-Language is not
consulted: a Spanish club shows Spanish to a tablet set up in English. A page a screen opens
with no one to switch it (the room screen's link, ``?lang=pt``) names its language in its
address: ``use_language`` there wins over the cookie for that request.
"""

from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers


class ClubLocaleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.supported = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request):
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.supported else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = language
        response = self.get_response(request)
        patch_vary_headers(response, ("Cookie",))
        response.headers.setdefault("Content-Language", language)
        return response


def supported_language(code) -> str | None:
    """``code`` if it is one of the site's languages, else None."""
    return code if code in {c for c, _name in settings.LANGUAGES} else None


def use_language(request, code) -> str | None:
    """Show this request in ``code`` (a language the address names) when the site has it;
    returns the language used, None when ``code`` is not one (the cookie's stays)."""
    language = supported_language(code)
    if language is not None:
        translation.activate(language)
        request.LANGUAGE_CODE = language
    return language
