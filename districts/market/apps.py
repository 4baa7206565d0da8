from django.apps import AppConfig


class MarketConfig(AppConfig):
    name = "districts.market"
    label = "market"
