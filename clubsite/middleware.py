"""Language choice without URL prefixes.

The club's language (settings.LANGUAGE_CODE) is what a visitor sees first; the language
switcher stores a cookie that wins from then on. The browser's Accept-Language is not
consulted: a Spanish club shows Spanish to a tablet set up in English.
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
