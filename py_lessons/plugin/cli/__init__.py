"""Commands for course authors: ``python -m py_lessons.plugin.cli.new_lesson`` (a new lesson) and
``python -m py_lessons.plugin.cli.check_prose`` (the prose checks alone)."""
