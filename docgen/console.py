"""The ``docgen`` command's entry point: Ctrl-C while the command line is still loading
ends the run as Ctrl-C does later (exit 130, nothing printed), not with a traceback."""

from __future__ import annotations

import sys

#: The exit code of a run stopped with Ctrl-C, as shells report SIGINT.
INTERRUPTED = 130


def main() -> None:
    """Load the command line, then run it (see ``docgen.cli.main``)."""
    try:
        from docgen.cli import main as run
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)
    run()
