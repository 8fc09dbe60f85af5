"""Per-experiment devices, side-by-side CPU/CUDA result files, schema migration (no GPU needed:
CUDA is faked at the level where the device is resolved and described)."""
import json
import shutil

import pytest
import torch

from gpu_runs import SCHEMA_VERSION, cli, jsonio, migrate, provenance, runner
from gpu_runs.registry import EXPERIMENTS

from support.gpu_runs import RESULTS
from support.run_labels import SCHEMA_3_HEADINGS, as_schema_2, as_schema_3, as_schema_4

FAKE_GPU = "NVIDIA H200 (faked by the test)"


@pytest.fixture
def fake_cuda(monkeypatch):
    """torch believes a CUDA GPU is present (nothing is ever run on it)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=0: FAKE_GPU)
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda i=0: (9, 0))
    monkeypatch.setattr(torch.version, "cuda", "13.0")
    monkeypatch.setattr(provenance, "_nvidia_driver", lambda: "580.159.03")


def test_registry_device_flags_match_their_words():
    for exp in EXPERIMENTS.values():
        assert exp.uses_cuda == ("cuda" in exp.devices), exp.name
    assert {e.name for e in EXPERIMENTS.values() if e.uses_cuda} == {"lowbit_llm", "mixed_precision"}


def test_auto_resolves_per_experiment_when_cuda_is_present(fake_cuda):
    for exp in EXPERIMENTS.values():
        assert cli.resolve_device("auto", exp.name) == ("cuda" if exp.uses_cuda else "cpu"), exp.name
        assert cli.resolve_device("cpu", exp.name) == "cpu"
    assert cli.resolve_device("cuda", "lowbit_llm") == "cuda"


def test_cuda_for_a_cpu_only_experiment_is_a_usage_error(fake_cuda):
    with pytest.raises(cli.UsageError, match="grad_norms runs on the CPU only"):
        cli.resolve_device("cuda", "grad_norms")
    with pytest.raises(cli.UsageError, match="CPU only"):
        cli.plan_runs(["lowbit_llm", "distill"], "cuda")
    # --all --device cuda runs what can use CUDA and skips (names) the rest
    plan, skipped = cli.plan_runs(list(EXPERIMENTS), "cuda", run_all=True)
    assert plan == [("mixed_precision", "cuda"), ("lowbit_llm", "cuda")]
    assert set(skipped) == {e for e in EXPERIMENTS if not EXPERIMENTS[e].uses_cuda}
    plan, skipped = cli.plan_runs(list(EXPERIMENTS), "auto", run_all=True)
    assert dict(plan)["grad_norms"] == "cpu" and dict(plan)["lowbit_llm"] == "cuda" and not skipped


def test_without_cuda_auto_is_cpu_everywhere(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert {cli.resolve_device("auto", n) for n in EXPERIMENTS} == {"cpu"}
    with pytest.raises(cli.UsageError, match="CUDA is not available"):
        cli.plan_runs(list(EXPERIMENTS), "cuda", run_all=True)


def test_device_info_labels_the_device_actually_used(fake_cuda):
    cpu = runner.device_info("cpu", "auto")
    assert cpu["used"] == "cpu" and cpu["cuda_available"] is True
    assert cpu["name"].startswith("CPU: ") and FAKE_GPU not in cpu["name"]
    assert all(cpu[k] is None for k in ("cuda_version", "cuda_driver_version", "gpu_name", "gpu_compute_capability"))
    gpu = runner.device_info("cuda", "auto")
    assert gpu["name"] == gpu["gpu_name"] == FAKE_GPU
    assert (gpu["cuda_version"], gpu["cuda_driver_version"], gpu["gpu_compute_capability"]) == \
        ("13.0", "580.159.03", "9.0")


def test_cpu_only_experiment_under_auto_is_labelled_cpu_with_cuda_present(fake_cuda, tmp_path):
    assert cli.main(["run", "grad_norms", "--quick", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grad_norms.json"]
    raw = json.loads((tmp_path / "grad_norms.json").read_text(encoding="utf-8"))
    jsonio.validate(raw)
    dev = raw["provenance"]["device"]
    assert dev["requested"] == "auto" and dev["used"] == "cpu" and dev["cuda_available"] is True
    assert dev["name"].startswith("CPU: ") and dev["gpu_name"] is None
    assert str(tmp_path) not in raw["provenance"]["command"]      # no local folder in the stored command


def test_a_cuda_run_is_written_beside_the_cpu_file_and_leaves_it_alone(fake_cuda, tmp_path):
    cpu_file = tmp_path / "grad_norms.json"
    shutil.copy2(RESULTS / "grad_norms.json", cpu_file)
    before = (cpu_file.read_bytes(), cpu_file.stat().st_mtime_ns)
    # the runner is told the experiment ran on CUDA (grad_norms itself ignores the device)
    path = runner.run_experiment("grad_norms", device="cuda", requested="cuda", quick=True, seeds=None,
                                 model_id=None, out_dir=tmp_path, command="python -m gpu_runs run grad_norms",
                                 argv=["run", "grad_norms"])
    assert path == tmp_path / "grad_norms.cuda.json"
    assert (cpu_file.read_bytes(), cpu_file.stat().st_mtime_ns) == before
    raw = json.loads(path.read_text(encoding="utf-8"))
    jsonio.validate(raw)
    assert raw["provenance"]["device"]["name"] == FAKE_GPU
    assert sorted(p.name for p in tmp_path.iterdir()) == ["grad_norms.cuda.json", "grad_norms.json"]


def test_result_filenames():
    assert jsonio.result_filename("lowbit_llm") == "lowbit_llm.json"
    assert jsonio.result_filename("lowbit_llm", "cuda") == "lowbit_llm.cuda.json"
    assert jsonio.parse_result_filename("lowbit_llm.cuda.json") == ("lowbit_llm", "cuda")
    assert jsonio.parse_result_filename("lowbit_llm.json") == ("lowbit_llm", "cpu")
    assert jsonio.parse_result_filename("lowbit_llm.tpu.json") is None
    with pytest.raises(ValueError):
        jsonio.result_filename("x", "tpu")


def test_migration_adds_only_null_fields(tmp_path):
    raw = json.loads((RESULTS / "train_deep.json").read_text(encoding="utf-8"))
    assert raw["schema_version"] == SCHEMA_VERSION == 5
    # rebuild the version-1 file (version 2's English chart labels, without version 2's fields) and migrate it back
    old = as_schema_2(as_schema_3(as_schema_4(raw), SCHEMA_3_HEADINGS), {})
    old["schema_version"] = 1
    for key in migrate.CUDA_FIELDS:
        del old["provenance"]["device"][key]
    for key in ("accelerate", "safetensors"):
        old["provenance"]["packages"].pop(key)
    del old["provenance"]["stand_ins"]
    with pytest.raises(ValueError, match="gpu_runs migrate"):
        jsonio.validate(old)
    (tmp_path / "train_deep.json").write_text(jsonio.dumps(old), encoding="utf-8")
    assert migrate.migrate_folder(tmp_path) == [tmp_path / "train_deep.json"]
    new = json.loads((tmp_path / "train_deep.json").read_text(encoding="utf-8"))
    jsonio.validate(new)
    assert new["provenance"]["stand_ins"] is None
    assert new["provenance"]["device"]["gpu_name"] is None and new["provenance"]["packages"]["accelerate"] is None
    assert {k: v for k, v in new.items() if k != "provenance"} == \
        {k: v for k, v in raw.items() if k != "provenance"}   # labels and titles too (test_gpu_runs_labels.py)
    assert migrate.migrate_folder(tmp_path) == []       # idempotent


def test_public_arg_hides_local_folders(tmp_path):
    assert provenance.public_arg(str(tmp_path / "my-model")) == "<local>/my-model"
    assert provenance.public_arg(str(provenance.REPO_ROOT / "gpu_runs" / "results")) == "gpu_runs/results"
    assert provenance.public_arg(f"--out={tmp_path}") == f"--out=<local>/{tmp_path.name}"
    assert provenance.public_arg("sagorsarker/bangla-bert-base") == "sagorsarker/bangla-bert-base"
