"""The run-block renderer (py_lessons.plugin.runs) against the committed full-run results."""
import json
import math
import re
import subprocess
import sys
import warnings
import xml.etree.ElementTree as ET

import pytest

BANGLA_DIGITS = str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")

from gpu_runs import jsonio
from gpu_runs.registry import EXPERIMENTS
from py_lessons.plugin.render.runs.blocks import NAMES, RunBlocks
from py_lessons.plugin.render.runs.chart import render_chart
from py_lessons.plugin.render.runs.provenance import render_provenance, render_run_index
from py_lessons.plugin.render.runs.results import RunError, load_run
from py_lessons.plugin.render.runs.table import render_table
from py_lessons.plugin.render.runs.values import check_claim, format_value
from py_lessons.plugin.base.strings import t

from support.gpu_runs import RESULTS, ROOT
from support.run_labels import chart_labels

SVG = "{http://www.w3.org/2000/svg}"
# every committed chart, read from the result files themselves
CHARTS = sorted((path.stem, key) for path in RESULTS.glob("*.json")
                for key in json.loads(path.read_text(encoding="utf-8"))["series"])


def test_renderer_imports_neither_torch_nor_mkdocs():
    code = ("import sys; from pathlib import Path; from py_lessons.plugin.render.runs.blocks import RunBlocks; "
            "RunBlocks(Path(sys.argv[1])).render('run-index', ''); "
            "print(sorted(m for m in ('torch', 'transformers', 'mkdocs', 'pymdownx') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, str(RESULTS)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("name", sorted(EXPERIMENTS))
def test_committed_full_runs_exist_and_came_from_the_cli(name):
    run = load_run(RESULTS, name)
    prov = run["provenance"]
    assert run["quick"] is False
    assert prov["command"].startswith("python -m gpu_runs run")
    assert "--quick" not in prov["argv"]
    assert prov["git_commit"] and re.fullmatch(r"[0-9a-f]{40}", prov["git_commit"])
    text = (RESULTS / f"{name}.json").read_text(encoding="utf-8")
    assert "/tmp/" not in text and "/home/" not in text and "/root" not in text


def test_load_run_names_missing_and_malformed_files(tmp_path):
    with pytest.raises(RunError, match="train_deep.*missing"):
        load_run(tmp_path, "train_deep")
    (tmp_path / "train_deep.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RunError, match="train_deep"):
        load_run(tmp_path, "train_deep")
    doc = json.loads((RESULTS / "train_deep.json").read_text(encoding="utf-8"))
    del doc["provenance"]["git_commit"]
    (tmp_path / "train_deep.json").write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(RunError, match="git_commit"):
        load_run(tmp_path, "train_deep")


def test_table_has_bangla_headings_and_digits():
    run = load_run(RESULTS, "train_deep")
    html = render_table(run, "final_table", bangla_digits=True)
    root = ET.fromstring(html)
    assert root.get("data-component") == "run-table" and root.get("data-run") == "train_deep"
    heads = [th.text for th in root.iter("th")]
    assert heads == [c["bn"] for c in run["tables"]["final_table"]["columns"]]
    rows = [[td.text for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    plain = next(r for r in rows if r[0] == "plain")
    assert plain[1] == format(run["values"]["plain_final_loss_median"], ".4f").translate(BANGLA_DIGITS)
    numeric_cells = [c for r in rows for c in r[1:]]
    assert numeric_cells and not any(ch in "0123456789" for c in numeric_cells for ch in c)


def test_a_code_column_shows_the_call_as_written_beside_bangla_numbers():
    run = load_run(RESULTS, "clip_api")
    root = ET.fromstring(render_table(run, "clip_table", bangla_digits=True))
    rows = [list(tr.iter("td")) for tr in root.iter("tr")][1:]
    calls = [row[1].find("code").text for row in rows]
    assert calls == [r["function"] for r in run["tables"]["clip_table"]["rows"]]  # max_norm=5, not ৫
    assert rows[0][2].text == format(run["tables"]["clip_table"]["rows"][0]["returned"], "g").translate(BANGLA_DIGITS)


def test_table_caption_is_the_bangla_title_with_the_english_as_its_tooltip():
    run = load_run(RESULTS, "grad_norms")
    root = ET.fromstring(render_table(run, "per_layer"))
    caption = root.find("table/caption")
    assert caption.text == "৩০টি hidden স্তর, প্রতিটিতে ৬৪টি neuron, PyTorch-এর নিজস্ব init, batch ২৫৬"
    assert caption.get("title") == "30 hidden layers, width 64, default init, batch 256"
    assert root.get("aria-label") == caption.text
    # a page's own caption has no English to show
    own = ET.fromstring(render_table(run, "per_layer", caption="নিজের শিরোনাম")).find("table/caption")
    assert own.text == "নিজের শিরোনাম" and own.get("title") is None


def test_heading_digits_follow_bangla_digits_but_names_keep_theirs():
    run = load_run(RESULTS, "grad_norms")
    heads = lambda **kw: [th.text for th in ET.fromstring(render_table(run, "per_layer", **kw)).iter("th")]
    assert heads(bangla_digits=True)[2:7] == ["স্তর ১", "স্তর ৫", "স্তর ১০", "স্তর ২০", "স্তর ৩০"]
    assert heads()[2:7] == ["স্তর 1", "স্তর 5", "স্তর 10", "স্তর 20", "স্তর 30"]
    mixed = load_run(RESULTS, "mixed_precision")
    named = [th.text for th in ET.fromstring(render_table(mixed, "precision_table", bangla_digits=True)).iter("th")]
    assert "fp32-এর সঙ্গে loss-এর সর্বোচ্চ পার্থক্য" in named        # fp32 is a name, not a number


def test_table_column_subset_and_unknown_column():
    run = load_run(RESULTS, "train_deep")
    html = render_table(run, "final_table", columns=["model", "val_acc_median"], caption="x")
    assert html.count("</th>") == 2 and "<caption>x</caption>" in html
    with pytest.raises(RunError, match="train_deep.*nope"):
        render_table(run, "final_table", columns=["nope"])
    with pytest.raises(RunError, match="train_deep.*no table 'missing'"):
        render_table(run, "missing")


def test_nan_and_inf_are_rendered_not_dropped():
    run = load_run(RESULTS, "explode")
    table = run["tables"]["steps_table"]
    shown = [r[c["key"]] for r in table["rows"] for c in table["columns"] if c["key"] in r]  # what the page shows
    n_nan = sum(1 for v in shown if isinstance(v, float) and math.isnan(v))
    n_inf = sum(1 for v in shown if isinstance(v, float) and math.isinf(v))
    assert n_nan > 0
    html = render_table(run, "steps_table")
    assert html.count(">NaN<") == n_nan
    assert html.count(">∞<") + html.count(">−∞<") == n_inf
    assert html.count('class="nonfinite"') == n_nan + n_inf


def test_chart_is_inline_svg_with_text():
    run = load_run(RESULTS, "train_deep")
    out = render_chart(run, "loss_curves")
    assert out.startswith('<figure class="gpu-run-chart" data-component="run-chart" data-run="train_deep"')
    svg = out[out.index("<svg"):out.index("</svg>") + 6]
    root = ET.fromstring(svg)
    texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for line in run["series"]["loss_curves"]["lines"]:
        assert line["label"]["bn"] in texts    # svg.fonttype none keeps labels as text
    assert render_chart(run, "loss_curves") == out   # deterministic output


def _svg(html_out: str) -> ET.Element:
    return ET.fromstring(html_out[html_out.index("<svg"):html_out.index("</svg>") + 6])


@pytest.mark.parametrize("name, key", CHARTS)
def test_chart_draws_its_bangla_labels_with_the_english_as_tooltips(name, key):
    series = json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))["series"][key]
    out = render_chart(load_run(RESULTS, name), key)
    root = _svg(out)
    drawn = [t.text for t in root.iter(f"{SVG}text")]
    tooltips = {}                          # the text each <title> (English) sits beside
    for group in root.iter(f"{SVG}g"):
        title = group.find(f"{SVG}title")
        if title is not None:
            tooltips[title.text] = [t.text for t in group.iter(f"{SVG}text")]
    for label in chart_labels(series):
        assert label["bn"] in drawn, label
        assert tooltips[label["en"]] == [label["bn"]], label
        if label["en"] != label["bn"]:
            assert label["en"] not in drawn, label       # no English-only label is drawn
    assert f'<figcaption title="{series["title"]["en"]}">{series["title"]["bn"]}' in out.replace("&#x27;", "'")


def test_chart_measures_bangla_with_the_cells_bangla_font():
    """Without the Bangla font matplotlib measures Bengali with DejaVu Sans and warns of missing
    glyphs (the chart's layout then leaves the labels no room)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name, key in CHARTS:
            out = render_chart(load_run(RESULTS, name), key)
            assert "Noto Sans Bengali" in out


def test_provenance_line():
    run = load_run(RESULTS, "int8_dynamic")
    line = render_provenance(run)
    prov = run["provenance"]
    assert f'<code>torch {prov["packages"]["torch"]}</code>' in line  # a version is code
    assert prov["finished_utc"][:10].translate(str.maketrans("0123456789", "০১২৩৪৫৬৭৮৯")) in line  # the date in Bangla digits
    assert "python -m gpu_runs run" in line
    assert 'data-component="run-provenance"' in line


def test_claims_that_hold_and_fail():
    run = load_run(RESULTS, "train_deep")
    ln3 = math.log(3)
    value = check_claim(run, "values.plain_final_loss_median", approx=ln3, tol=0.01)
    assert value == run["values"]["plain_final_loss_median"]
    check_claim(run, "tables.final_table.rows[model=plain].final_loss_median", approx=ln3, tol=0.01)
    prenorm = run["values"]["prenorm_final_loss_median"]
    with pytest.raises(RunError) as err:
        check_claim(run, "values.prenorm_final_loss_median", approx=ln3, tol=0.01)
    assert "values.prenorm_final_loss_median" in str(err.value) and repr(prenorm) in str(err.value)
    with pytest.raises(RunError, match="not found"):
        check_claim(run, "values.no_such_value", gt=0)
    explode = load_run(RESULTS, "explode")
    check_claim(explode, "values.none_final_loss_median", equals="NaN")
    with pytest.raises(RunError, match="NaN"):
        check_claim(explode, "values.none_final_loss_median", lt=10)


def test_run_index_lists_every_committed_run_and_links_its_lesson():
    html = render_run_index(RESULTS, lambda slug: f"../lessons/{slug}/")
    for path in RESULTS.glob("*.json"):
        assert f'data-run="{path.stem}"' in html
    assert "cuda" in html      # absent CUDA variants are stated
    for exp in EXPERIMENTS.values():
        assert f'<a href="../lessons/{exp.lesson}/">{exp.lesson}</a>' in html
    assert ('<td title="Per-layer gradient norms, 30 hidden layers">প্রতিটি স্তরের gradient norm, ৩০টি hidden স্তর'
            '</td>') in html                   # the run's Bangla title, its English as the tooltip
    for key in ("runs.index.lesson", "runs.index.measured", "runs.index.provenance", "runs.index.absent"):
        assert f"<th>{t(key)}</th>" in html
    root = ET.fromstring(html)
    assert root.get("data-component") == "run-index"


def test_blocks(tmp_path):
    blocks = RunBlocks(RESULTS)
    assert set(NAMES) == {"run-table", "run-chart", "run-claim", "run-provenance", "run-index"}
    fmt = blocks.render
    assert 'data-run="train_deep"' in fmt("run-table", "run: train_deep\nkey: final_table\nbangla_digits: true\n")
    assert "<svg" in fmt("run-chart", "run: train_deep\nkey: loss_curves\n")
    assert "python -m gpu_runs" in fmt("run-provenance", "run: train_deep\n")
    hidden = fmt("run-claim", "run: train_deep\npath: values.plain_gap_to_ln3_max\nlt: 0.01\n")
    assert hidden == "<!-- run-claim train_deep: values.plain_gap_to_ln3_max -->"  # no element
    assert 'href="../../lessons/vanishing-gradients/"' in fmt("run-index", "", "../../")
    with pytest.raises(RunError, match="train_deep.*nope"):
        fmt("run-table", "run: train_deep\nkey: nope\n")
    with pytest.raises(RunError, match="needs key"):
        fmt("run-chart", "run: train_deep\n")
    with pytest.raises(RunError, match="claim failed"):
        fmt("run-claim", "run: train_deep\npath: values.plain_val_acc_median\ngt: 0.99\n")
    with pytest.raises(RunError, match="'nosuchrun'"):
        fmt("run-provenance", "run: nosuchrun\n")
    with pytest.raises(RunError, match="unknown keys colour"):
        fmt("run-provenance", "run: train_deep\ncolour: red\n")
    with pytest.raises(RunError, match="not valid YAML"):
        fmt("run-table", "run: [\n")
    with pytest.raises(RunError, match="unknown run block"):
        fmt("run-tabel", "run: train_deep\n")


def test_blocks_reuse_a_loaded_run_until_its_file_changes(tmp_path, monkeypatch):
    target = tmp_path / "train_deep.json"
    target.write_bytes((RESULTS / "train_deep.json").read_bytes())
    blocks = RunBlocks(tmp_path)
    checked = []
    real = jsonio.validate
    monkeypatch.setattr(jsonio, "validate", lambda doc, where: (checked.append(where), real(doc, where=where)))
    assert blocks.load("train_deep") == blocks.load("train_deep")
    assert len(checked) == 1  # the file is read and checked once while it is unchanged
    doc = json.loads(target.read_text(encoding="utf-8"))
    doc["title"] = {"bn": "বদলানো শিরোনাম", "en": "changed title"}
    target.write_text(json.dumps(doc), encoding="utf-8")
    assert blocks.load("train_deep")["title"]["en"] == "changed title"
    assert len(checked) == 2


def _tiny_run(rows, columns):
    run = load_run(RESULTS, "train_deep")
    run["tables"]["tiny"] = {"title": {"bn": "", "en": ""}, "columns": columns, "rows": rows}
    return run


def test_table_numbers_go_through_the_one_formatter():
    columns = [{"key": "x", "bn": "x", "en": "x", "format": ".2f"},
               {"key": "n", "bn": "n", "en": "n", "format": ","},
               {"key": "flag", "bn": "f", "en": "f"},
               {"key": "gone", "bn": "g", "en": "g"}]
    rows = [{"x": -1.5, "n": 70003770, "flag": True, "gone": None},
            {"x": float("inf"), "n": -3, "flag": False, "gone": "text 12"}]
    run = _tiny_run(rows, columns)
    root = ET.fromstring(render_table(run, "tiny", bangla_digits=True))
    cells = [[td.text for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    assert cells[0] == ["−১.৫০", "৭,০০,০৩,৭৭০", t("runs.value.yes"), "—"]
    # a number inside text is shown in the table's digits too; a name like int8 would stay
    assert cells[1] == ["∞", "−৩", t("runs.value.no"), "text ১২"]
    latin = ET.fromstring(render_table(run, "tiny"))
    assert [td.text for td in latin.iter("td")][:2] == ["−1.50", "7,00,03,770"]
    assert format_value(0.1234, ".1%", bangla_digits=True) == "১২.৩%"


def test_claim_shown_uses_the_formatter():
    blocks = RunBlocks(RESULTS)
    run = load_run(RESULTS, "train_deep")
    value = run["values"]["plain_final_loss_median"]
    out = blocks.render("run-claim", "run: train_deep\npath: values.plain_final_loss_median\ngt: 0\nshow: true\n"
                                     "format: .3f\nbangla_digits: true\n")
    span = ET.fromstring(out)
    assert span.text == format(value, ".3f").translate(BANGLA_DIGITS) and span.get("hidden") is None


def test_committed_results_validate_with_slug_lessons():
    schema = json.loads((ROOT / "gpu_runs" / "run.schema.json").read_text(encoding="utf-8"))
    assert schema["properties"]["lesson"] == {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$"}
    for path in sorted(RESULTS.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        jsonio.validate(raw, where=path.name)
        assert raw["lesson"] == EXPERIMENTS[path.stem].lesson, path.name
    bad = json.loads((RESULTS / "grad_norms.json").read_text(encoding="utf-8"))
    bad["lesson"] = 17
    with pytest.raises(ValueError, match="lesson"):
        jsonio.validate(bad, where="grad_norms (lesson as a number)")


def test_every_registry_lesson_has_a_page():
    for exp in EXPERIMENTS.values():
        assert re.fullmatch(r"[a-z0-9][a-z0-9-]*", exp.lesson), exp
        assert (ROOT / "site" / "lessons" / exp.lesson / "index.md").is_file(), exp
        assert exp.suite == exp.lesson, exp


def test_chart_lines_use_a_colour_blind_safe_palette_in_the_lessons_order():
    """fp32, bf16, fp16 lines in the mixed-precision chart get the colours the numerical-stability
    lesson uses for those formats (Okabe-Ito blue, orange, green), not matplotlib's defaults."""
    run = load_run(RESULTS, "mixed_precision")
    svg = render_chart(run, "loss_curves")
    lesson = (ROOT / "site" / "lessons" / "numerical-stability" / "index.md").read_text(encoding="utf-8")
    colours = dict(re.findall(r'"(float32|fp16|bf16)": "(#[0-9A-Fa-f]{6})"', lesson))
    strokes = [c.lower() for c in re.findall(r"stroke: (#[0-9a-fA-F]{6})", svg)]
    wanted = [colours["float32"], colours["bf16"], colours["fp16"]]
    assert [c.lower() for c in wanted] == [c for c in dict.fromkeys(strokes) if c.lower() in
                                          {w.lower() for w in wanted}]
    assert "#1f77b4" not in strokes  # matplotlib's default first colour
