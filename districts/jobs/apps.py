from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "districts.jobs"
    label = "jobs"
