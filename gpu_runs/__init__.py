"""gpu_runs: the real PyTorch experiments behind the Pathshala lessons.

It ends at JSON files (``gpu_runs/results/*.json``, schema ``run.schema.json``).
Importing this package must stay cheap and must not pull in torch: the site
build imports :mod:`gpu_runs.jsonio` to read and validate those files.
"""

__version__ = "0.1.0"

SCHEMA_VERSION = 5
