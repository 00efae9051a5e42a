import tournaments.models.boards
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_table_code_tokens'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tablecode',
            name='token',
            field=models.CharField(default=tournaments.models.boards.new_table_token, editable=False, max_length=43, unique=True, verbose_name='link token'),
        ),
    ]
