"""The file e-mail backend the test workers send with: one file for each connection.

Django's own names a connection's file by the second and the backend object's address, so
two connections opened in the same second at one address (the first already freed) wrote
into one file, and a test counting a file per connection counted one batch short."""

import os
import uuid

from django.core.mail.backends.filebased import EmailBackend as FileBackend


class EmailBackend(FileBackend):
    def _get_filename(self):
        if self._fname is None:
            self._fname = os.path.join(self.file_path, f"{uuid.uuid4().hex}.log")
        return self._fname
