"""The one literal registry: every district of the spec, in its order, and every tool the town serves.

The face reads TOOLS; look_around and walk_to read DISTRICTS. A district that is not built yet is
listed with what it waits for (`opens`) and no tools: designed but not built is not registered
(001 section 03). Adding a district: see districts/README.md.
"""

from dataclasses import replace

from clockford.town.tooling import District, Tool
from districts.alley.tools import DISTRICT as ALLEY
from districts.arena.tools import DISTRICT as ARENA
from districts.bank.tools import DISTRICT as BANK
from districts.clinic.tools import DISTRICT as CLINIC
from districts.courthouse.tools import DISTRICT as COURTHOUSE
from districts.dice_house.tools import DISTRICT as DICE_HOUSE
from districts.embassies.tools import DISTRICT as EMBASSIES
from districts.everywhere.tools import EVERYWHERE
from districts.foundry.tools import DISTRICT as FOUNDRY
from districts.general_store.tools import DISTRICT as GENERAL_STORE
from districts.jobs.tools import TOOLS as JOBS
from districts.market.tools import DISTRICT as MARKET
from districts.passport_office.tools import DISTRICT as PASSPORT_OFFICE
from districts.post_office.tools import DISTRICT as POST_OFFICE
from districts.realty.tools import DISTRICT as REALTY_OFFICE
from districts.signal_house.tools import DISTRICT as SIGNAL_HOUSE
from districts.studios.tools import DISTRICT as STUDIOS
from districts.switchboard.tools import DISTRICT as SWITCHBOARD
from districts.tavern.tools import DISTRICT as TAVERN
from districts.town_hall.tools import DISTRICT as TOWN_HALL
from districts.university.tools import DISTRICT as UNIVERSITY

DISTRICTS: tuple[District, ...] = (
    # Jobs (my_jobs, job_outside) are Town Hall's tools, kept in an app of their own (docs/jobs.md).
    replace(TOWN_HALL, tools=(*TOWN_HALL.tools, *JOBS)),
    PASSPORT_OFFICE,
    POST_OFFICE,
    SWITCHBOARD,
    TAVERN,
    COURTHOUSE,
    UNIVERSITY,
    CLINIC,
    BANK,
    GENERAL_STORE,
    SIGNAL_HOUSE,
    REALTY_OFFICE,
    STUDIOS,
    FOUNDRY,
    ARENA,
    EMBASSIES,
    MARKET,
    ALLEY,
    DICE_HOUSE,
)

TOOLS: dict[str, Tool] = {t.name: t for t in (*EVERYWHERE, *(t for d in DISTRICTS for t in d.tools))}

START_PLACE = PASSPORT_OFFICE.name
