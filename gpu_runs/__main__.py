import sys

from gpu_runs.cli import main

sys.exit(main())
