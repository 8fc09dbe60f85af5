import json
import math

import pytest

from gpu_runs import jsonio
from gpu_runs.util import STATUS_BN
from gpu_runs.registry import EXPERIMENTS

from support.gpu_runs import run_cli


def test_quick_all_writes_valid_files_with_provenance(quick_runs):
    files = sorted(p.stem for p in quick_runs.glob("*.json"))
    assert files == sorted(EXPERIMENTS)
    for name in files:
        raw = json.loads((quick_runs / f"{name}.json").read_text(encoding="utf-8"))
        jsonio.validate(raw, where=name)
        prov = raw["provenance"]
        assert raw["quick"] is True
        assert prov["command"].startswith("python -m gpu_runs run --all --quick")
        assert prov["device"]["used"] == "cpu" and prov["device"]["requested"] == "cpu"
        assert prov["packages"]["torch"].startswith("2.13.0")
        for pkg in ("transformers", "bitsandbytes", "torchao", "numpy"):
            assert prov["packages"][pkg], pkg
        assert prov["finished_utc"] >= prov["started_utc"]
        assert prov["threads"] >= 1 and prov["seeds"]
        assert prov["cpu"]["model"] and isinstance(prov["cpu"]["flags"], list)
        assert raw["tables"], name


def test_nonfinite_values_survive_round_trip(quick_runs):
    raw = json.loads((quick_runs / "explode.json").read_text(encoding="utf-8"))
    doc = jsonio.decode(raw)
    assert doc["values"]["none_diverged_seeds"] == len(doc["provenance"]["seeds"]), \
        "the unclipped run should blow up for every seed even in quick mode"
    assert math.isnan(doc["values"]["none_final_loss_median"])
    assert math.isfinite(doc["values"]["norm_final_loss_median"])


def test_lowbit_records_backend_and_absent_cuda(quick_runs):
    doc = json.loads((quick_runs / "lowbit_llm.json").read_text(encoding="utf-8"))
    assert "cpu backend" in doc["provenance"]["device"]["backends"]["bitsandbytes"]
    assert any(v["variant"] == "cuda" for v in doc["variants_absent"])
    statuses = {p: doc["values"][f"{p}_status"] for p in ("bf16", "int8", "nf4")}
    assert set(statuses.values()) == {"ok"}, statuses
    # the table says it in Bangla
    assert {r["status"] for r in doc["tables"]["lowbit_table"]["rows"]} == {STATUS_BN["ok"]}
    assert any(m.get("stand_in") == "replaces Qwen/Qwen2.5-0.5B" for m in doc["models"])


def test_int8_records_torchao_int4_outcome(quick_runs):
    doc = json.loads((quick_runs / "int8_dynamic.json").read_text(encoding="utf-8"))
    rows = {r["variant"]: r for r in doc["tables"]["quant_table"]["rows"]}
    assert doc["values"]["fp32_status"] == doc["values"]["torch_ao_status"] == "ok"
    assert rows["fp32"]["status"] == rows["torch.ao dynamic int8"]["status"] == STATUS_BN["ok"]   # in Bangla
    # every variant either worked or says why not
    for row in rows.values():
        assert row["status"] == STATUS_BN["ok"] or row["error"]


@pytest.mark.parametrize("args, needle", [
    (["run", "no_such_experiment"], "unknown experiment"),
    (["run", "grad_norms", "--bogus"], "unrecognized arguments"),
    (["run", "grad_norms", "--device", "tpu"], "unknown --device"),
    (["run", "grad_norms", "--seeds", "a,b"], "--seeds"),
    (["run"], "no experiment named"),
])
def test_bad_input_gives_one_line_and_nonzero_exit(args, needle, tmp_path):
    proc = run_cli(*args, "--out", str(tmp_path)) if args[0] == "run" and len(args) > 1 else run_cli(*args)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert needle in lines[0]
    assert not list(tmp_path.glob("*.json"))


def test_cuda_request_without_gpu_is_a_clear_error(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    proc = run_cli("run", "grad_norms", "--device", "cuda", "--out", str(tmp_path))
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "CUDA is not available" in proc.stderr


def test_list_names_every_experiment():
    proc = run_cli("list")
    assert proc.returncode == 0
    for name, exp in EXPERIMENTS.items():
        line = next(l for l in proc.stdout.splitlines() if l.startswith(name + " "))
        assert str(exp.lesson) in line
