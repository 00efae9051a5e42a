"""Results store their board state (entered, confirmed, disputed, corrected by the director),
worked out once here for the existing rows from the result and its audit trail, by the rule
``services.table_corrections`` follows from now on (copied so this migration keeps it)."""

from django.db import migrations, models

DIRECTOR_ACTIONS = ("corrected", "adjusted", "resolved", "confirmed", "entered", "deleted")
DIRECTOR_CHANGES = ("corrected", "adjusted")
BATCH = 2000


def _state(adjustment, confirmed, history) -> str:
    director = [action for action, by_director in history if by_director]
    last_dispute = max((i for i, (action, _d) in enumerate(history) if action == "disputed"),
                       default=None)
    if last_dispute is not None and not any(
            by_director and action in DIRECTOR_ACTIONS
            for action, by_director in history[last_dispute + 1:]):
        return "disputed"
    if adjustment or any(action in DIRECTOR_CHANGES for action in director):
        return "corrected"
    return "confirmed" if confirmed else "entered"


def fill(apps, schema_editor):
    Result = apps.get_model("tournaments", "Result")
    AuditEntry = apps.get_model("tournaments", "AuditEntry")
    last = 0
    while True:
        rows = list(Result.objects.filter(pk__gt=last).order_by("pk")
                    .values_list("pk", "adjustment", "confirmed")[:BATCH])
        if not rows:
            return
        last = rows[-1][0]
        history = {pk: [] for pk, _a, _c in rows}
        for pk, action, user_id, code_id in AuditEntry.objects.filter(
                result_id__in=list(history),
                action__in=[*DIRECTOR_ACTIONS, "disputed", "table_edit"],
        ).order_by("at", "id").values_list("result_id", "action", "user_id", "table_code_id"):
            history[pk].append((action, user_id is not None and code_id is None))
        by_state: dict[str, list[int]] = {}
        for pk, adjustment, confirmed in rows:
            state = _state(adjustment, confirmed, history[pk])
            if state != "entered":
                by_state.setdefault(state, []).append(pk)
        for state, pks in by_state.items():
            Result.objects.filter(pk__in=pks).update(board_state=state)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0015_tournament_import_identity_and_conventions"),
    ]

    operations = [
        migrations.AddField(
            model_name="result",
            name="board_state",
            field=models.CharField(
                choices=[("entered", "Entered"), ("confirmed", "Confirmed"),
                         ("disputed", "Disputed"), ("corrected", "Corrected by the director")],
                default="entered", editable=False, max_length=10, verbose_name="board state"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
