from django.apps import AppConfig


class DiceHouseConfig(AppConfig):
    name = "districts.dice_house"
    label = "dice_house"
