from django.apps import AppConfig


class HallConfig(AppConfig):
    name = "hall"
    label = "hall"
    verbose_name = "The hall"
