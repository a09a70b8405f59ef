"""Helpers shared by the test modules (not tests themselves), imported as
``tests.support.<module>``. ``metric_plugins/``, ``flag_plugins/`` and ``flag_clash/`` are plain
plugin directories the tests hand to evalfw with ``--plugins-dir``, not part of this package."""
