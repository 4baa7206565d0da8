"""Every line the town writes to its log is bounded: a request can make a line say what it sent (Django
logs a 404's path, a refused CSRF check's reason), and a path may be as long as the server in front
lets it be. A 60 KB path made a 60 KB line, once per request, for anyone who asked: a log that
anyone can fill as fast as they can send. The message is cut, with how much was left out, so an
operator still sees the start of what happened and the line's true length."""

import logging

# Long enough for any line the town writes of its own (a tool's call line is under 200 characters,
# a busy database's warning under 500), far short of what a stranger can send.
MOST = 2000


class Bounded(logging.Filter):
    """Cuts a record's message to MOST characters. A traceback (exc_info) is the town's own text and
    is left whole."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if len(message) > MOST:
            record.msg = f"{message[:MOST]}… ({len(message) - MOST} characters more)"
            record.args = None
        return True
