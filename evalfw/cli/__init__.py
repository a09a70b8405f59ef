"""The ``evalfw`` command line: ``main.py`` plus one module per command (``cmd_<name>.py``)."""
