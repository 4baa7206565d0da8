from django.apps import AppConfig


class AlleyConfig(AppConfig):
    name = "districts.alley"
    label = "alley"
