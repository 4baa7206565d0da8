from django.apps import AppConfig


class TownHallConfig(AppConfig):
    name = "districts.town_hall"
    label = "town_hall"
