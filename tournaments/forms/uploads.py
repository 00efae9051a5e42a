"""Forms of the secretary's federation uploads and the director's result imports."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from clubsite.web.club_forms import ClubModelForm

from ..exports.federation import MAX_TIMEOUT
from ..exports.federation_address import UnsafeAddress, check_url
from ..models.uploads import FederationEndpoint


class EndpointForm(ClubModelForm):
    url = forms.URLField(label=gettext_lazy("endpoint URL"), max_length=300, assume_scheme="https")
    secret = forms.CharField(
        label=gettext_lazy("token or password"),
        required=False,
        widget=forms.PasswordInput(render_value=False),
        help_text=gettext_lazy("Leave empty to keep the stored one."),
    )

    class Meta:
        model = FederationEndpoint
        fields = [
            "name",
            "federation",
            "url",
            "file_format",
            "mode",
            "auth",
            "username",
            "secret",
            "timeout",
            "max_retries",
            "enabled",
        ]

    def clean_url(self):
        """Only a federation's public https server (``exports.federation_address``): the
        uploader must not be pointed at this server or its network."""
        url = self.cleaned_data["url"]
        try:
            check_url(url)
        except UnsafeAddress as exc:
            raise forms.ValidationError(str(exc), code="unsafe_address") from exc
        return url

    def clean_timeout(self):
        timeout = self.cleaned_data["timeout"]
        if not 1 <= timeout <= MAX_TIMEOUT:
            raise forms.ValidationError(
                gettext("Between 1 and %(limit)d seconds.") % {"limit": MAX_TIMEOUT}
            )
        return timeout

    def save(self, commit=True):
        endpoint = super().save(commit=False)
        if not self.cleaned_data.get("secret") and self.instance.pk:
            endpoint.secret = FederationEndpoint.objects.get(pk=self.instance.pk).secret
        if commit:
            endpoint.save()
        return endpoint


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("USEBIO file (XML)"))
    replace = forms.BooleanField(
        label=gettext_lazy("Replace the earlier import of this file"),
        required=False,
        help_text=gettext_lazy(
            "A file imported before (the same file, or the same event "
            "written again) is refused unless this is ticked; then the "
            "earlier tournament is deleted and this file takes its place."
        ),
    )
