from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "districts.arena"
    label = "arena"
