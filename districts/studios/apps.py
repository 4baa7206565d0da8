from django.apps import AppConfig


class StudiosConfig(AppConfig):
    name = "districts.studios"
    label = "studios"
