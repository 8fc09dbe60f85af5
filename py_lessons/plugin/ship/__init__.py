"""Shipping the site: Pyodide staged in two layers (staging.py, with bytecode.py and
runtime_wheel.py), the plugin's front end and vendor files, the installable app, the service
worker and gzip copies, written into the built site (writer.py). Imports base/."""
