from django.apps import AppConfig


class RealtyConfig(AppConfig):
    name = "districts.realty"
    label = "realty"
