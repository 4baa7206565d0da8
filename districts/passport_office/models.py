"""The Passport Office reads the core's Passport (clockford/town/models.py); it keeps nothing else yet."""
