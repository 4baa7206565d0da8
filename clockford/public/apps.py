from django.apps import AppConfig


class PublicConfig(AppConfig):
    name = "clockford.public"
    label = "public"
    verbose_name = "The public town: the map and the feed"
