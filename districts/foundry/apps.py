from django.apps import AppConfig


class FoundryConfig(AppConfig):
    name = "districts.foundry"
    label = "foundry"
