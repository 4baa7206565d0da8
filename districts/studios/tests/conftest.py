from districts.realty.tests.conftest import realty_census
from districts.town_hall.tests.conftest import fresh_clerk

__all__ = ["fresh_clerk", "realty_census"]
