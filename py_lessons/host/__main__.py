"""`python -m py_lessons.host SITE [--port N] [--lan]`: cli.py."""

from .cli import main

main()
