from django.apps import AppConfig


class MetricsConfig(AppConfig):
    name = "clockford.metrics"
    label = "metrics"
    verbose_name = "What the town counts for its operators"
