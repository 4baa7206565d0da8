from django.apps import AppConfig


class UniversityConfig(AppConfig):
    name = "districts.university"
    label = "university"
