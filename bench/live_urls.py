"""The site's URLs and an empty view, the live-load bench's baseline on the same server."""

from django.http import HttpResponse
from django.urls import include, path

from clubsite.accounts.permissions import public


@public
def empty_view(request):
    """An empty 200 through the full middleware stack (CSRF checked on a POST)."""
    return HttpResponse()


urlpatterns = [path("bench-empty/", empty_view), path("", include("clubsite.urls"))]
