"""The census: registry entries as they came, folded into lots, and the census's own state.

An `Entry` is one (name, version) of the registry, kept as it was received. A `Lot` is one server:
its entries folded together, with the record the town serves (`record`, sealed) and what the record
was derived from (`facts`). Lot numbers are given once and never change.

The search index is not a model: it lives in a table of the database's own kind (an FTS5 table on
SQLite, a tsvector table with a GIN index on PostgreSQL), made by migration 0002 and kept by
services.index_lots.
"""

from django.db import models


class CensusState(models.Model):
    """One row: what the census is, where it came from, how far a sync got, and its seal."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    demo = models.BooleanField(default=False)
    # Where the entries came from, in the town's words: a file's name or a registry's address.
    source = models.CharField(max_length=500, blank=True, default="")
    # The newest updatedAt among the entries: the census is "as of" this time.
    as_of = models.DateTimeField(null=True, blank=True)
    entries = models.PositiveIntegerField(default=0)
    servers = models.PositiveIntegerField(default=0)
    lit_lamps = models.PositiveIntegerField(default=0)
    root = models.CharField(max_length=64, blank=True, default="")
    holds = models.PositiveIntegerField(default=0)
    # Words a large share of the lots hold, with that share: they rank results but do not recall
    # them (services.search), so a question is never a scan of the whole census.
    common = models.JSONField(default=dict)
    sealed_at = models.DateTimeField(null=True, blank=True)
    # A sync in progress keeps its place here, so an interrupted sync resumes where it stopped.
    sync_url = models.CharField(max_length=500, blank=True, default="")
    sync_cursor = models.CharField(max_length=500, blank=True, default="")
    # The newest updatedAt of the last complete sync: the next one asks only for what changed since.
    sync_since = models.CharField(max_length=64, blank=True, default="")

    def __str__(self) -> str:
        return f"census of {self.servers} servers"


class Entry(models.Model):
    """One registry entry (a server at one version), as the registry gave it."""

    name = models.CharField(max_length=255)
    version = models.CharField(max_length=255)
    published_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16)
    # sha256 of the entry's canonical JSON: an unchanged entry is never written again.
    digest = models.CharField(max_length=64)
    # The entry's canonical JSON, kept as text: written once, read only when its server is folded.
    body = models.TextField()
    # False until the entry's server has been folded into its lot.
    folded = models.BooleanField(default=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="one_entry_per_version")]
        indexes = [models.Index(fields=["folded"], name="entry_folded"), models.Index(fields=["name"])]

    def __str__(self) -> str:
        return f"{self.name}@{self.version}"


class Lot(models.Model):
    """One server on its lot. `number` is given once, in the order servers were first registered."""

    number = models.PositiveIntegerField(primary_key=True)
    name = models.CharField(max_length=255, unique=True)
    # casefold of the name: names that differ only in case are distinct lots, and flagged.
    folded_name = models.CharField(max_length=255, db_index=True)
    # What was read from the entries (services.fold); the record is derived from it.
    facts = models.JSONField()
    # The census record as the town serves and seals it (enter, verify, signal_kit).
    record = models.JSONField()
    # Every deduction in full: rule, points, reason, clears, evidence.
    deductions = models.JSONField(default=list)
    status = models.CharField(max_length=16)
    host = models.CharField(max_length=255, blank=True, default="", db_index=True)
    score = models.PositiveSmallIntegerField(default=100)
    lamp_lit = models.BooleanField(default=False)
    # The seal's leaf hash (hex) of this record's canonical JSON.
    leaf = models.CharField(max_length=64, blank=True, default="")
    # The words the search index holds: the name split into words, the title, the description.
    search_name = models.TextField(blank=True, default="")
    search_title = models.TextField(blank=True, default="")
    search_description = models.TextField(blank=True, default="")

    def __str__(self) -> str:
        return f"lot {self.number}"
