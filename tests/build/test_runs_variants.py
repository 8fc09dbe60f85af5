"""CPU and CUDA variants of a run side by side: <name>.json and <name>.cuda.json."""
import json
import xml.etree.ElementTree as ET

import pytest

from gpu_runs import jsonio
from py_lessons.plugin.render.runs.blocks import RunBlocks
from py_lessons.plugin.render.runs.provenance import render_provenance, render_run_index
from py_lessons.plugin.render.runs.results import RunError, list_runs, list_variants, load_run
from py_lessons.plugin.render.runs.table import render_table
from py_lessons.plugin.page.macros import expand

from support.gpu_runs import RESULTS

GPU = "NVIDIA H200"


def _fake_cuda_copy(name: str) -> dict:
    doc = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))
    dev = doc["provenance"]["device"]
    dev.update(used="cuda", requested="cuda", cuda_available=True, name=GPU, gpu_name=GPU, cuda_version="13.0",
               cuda_driver_version="580.159.03", gpu_compute_capability="9.0")
    doc["provenance"]["command"] = f"python -m gpu_runs run {name} --device cuda"
    doc["values"]["prompt"] = "from the GPU"
    jsonio.validate(doc, where="fake cuda run")
    return doc


@pytest.fixture
def both(tmp_path):
    (tmp_path / "lowbit_llm.json").write_bytes((RESULTS / "lowbit_llm.json").read_bytes())
    (tmp_path / "lowbit_llm.cuda.json").write_text(jsonio.dumps(_fake_cuda_copy("lowbit_llm")), encoding="utf-8")
    (tmp_path / "train_deep.json").write_bytes((RESULTS / "train_deep.json").read_bytes())
    return tmp_path


def _captions(out: str) -> list[str]:
    return [c.text for c in ET.fromstring(f"<r>{out}</r>").iter("caption")]


def test_load_run_reads_each_variant_and_checks_its_device(both):
    assert load_run(both, "lowbit_llm")["provenance"]["device"]["used"] == "cpu"
    assert load_run(both, "lowbit_llm", "cuda")["provenance"]["device"]["name"] == GPU
    with pytest.raises(RunError, match=r"train_deep@cuda.*missing.*--device cuda"):
        load_run(both, "train_deep", "cuda")
    with pytest.raises(RunError, match="unknown device 'tpu'"):
        load_run(both, "train_deep", "tpu")
    (both / "train_deep.cuda.json").write_bytes((RESULTS / "train_deep.json").read_bytes())
    with pytest.raises(RunError, match="holds a run on 'cpu', not 'cuda'"):
        load_run(both, "train_deep", "cuda")
    assert list_variants(both) == [("lowbit_llm", "cpu"), ("lowbit_llm", "cuda"), ("train_deep", "cpu"),
                                        ("train_deep", "cuda")]
    assert list_runs(both) == ["lowbit_llm", "train_deep"]


def test_table_without_device_shows_both_variants_captioned_by_device(both):
    blocks = RunBlocks(both)
    out = blocks.render("run-table", "run: lowbit_llm\nkey: lowbit_table\n")
    assert out.count('data-component="run-table"') == 2 and out.count('data-device="cuda"') == 1
    cpu_cap, gpu_cap = _captions(out)
    title = load_run(both, "lowbit_llm")["tables"]["lowbit_table"]["title"]["bn"]
    assert cpu_cap.startswith(title) and "CPU" in cpu_cap and GPU not in cpu_cap
    assert gpu_cap == f"{title} · {GPU}"
    assert out.index(cpu_cap) < out.index(gpu_cap)         # the CPU variant first


def test_device_option_selects_one_variant(both):
    blocks = RunBlocks(both)
    cuda = blocks.render("run-table", "run: lowbit_llm\nkey: lowbit_table\ndevice: cuda\n")
    assert cuda.count("<table") == 1 and _captions(cuda)[0].endswith(GPU)
    cpu = blocks.render("run-table", "run: lowbit_llm\nkey: lowbit_table\ndevice: cpu\n")
    assert cpu == render_table(load_run(both, "lowbit_llm"), "lowbit_table")   # as before
    with pytest.raises(RunError, match="unknown device"):
        blocks.render("run-table", "run: lowbit_llm\nkey: lowbit_table\ndevice: gpu\n")
    with pytest.raises(RunError, match="missing"):
        blocks.render("run-table", "run: train_deep\nkey: final_table\ndevice: cuda\n")
    claim = blocks.render("run-claim", "run: lowbit_llm\npath: values.prompt\nequals: from the GPU\n"
                                       "device: cuda\nshow: true\n")
    assert "from the GPU" in claim and 'data-run="lowbit_llm"' in claim
    with pytest.raises(RunError, match="claim failed"):
        blocks.render("run-claim", "run: lowbit_llm\npath: values.prompt\nequals: from the GPU\n")
    assert "<svg" in blocks.render("run-chart", "run: train_deep\nkey: loss_curves\ndevice: cpu\n")


def test_a_run_with_only_a_cpu_file_renders_as_before(both):
    blocks = RunBlocks(both)
    out = blocks.render("run-table", "run: train_deep\nkey: final_table\n")
    assert out == render_table(load_run(both, "train_deep"), "final_table")
    assert "data-device" not in out
    line = blocks.render("run-provenance", "run: train_deep\n")
    assert line == render_provenance(load_run(both, "train_deep"))


def test_provenance_without_device_gives_a_line_per_variant(both):
    out = RunBlocks(both).render("run-provenance", "run: lowbit_llm\n")
    lines = out.split("\n")
    assert len(lines) == 2
    assert GPU not in lines[0] and "CPU" in lines[0]
    assert GPU in lines[1] and "--device cuda" in lines[1] and 'data-device="cuda"' in lines[1]


def test_run_index_lists_every_variant(both):
    html = render_run_index(both, lambda slug: f"../lessons/{slug}/")
    rows = [r for r in ET.fromstring(html).iter("tr") if r.get("data-run")]
    assert [(r.get("data-run"), r.get("data-device")) for r in rows] == [
        ("lowbit_llm", None), ("lowbit_llm", "cuda"), ("train_deep", None)]
    assert GPU in html
    assert RunBlocks(both).render("run-index", "", "../") == html


def test_value_macro_reads_the_cuda_variant(both):
    value = RunBlocks(both).value
    assert expand("{{ run:lowbit_llm@cuda:values.prompt }}", value) == "from the GPU"
    cpu_prompt = load_run(both, "lowbit_llm")["values"]["prompt"]
    assert expand("{{ run:lowbit_llm:values.prompt }}", value) == cpu_prompt
    with pytest.raises(ValueError, match="train_deep@cuda"):
        expand("{{ run:train_deep@cuda:values.plain_final_loss }}", value)


def test_a_result_file_is_validated_once_until_it_changes(both, monkeypatch):
    checked = []
    real = jsonio.validate
    monkeypatch.setattr(jsonio, "validate", lambda doc, where: (checked.append(where), real(doc, where=where)))
    first = load_run(both, "train_deep")
    first["values"]["mutated by a caller"] = True
    again = load_run(both, "train_deep")
    assert len(checked) == 1 and "mutated by a caller" not in again["values"]  # callers get their own copy
    doc = json.loads((both / "train_deep.json").read_text(encoding="utf-8"))
    doc["provenance"]["device"] = "not a device record"  # the file changes: read and checked again
    (both / "train_deep.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RunError):
        load_run(both, "train_deep")
    assert len(checked) == 2
