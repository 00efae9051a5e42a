"""Django's weekday and month words, named here so that ``makemessages`` keeps them.

Our catalogues repeat these 50 msgids of ``django/utils/dates.py`` with our own translations:
weekday and month names are lowercase in Spanish and in European Portuguese (AO90), where
Django's Portuguese catalogue capitalises them ("1 de Dezembro"). Our project catalogue comes
first, so ``date`` filters and formats read them from it. ``makemessages`` only keeps a msgid
that some source file names; this module is that source. Nothing imports it.

The words, contexts and order are Django's (``WEEKDAYS``, ``WEEKDAYS_ABBR``, ``MONTHS``,
``MONTHS_AP`` with the context "abbrev. month", ``MONTHS_ALT`` with "alt. month"). Django has
no ``pgettext_noop``: the contextual ones are marked with ``pgettext_lazy``, which
``makemessages`` reads as it does in Django's own module and which translates nothing here.
"""

from django.utils.translation import gettext_noop, pgettext_lazy

WEEKDAYS = (
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)
WEEKDAYS_ABBR = (
    gettext_noop("Mon"),
    gettext_noop("Tue"),
    gettext_noop("Wed"),
    gettext_noop("Thu"),
    gettext_noop("Fri"),
    gettext_noop("Sat"),
    gettext_noop("Sun"),
)
MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
MONTHS_AP = (  # Associated Press style, as Django's "N" format writes them
    pgettext_lazy("abbrev. month", "Jan."),
    pgettext_lazy("abbrev. month", "Feb."),
    pgettext_lazy("abbrev. month", "March"),
    pgettext_lazy("abbrev. month", "April"),
    pgettext_lazy("abbrev. month", "May"),
    pgettext_lazy("abbrev. month", "June"),
    pgettext_lazy("abbrev. month", "July"),
    pgettext_lazy("abbrev. month", "Aug."),
    pgettext_lazy("abbrev. month", "Sept."),
    pgettext_lazy("abbrev. month", "Oct."),
    pgettext_lazy("abbrev. month", "Nov."),
    pgettext_lazy("abbrev. month", "Dec."),
)
MONTHS_ALT = (  # the month standing alone ("E" format)
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
