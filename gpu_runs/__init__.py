"""gpu_runs: the real PyTorch experiments behind the Pathshala lessons.

Importing this package must stay cheap and must not pull in torch:
the site build imports :mod:`gpu_runs.site`, which only reads JSON.
"""

__version__ = "0.1.0"

SCHEMA_VERSION = 1
