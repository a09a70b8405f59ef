"""``python -m evalfw.compat.sacrebleu``: the ``evalfw-sacrebleu`` command."""

from evalfw.compat.sacrebleu._cli import console_main

console_main()
