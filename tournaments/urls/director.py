"""URLs of the director pages."""

urlpatterns: list = []
