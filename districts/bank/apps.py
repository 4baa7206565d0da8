from django.apps import AppConfig


class BankConfig(AppConfig):
    name = "districts.bank"
    label = "bank"
