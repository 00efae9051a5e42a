"""Model forms whose choices are the current club's rows.

A model form builds its choice fields when its class is made, at import, where no club scope
is open; a club-owned model's manager refuses to query there (``clubsite.tenancy``). So the
choice fields of a ``ClubModelForm`` start empty and take the club's rows when the form is
made, inside the request's scope: a form never offers, nor accepts, another club's row.
"""

from django import forms
from django.forms.models import ModelFormMetaclass


def _scoped(model) -> bool:
    return hasattr(model.objects, "with_scopes_disabled")


def club_formfield(field, **kwargs):
    """The form field of ``field``; a relation to a club-owned model starts with no choices."""
    related = getattr(field, "related_model", None)
    if field.is_relation and related is not None and _scoped(related):
        formfield = field.formfield(queryset=related._base_manager.none(), **kwargs)
        if formfield is not None:
            formfield.club_model = related
        return formfield
    return field.formfield(**kwargs)


class ClubModelFormMetaclass(ModelFormMetaclass):
    def __new__(mcs, name, bases, attrs):
        meta = attrs.get("Meta")
        if meta is not None and not hasattr(meta, "formfield_callback"):
            meta.formfield_callback = club_formfield
        return super().__new__(mcs, name, bases, attrs)


class ClubModelForm(forms.ModelForm, metaclass=ClubModelFormMetaclass):
    """A model form whose relation fields list the current club's rows."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            model = getattr(field, "club_model", None)
            if model is not None:
                field.queryset = model.objects.all()
