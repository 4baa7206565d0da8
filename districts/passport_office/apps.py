from django.apps import AppConfig


class PassportOfficeConfig(AppConfig):
    name = "districts.passport_office"
    label = "passport_office"
