from django.apps import AppConfig


class PostOfficeConfig(AppConfig):
    name = "districts.post_office"
    label = "post_office"
