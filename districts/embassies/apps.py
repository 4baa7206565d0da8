from django.apps import AppConfig


class EmbassiesConfig(AppConfig):
    name = "districts.embassies"
    label = "embassies"
