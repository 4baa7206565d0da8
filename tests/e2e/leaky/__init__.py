"""A town with one fault planted, for the reply gate's test over real HTTP (tests/e2e/test_withheld_live.py):
recall finds a key in any P.O. box, not only the caller's, the way a district's bug could. Served only
with DJANGO_SETTINGS_MODULE=tests.e2e.leaky.settings; nothing else imports it."""
