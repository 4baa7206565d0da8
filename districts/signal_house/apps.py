from django.apps import AppConfig


class SignalHouseConfig(AppConfig):
    name = "districts.signal_house"
    label = "signal_house"
