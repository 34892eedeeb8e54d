"""``python -m docgen``."""

from docgen.cli import main

main()
