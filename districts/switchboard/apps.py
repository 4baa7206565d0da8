from django.apps import AppConfig


class SwitchboardConfig(AppConfig):
    name = "districts.switchboard"
    label = "switchboard"
