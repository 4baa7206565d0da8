"""The Market keeps no records of its own: it lists what other districts hold (services.py)."""
