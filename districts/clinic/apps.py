from django.apps import AppConfig


class ClinicConfig(AppConfig):
    name = "districts.clinic"
    label = "clinic"
