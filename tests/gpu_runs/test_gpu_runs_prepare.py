"""`python -m gpu_runs prepare-gpu`: the offline GPU bundle, prepared and dry-run on the CPU."""
import json
import os
import re
import subprocess
import sys

from gpu_runs import jsonio
from gpu_runs.models import causal_lm
from gpu_runs.prepare_gpu import REQUIREMENTS

from support.gpu_runs import ROOT, run_cli


def test_requirements_gpu_pins_every_wheel_with_a_hash():
    lines = [l.strip() for l in REQUIREMENTS.read_text(encoding="utf-8").splitlines()
             if l.strip() and not l.startswith("#")]
    names = set()
    for line in lines:
        assert re.fullmatch(r"[a-z0-9-]+==[0-9.]+ --hash=sha256:[0-9a-f]{64}", line), line
        names.add(line.split("==")[0])
    assert {"bitsandbytes", "jsonschema"} <= names


def test_prepare_gpu_bundle_and_its_script(quick_runs, tmp_path):
    cache = quick_runs.parent / "cache"          # the quick stand-in LM the session already trained
    wheels = tmp_path / "fake-wheels"
    wheels.mkdir()
    (wheels / "bitsandbytes-0.50.2-py3-none-manylinux_2_24_x86_64.whl").write_bytes(b"not a real wheel")
    bundle = tmp_path / "bundle"
    proc = run_cli("prepare-gpu", "--out", str(bundle), "--quick", "--wheels-from", str(wheels),
                   env_extra={"GPU_RUNS_CACHE": str(cache)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "run_gpu.sh" in proc.stdout
    cfg = causal_lm.QUICK
    lm = causal_lm.cache_folder_name(cfg, True, *causal_lm.texts(cfg))
    assert (bundle / "cache" / lm / "model.safetensors").is_file()
    assert (bundle / "cache" / lm / "gpu_runs_meta.json").is_file()
    assert (bundle / "requirements-gpu.txt").read_text() == REQUIREMENTS.read_text()
    manifest = json.loads((bundle / "MANIFEST.json").read_text(encoding="utf-8"))
    assert manifest["stand_in_lm"] == lm and manifest["total_bytes"] < 60e6
    assert f"cache/{lm}/model.safetensors" in manifest["files"] and "run_gpu.sh" in manifest["files"]
    # refuses to overwrite a non-empty folder
    again = run_cli("prepare-gpu", "--out", str(bundle), "--quick", "--no-wheels",
                    env_extra={"GPU_RUNS_CACHE": str(cache)})
    assert again.returncode == 2 and "not an empty folder" in again.stderr

    script = bundle / "run_gpu.sh"
    dry = subprocess.run(["bash", str(script), "--dry-run"], cwd=ROOT, capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    lines = [l for l in dry.stdout.splitlines() if l.startswith("+ ")]
    assert "-m pip install --no-index --no-deps --require-hashes --find-links" in lines[0]
    assert str(bundle / "wheels") in lines[0] and str(bundle / "requirements-gpu.txt") in lines[0]
    assert lines[1] == f"+ export GPU_RUNS_CACHE={bundle / 'cache'}"
    assert lines[2].endswith("-m gpu_runs run lowbit_llm mixed_precision --device cuda --quick")
    wrong = subprocess.run(["bash", str(script), "--dry-run"], cwd=tmp_path, capture_output=True, text=True)
    assert wrong.returncode == 2 and "repository root" in wrong.stderr

    # the script's run step, on the CPU: it finds the bundled stand-in instead of training one
    out = tmp_path / "results"
    run = subprocess.run(["bash", str(script), "--no-install", "--device", "cpu", "--out", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900,
                         env=dict(os.environ, PYTHON=sys.executable))
    assert run.returncode == 0, run.stderr[-3000:]
    assert sorted(p.name for p in out.iterdir()) == ["lowbit_llm.json", "mixed_precision.json"]
    doc = json.loads((out / "lowbit_llm.json").read_text(encoding="utf-8"))
    jsonio.validate(doc)
    entry, = doc["provenance"]["stand_ins"]
    assert entry["loaded_from_cache"] is True and entry["cache_key"] == lm.rsplit("-", 1)[-1]
    assert sorted(p.name for p in (bundle / "cache").iterdir()) == [lm]      # nothing retrained
