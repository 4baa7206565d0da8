from django.apps import AppConfig


class TavernConfig(AppConfig):
    name = "districts.tavern"
    label = "tavern"
