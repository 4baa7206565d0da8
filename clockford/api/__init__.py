"""The town's read API (django-ninja) at /api/: the census, the Archive's signed checkpoints and its
proofs, each with a typed schema, described by OpenAPI at /api/openapi.json (docs/api.md)."""
