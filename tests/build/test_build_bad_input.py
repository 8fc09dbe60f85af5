"""Build-side bad input: a missing or broken run file, a claim that no longer holds, a bad macro
all fail the build with the file and line, never a silent empty box."""

from __future__ import annotations

import json

from support.site import ROOT, build_site, make_site


def site_with_runs(tmp_path, page, runs):
    config = make_site(tmp_path, {"index.md": page})
    runs_dir = tmp_path / "runs"
    runs_dir.mkdir()
    for name, text in runs.items():
        (runs_dir / f"{name}.json").write_text(text, encoding="utf-8")
    config.write_text(config.read_text().replace("      packages: [numpy]", f"      packages: [numpy]\n      runs_dir: {runs_dir}"))
    return config


def real_run(name):
    return (ROOT / "gpu_runs" / "results" / f"{name}.json").read_text(encoding="utf-8")


def test_missing_run_file_names_page_and_line(tmp_path):
    config = site_with_runs(tmp_path, "# t\n\n```run-table\nrun: clip_api\nkey: clip_table\n```\n", {})
    done = build_site(tmp_path / "out", config)
    assert done.returncode != 0
    assert "index.md:3: run-table:" in done.stderr and "clip_api" in done.stderr and "missing" in done.stderr


def test_malformed_run_file_fails_the_build(tmp_path):
    broken = json.loads(real_run("clip_api"))
    del broken["provenance"]
    config = site_with_runs(tmp_path, "text\n\n```run-provenance\nrun: clip_api\n```\n", {"clip_api": json.dumps(broken)})
    done = build_site(tmp_path / "out", config)
    assert done.returncode != 0 and "index.md:3: run-provenance:" in done.stderr and "provenance" in done.stderr


def test_a_claim_that_no_longer_holds_fails_with_the_actual_value(tmp_path):
    run = json.loads(real_run("clip_api"))
    returned = run["values"]["norm_case0_returned"]
    page = f"```run-claim\nrun: clip_api\npath: values.norm_case0_returned\nlt: {returned / 2}\n```\n"
    config = site_with_runs(tmp_path, page, {"clip_api": real_run("clip_api")})
    done = build_site(tmp_path / "out", config)
    assert done.returncode != 0 and "index.md:1: run-claim:" in done.stderr and str(returned) in done.stderr


def test_the_same_claim_holding_builds(tmp_path):
    run = json.loads(real_run("clip_api"))
    page = f"```run-claim\nrun: clip_api\npath: values.norm_case0_returned\ngt: {run['values']['norm_case0_returned'] / 2}\n```\n"
    config = site_with_runs(tmp_path, page, {"clip_api": real_run("clip_api")})
    assert build_site(tmp_path / "out", config).returncode == 0
