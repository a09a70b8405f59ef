"""Output checks: find the segments of a system's output that are not translations (empty,
copied from the source, in the wrong language, cut off, looping, missing the source's numbers)
before they are scored.

Each check is a plugin component of kind ``check`` (:class:`evalfw.checks.base.Check`),
registered by the hook ``evalfw_register_checks`` like any other kind; the built-in ones are in
:mod:`evalfw.checks.builtin` and :mod:`evalfw.checks.language`. The runner runs them per test
set and system, records the flagged line numbers and applies the config's ``on_flag``.
"""
