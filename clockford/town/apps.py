from django.apps import AppConfig


class TownConfig(AppConfig):
    name = "clockford.town"
    label = "town"
    verbose_name = "The town's core"
