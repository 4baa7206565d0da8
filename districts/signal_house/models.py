"""The Signal House keeps no records of its own: a kit is built from the sealed census record, and the
public count of kits drawn is read from the Archive's footsteps."""
