import pytest

from support.gpu_runs import run_cli


@pytest.fixture(scope="session")
def quick_runs(tmp_path_factory):
    """`run --all --quick` once for the whole session, with its own model cache."""
    base = tmp_path_factory.mktemp("quick")
    out = base / "results"
    proc = run_cli("run", "--all", "--quick", "--device", "cpu", "--out", str(out),
                   env_extra={"GPU_RUNS_CACHE": str(base / "cache")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out
