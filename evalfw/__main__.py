"""``python -m evalfw`` runs the command-line interface."""

from evalfw.cli.entry import main

main()
