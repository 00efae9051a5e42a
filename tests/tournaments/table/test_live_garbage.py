"""What a live post or read leaves for CPython's cyclic collector.

A request object sits in reference cycles (its messages, its lazy user), so whatever hangs
on it is freed only by the cyclic collector, whose pauses stop every thread of a web
process. A table device's code drags its section and the section's whole movement (about a
thousand dicts and lists on a 40-table night, for every post); the table views' guard lets go
of it when the view returns, so reference counting frees it at once.
"""

import gc

import pytest

from tests.tournaments.table.test_table_views import post_json, result_data, sign_in
from tournaments.models import Section, TableCode

pytestmark = pytest.mark.django_db


def _garbage_of(action):
    """The objects ``action`` leaves that only the cyclic collector would free."""
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        action()
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def test_a_tables_post_leaves_its_section_and_movement_to_reference_counting(
    client, mitchell_session
):
    sign_in(client, mitchell_session, 3)
    post_json(client, result_data(round_=1, board=5))  # the first post warms the caches

    def post():
        response = post_json(client, result_data(round_=1, board=6))
        assert response.status_code == 201 and response.json()["outcome"] == "created"

    garbage = _garbage_of(post)
    assert not [o for o in garbage if type(o) in (TableCode, Section)]
    assert not [o for o in garbage if type(o) is dict and "boards" in o and "ns" in o]
    assert garbage, "the request itself is still a cycle: this test would see a leak"
