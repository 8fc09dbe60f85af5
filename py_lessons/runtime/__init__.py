"""Code that also runs inside the page through Pyodide: standard library only."""
