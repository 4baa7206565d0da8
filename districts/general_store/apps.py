from django.apps import AppConfig


class GeneralStoreConfig(AppConfig):
    name = "districts.general_store"
    label = "general_store"

    def ready(self) -> None:
        # The desk sends `replied` for every reply it renders; the store keeps its gauge from it.
        from clockford.town import desk
        from districts.general_store import services

        desk.replied.connect(services.count, dispatch_uid="general_store.count")
