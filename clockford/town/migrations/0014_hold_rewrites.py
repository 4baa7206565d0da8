from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("town", "0013_budgets_closures_withheld"),
    ]

    operations = [
        migrations.AddField(
            model_name="hold",
            name="rewrites",
            field=models.CharField(blank=True, default="", max_length=20),
        ),
    ]
