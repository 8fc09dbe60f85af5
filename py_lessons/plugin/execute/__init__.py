"""Build-time Python: the staged Pyodide under Node.js (runner.py, node/run_cells.mjs) running the
page's cells, exercises and explorable figures (build_python.py), their results cached by what
decides them (cache.py), the course's own modules (course_modules.py), and under ``serve`` what
a rebuild may reuse (serve_cache.py). Imports base/ and page/."""
