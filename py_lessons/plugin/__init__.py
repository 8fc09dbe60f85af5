"""Build side: the mkdocs plugin that executes cells, stages Pyodide and renders lesson pages."""
