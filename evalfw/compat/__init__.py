"""Drop-in replacements: ``evalfw.compat.sacrebleu`` and ``evalfw.compat.nltk``."""
