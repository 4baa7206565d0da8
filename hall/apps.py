from django.apps import AppConfig


class HallConfig(AppConfig):
    name = "hall"
    label = "hall"
    verbose_name = "The hall"

    def ready(self) -> None:
        # The sign-in's start is kept as the person signs in (a signal), whether or not a request has
        # loaded the middleware yet: a test's force_login, a management command.
        from hall import lifetime  # noqa: F401
