"""URLs of the table pages."""

urlpatterns: list = []
