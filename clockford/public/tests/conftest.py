from districts.realty.tests.conftest import realty_census
from districts.town_hall.tests.conftest import demo, fresh_clerk

__all__ = ["demo", "fresh_clerk", "realty_census"]
