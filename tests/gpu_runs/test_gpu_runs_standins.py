"""Provenance of the models gpu_runs trains or fine-tunes: cache keys without the torch version,
sha256 of weights and corpus, a stated torch mismatch, and --model PATH on a tiny saved model."""
import json
import warnings

import pytest
import torch

from gpu_runs import jsonio, standins
from gpu_runs.context import Context
from gpu_runs.data import reviews
from gpu_runs.models import causal_lm, teacher

from support.gpu_runs import run_cli, save_tiny_bert


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("GPU_RUNS_CACHE", str(folder))
    return folder


def _ctx(**kw):
    return Context(device="cpu", quick=True, seeds=[0], **kw)


def test_lm_cache_folder_does_not_depend_on_the_torch_version(monkeypatch):
    cfg = causal_lm.QUICK
    train, held = causal_lm.texts(cfg)
    name = causal_lm.cache_folder_name(cfg, True, train, held)
    monkeypatch.setattr(torch, "__version__", "9.9.9+other")
    assert causal_lm.cache_folder_name(cfg, True, train, held) == name
    # but the training settings and the corpus do change it
    assert causal_lm.cache_folder_name(cfg | {"steps": 31}, True, train, held) != name
    assert causal_lm.cache_folder_name(cfg, True, train[:-1], held) != name


def test_teacher_records_training_and_hashes_and_states_a_torch_mismatch(cache, monkeypatch):
    ctx = _ctx()
    model, tok, info, data, cfg = teacher.get_teacher(ctx)
    assert info["cached"] is False and info["trained_with_torch"] == torch.__version__
    folder = next(cache.glob("teacher-quick-*"))
    assert info["weights_sha256"] == standins.weights_sha256(folder)
    assert set(info["weights_sha256"]) == {"model.safetensors"}
    assert info["training"]["lr"] == cfg["lr"] and "AdamW" in info["training"]["optimiser"]
    assert len(info["corpus_sha256"]) == 64 and info["cache_key"] == folder.name.rsplit("-", 1)[-1]
    entry, = ctx.stand_ins
    assert entry["torch_mismatch"] is False and entry["loaded_from_cache"] is False and entry["note"] is None
    # describe() puts the settings and hashes into the model's entry
    ctx.result.models.clear()
    teacher.describe(ctx.result, model, info)
    details = ctx.result.models[0]["details"]
    assert details["weights_sha256"] == info["weights_sha256"] and details["corpus_sha256"] == info["corpus_sha256"]
    assert details["training"] == info["training"]

    # another torch finds the same cache folder, does not retrain, and says so
    monkeypatch.setattr(torch, "__version__", "2.11.0+cu130")
    ctx2 = _ctx()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        *_, info2, _, _ = teacher.get_teacher(ctx2)
    assert info2["cached"] is True and sorted(cache.iterdir()) == [folder]
    entry2, = ctx2.stand_ins
    assert entry2["torch_mismatch"] is True and entry2["trained_with_torch"] != entry2["torch_now"]
    assert "2.11.0+cu130" in entry2["note"] and "not retrained" in entry2["note"]
    assert any("trained under torch" in str(w.message) for w in caught)
    assert entry2["weights_sha256"] == info["weights_sha256"]


def _save_tiny_bert(folder, name_or_path=None):
    save_tiny_bert(folder, reviews.make_corpus(seed=3, n_train=300, n_val=20, n_test=20), vocab_size=400)
    if name_or_path is not None:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        config["_name_or_path"] = name_or_path
        (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def test_model_name_is_never_a_local_path(tmp_path):
    plain = _save_tiny_bert(tmp_path / "tiny-bert-here")
    assert standins.model_name(str(plain)) == "tiny-bert-here"
    named = _save_tiny_bert(tmp_path / "named", name_or_path="someorg/tiny-bangla-bert")
    assert standins.model_name(str(named)) == "someorg/tiny-bangla-bert"
    local = _save_tiny_bert(tmp_path / "was-local", name_or_path=str(tmp_path / "elsewhere" / "x"))
    assert standins.model_name(str(local)) == "was-local"
    assert standins.model_name("sagorsarker/bangla-bert-base") == "sagorsarker/bangla-bert-base"


def test_model_path_is_fine_tuned_once_then_loaded_from_the_cache(cache, tmp_path):
    path = _save_tiny_bert(tmp_path / "tiny-bert-for-test")
    ctx = _ctx(model_id=str(path))
    model, tok, info, data, cfg = teacher.get_teacher(ctx)
    assert info["cached"] is False and info["name"] == "tiny-bert-for-test" and info["stand_in"] is None
    assert cfg["lr"] == teacher.FINE_TUNE_LR and info["trained_on"] == "cpu"
    assert len(info["val_f1_per_epoch"]) == cfg["epochs"]
    folder, = cache.glob("finetuned-tiny-bert-for-test-quick-*")
    assert standins.read_meta(folder)["weights_sha256"] == standins.weights_sha256(folder)
    assert str(tmp_path) not in json.dumps(info) and str(tmp_path) not in json.dumps(ctx.stand_ins)
    assert next(model.parameters()).device.type == "cpu"
    ctx2 = _ctx(model_id=str(path))
    *_, info2, _, _ = teacher.get_teacher(ctx2)
    assert info2["cached"] is True and ctx2.stand_ins[0]["loaded_from_cache"] is True
    # changing the checkpoint changes the key
    with torch.no_grad():
        model2, _ = teacher.load(str(path))
        next(model2.parameters()).add_(1.0)
        model2.save_pretrained(path)
    teacher.get_teacher(_ctx(model_id=str(path)))
    assert len(list(cache.glob("finetuned-tiny-bert-for-test-quick-*"))) == 2


def test_cli_model_path_keeps_local_folders_out_of_the_json(tmp_path):
    path = _save_tiny_bert(tmp_path / "tiny-bert-cli")
    out = tmp_path / "out"
    proc = run_cli("run", "prune", "--quick", "--model", str(path), "--out", str(out),
                   env_extra={"GPU_RUNS_CACHE": str(tmp_path / "cache")})
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = (out / "prune.json").read_text(encoding="utf-8")
    jsonio.validate(json.loads(text))
    assert str(tmp_path) not in text and "/tmp/" not in text
    doc = json.loads(text)
    assert doc["provenance"]["argv"][doc["provenance"]["argv"].index("--model") + 1] == "<local>/tiny-bert-cli"
    entry, = [e for e in doc["provenance"]["stand_ins"] if e["role"] == "teacher"]
    assert entry["name"] == "tiny-bert-cli" and entry["weights_sha256"]
    assert any(m["name"] == "tiny-bert-cli" for m in doc["models"])


def test_quick_runs_record_their_stand_ins(quick_runs):
    cache = quick_runs.parent / "cache"
    for name, role, prefix in (("lowbit_llm", "language model", "lm-quick-"),
                               ("int8_dynamic", "teacher", "teacher-quick-")):
        doc = json.loads((quick_runs / f"{name}.json").read_text(encoding="utf-8"))
        entry, = [e for e in doc["provenance"]["stand_ins"] if e["role"] == role]
        folder = cache / f"{prefix}{entry['cache_key']}"
        assert entry["weights_sha256"] == standins.weights_sha256(folder), name
        assert entry["trained_with_torch"] == torch.__version__ and entry["torch_mismatch"] is False
        assert entry["training"] and len(entry["corpus_sha256"]) == 64
        pk = doc["provenance"]["packages"]
        assert pk["accelerate"] and pk["safetensors"]
