from django.urls import path

from . import views

app_name = "laws"

urlpatterns = [
    path("", views.index, name="index"),
    path("search/", views.search_view, name="search"),
    path("compare/<int:number>/", views.compare, name="compare"),
    path("<slug:code>/", views.toc, name="toc"),
    path("<slug:code>/definitions/", views.definitions, name="definitions"),
    path("<slug:code>/<int:number>/", views.law_detail, name="law"),
]
