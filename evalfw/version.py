"""The evalfw version, in one place: records, signatures and ``--version`` read it here."""

__version__ = "0.1.0"


__all__ = ["__version__"]
