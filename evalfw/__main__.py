"""``python -m evalfw`` runs the command-line interface."""

import sys

from evalfw.cli.main import main

sys.exit(main())
