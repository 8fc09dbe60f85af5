"""Real runs in the page: gpu_runs' result files (results.py) rendered as tables, charts,
provenance lines and the run index, and the claims the prose makes about them (blocks.py)."""
