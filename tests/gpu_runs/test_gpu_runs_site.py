"""gpu_runs.site against the committed full-run results."""
import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from gpu_runs import site
from gpu_runs.registry import EXPERIMENTS

from gpu_runs_testlib import RESULTS, ROOT


def test_site_module_does_not_import_torch():
    code = ("import sys, gpu_runs.site as s; s.make_fences(sys.argv[1]); "
            "print(any(m in sys.modules for m in ('torch', 'transformers')))")
    out = subprocess.run([sys.executable, "-c", code, str(RESULTS)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_committed_full_runs_exist_and_came_from_the_cli(name):
    run = site.load_run(RESULTS, name)
    prov = run["provenance"]
    assert run["quick"] is False
    assert prov["command"].startswith("python -m gpu_runs run")
    assert "--quick" not in prov["argv"]
    assert prov["git_commit"] and re.fullmatch(r"[0-9a-f]{40}", prov["git_commit"])
    text = (RESULTS / f"{name}.json").read_text(encoding="utf-8")
    assert "/tmp/" not in text and "/home/" not in text and "/root" not in text


def test_load_run_names_missing_and_malformed_files(tmp_path):
    with pytest.raises(site.RunError, match="train_deep.*missing"):
        site.load_run(tmp_path, "train_deep")
    (tmp_path / "train_deep.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(site.RunError, match="train_deep"):
        site.load_run(tmp_path, "train_deep")
    doc = json.loads((RESULTS / "train_deep.json").read_text(encoding="utf-8"))
    del doc["provenance"]["git_commit"]
    (tmp_path / "train_deep.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(site.RunError, match="git_commit"):
        site.load_run(tmp_path, "train_deep")


def test_table_has_bangla_headings_and_digits():
    run = site.load_run(RESULTS, "train_deep")
    html = site.render_table(run, "final_table", bangla_digits=True)
    root = ET.fromstring(html)
    assert root.get("data-component") == "run-table" and root.get("data-run") == "train_deep"
    heads = [th.text for th in root.iter("th")]
    assert heads == [c["bn"] for c in run["tables"]["final_table"]["columns"]]
    rows = [[td.text for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    plain = next(r for r in rows if r[0] == "plain")
    assert plain[1] == format(run["values"]["plain_final_loss"], ".4f").translate(site.BANGLA_DIGITS)
    numeric_cells = [c for r in rows for c in r[1:]]
    assert numeric_cells and not any(ch in "0123456789" for c in numeric_cells for ch in c)


def test_table_column_subset_and_unknown_column():
    run = site.load_run(RESULTS, "train_deep")
    html = site.render_table(run, "final_table", columns=["model", "val_acc"], caption="x")
    assert html.count("</th>") == 2 and "<caption>x</caption>" in html
    with pytest.raises(site.RunError, match="train_deep.*nope"):
        site.render_table(run, "final_table", columns=["nope"])
    with pytest.raises(site.RunError, match="train_deep.*no table 'missing'"):
        site.render_table(run, "missing")


def test_nan_and_inf_are_rendered_not_dropped():
    run = site.load_run(RESULTS, "explode")
    rows = run["tables"]["steps_table"]["rows"]
    n_nan = sum(1 for r in rows for v in r.values() if isinstance(v, float) and math.isnan(v))
    n_inf = sum(1 for r in rows for v in r.values() if isinstance(v, float) and math.isinf(v))
    assert n_nan > 0
    html = site.render_table(run, "steps_table")
    assert html.count(">NaN<") == n_nan
    assert html.count(">inf<") == n_inf
    assert html.count('class="nonfinite"') == n_nan + n_inf


def test_chart_is_inline_svg_with_text():
    run = site.load_run(RESULTS, "train_deep")
    out = site.render_chart(run, "loss_curves")
    assert out.startswith('<figure class="gpu-run-chart" data-component="run-chart" data-run="train_deep"')
    svg = out[out.index("<svg"):out.index("</svg>") + 6]
    root = ET.fromstring(svg)
    texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for line in run["series"]["loss_curves"]["lines"]:
        assert line["label"] in texts          # svg.fonttype none keeps labels as text
    assert site.render_chart(run, "loss_curves") == out   # deterministic output


def test_provenance_line():
    run = site.load_run(RESULTS, "int8_dynamic")
    line = site.render_provenance(run)
    prov = run["provenance"]
    assert prov["packages"]["torch"] in line
    assert prov["finished_utc"][:10] in line
    assert "python -m gpu_runs run" in line
    assert 'data-component="run-provenance"' in line


def test_claims_that_hold_and_fail():
    run = site.load_run(RESULTS, "train_deep")
    ln3 = math.log(3)
    value = site.check_claim(run, "values.plain_final_loss", approx=ln3, tol=0.01)
    assert value == run["values"]["plain_final_loss"]
    site.check_claim(run, "tables.final_table.rows[model=plain].final_loss", approx=ln3, tol=0.01)
    prenorm = run["values"]["prenorm_final_loss"]
    with pytest.raises(site.RunError) as err:
        site.check_claim(run, "values.prenorm_final_loss", approx=ln3, tol=0.01)
    assert "values.prenorm_final_loss" in str(err.value) and repr(prenorm) in str(err.value)
    with pytest.raises(site.RunError, match="not found"):
        site.check_claim(run, "values.no_such_value", gt=0)
    explode = site.load_run(RESULTS, "explode")
    site.check_claim(explode, "values.none_final_loss", equals="NaN")
    with pytest.raises(site.RunError, match="NaN"):
        site.check_claim(explode, "values.none_final_loss", lt=10)


def test_run_index_lists_every_committed_run():
    html = site.render_run_index(RESULTS)
    for path in RESULTS.glob("*.json"):
        assert f'data-run="{path.stem}"' in html
    assert "cuda" in html      # absent CUDA variants are stated


def test_fences(tmp_path):
    fences = {f["name"]: f for f in site.make_fences(RESULTS)}
    assert set(fences) == set(site.FENCES)
    for f in fences.values():
        assert f["class"] == f["name"] and callable(f["format"])
    fmt = lambda name, body: fences[name]["format"](body, name, name, {}, None)
    assert 'data-run="train_deep"' in fmt("run-table", "run: train_deep\nkey: final_table\nbangla_digits: true\n")
    assert "<svg" in fmt("run-chart", "run: train_deep\nkey: loss_curves\n")
    assert "python -m gpu_runs" in fmt("run-provenance", "run: train_deep\n")
    assert fmt("run-claim", "run: train_deep\npath: values.plain_gap_to_ln3\nlt: 0.01\n")
    with pytest.raises(site.RunError, match="train_deep.*nope"):
        fmt("run-table", "run: train_deep\nkey: nope\n")
    with pytest.raises(site.RunError, match="missing.*key"):
        fmt("run-chart", "run: train_deep\n")
    with pytest.raises(site.RunError, match="claim failed"):
        fmt("run-claim", "run: train_deep\npath: values.plain_val_acc\ngt: 0.99\n")
    with pytest.raises(site.RunError, match="'nosuchrun'"):
        fmt("run-provenance", "run: nosuchrun\n")
