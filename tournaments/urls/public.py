"""URLs of the public pages."""

urlpatterns: list = []
