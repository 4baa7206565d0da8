"""Everywhere keeps no records of its own: its tools read the town and move the passport."""
