"""The town's read API (django-ninja) at /api/: the census, the public map, feed and counts, and the
Archive's signed checkpoints and proofs, each with a typed schema, described by OpenAPI at
/api/openapi.json (docs/api.md)."""
