"""Background work pages (namespace "uploads", mounted at ``/club/uploads/``)."""

from django.urls import path

from tournaments.views.office import pdfs, uploads

app_name = "uploads"

urlpatterns = [
    path("", uploads.index, name="index"),
    path("endpoints/new/", uploads.endpoint_edit, name="endpoint_new"),
    path("endpoints/<int:pk>/", uploads.endpoint_edit, name="endpoint_edit"),
    path("send/", uploads.send, name="send"),
    path("licences/", uploads.licences, name="licences"),
    path("<uuid:upload_id>/retry/", uploads.retry, name="retry"),
    path("<uuid:upload_id>/manual/", uploads.manual, name="manual"),
    path("<uuid:upload_id>/file/", uploads.download, name="download"),
    path("imports/", uploads.imports, name="imports"),
    path("imports/<int:pk>/", uploads.import_detail, name="import"),
    path("imports/<int:pk>/record/", uploads.import_record, name="import_record"),
    path("pdf/<slug:slug>/", pdfs.pdf_status, name="pdf"),
    path("pdf/<slug:slug>/publish/", pdfs.publish_final, name="publish"),
    path("pdf/file/<int:pk>/", pdfs.pdf_download, name="pdf_download"),
]
