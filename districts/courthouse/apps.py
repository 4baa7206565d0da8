from django.apps import AppConfig


class CourthouseConfig(AppConfig):
    name = "districts.courthouse"
    label = "courthouse"
