"""``python -m docgen``."""

from docgen.console import main

main()
