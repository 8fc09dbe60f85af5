"""Pure-Python library that runs inside Pyodide, both in the reader's browser and at build time.

Nothing here may import numpy, matplotlib or anything outside the standard library at module level:
the same wheel is loaded in a Web Worker and under Node.js, and both must behave identically.
"""
