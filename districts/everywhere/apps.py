from django.apps import AppConfig


class EverywhereConfig(AppConfig):
    name = "districts.everywhere"
    label = "everywhere"
