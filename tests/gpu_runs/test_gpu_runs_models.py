"""Tokenizers and the real from_pretrained loading path, on tiny models saved here."""
import torch

from gpu_runs.data import reviews
from gpu_runs.models import teacher, tokenizers_bn
from support.gpu_runs import save_tiny_bert


def _corpus():
    return reviews.make_corpus(seed=3, n_train=600, n_val=50, n_test=200)


def test_wordpiece_unknown_share_is_low():
    data = _corpus()
    tok = tokenizers_bn.wordpiece(data["train"]["text"], vocab_size=800)
    assert len(tok) > 200      # the vocab_file pitfall produced a 5-token vocabulary
    share = tokenizers_bn.unknown_share(tok, data["test"]["text"])
    assert share < 0.02, share
    # Bangla vowel signs must survive normalisation (no accent stripping)
    ids = tok("ভালো", add_special_tokens=False)["input_ids"]
    assert tok.decode(ids).replace(" ", "").replace("##", "") == "ভালো"


def test_unknown_share_detects_a_broken_vocabulary():
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import BertTokenizerFast

    broken = Tokenizer(models.WordPiece({t: i for i, t in enumerate(tokenizers_bn.BERT_SPECIALS)},
                                        unk_token="[UNK]"))
    broken.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok = BertTokenizerFast(tokenizer_object=broken, unk_token="[UNK]")
    assert tokenizers_bn.unknown_share(tok, _corpus()["test"]["text"]) > 0.9


def test_classifier_from_pretrained_roundtrip(tmp_path):
    data = _corpus()
    model, tok = save_tiny_bert(tmp_path, data, vocab_size=500)
    loaded, loaded_tok = teacher.load(str(tmp_path))
    texts = data["test"]["text"][:8]
    assert loaded_tok(texts)["input_ids"] == tok(texts)["input_ids"]
    model.eval()
    with torch.no_grad():
        expected = model(**teacher.encode(tok, texts, 32)).logits
    got = teacher.logits(loaded, loaded_tok, texts, 32)
    assert torch.allclose(expected, got, atol=1e-5)


def test_causal_lm_from_pretrained_with_bitsandbytes_cpu(tmp_path):
    from transformers import (AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig, Qwen2Config,
                              Qwen2ForCausalLM)

    stories = reviews.make_stories(1, 50)
    tok = tokenizers_bn.byte_bpe(stories, vocab_size=300)
    torch.manual_seed(0)
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128, num_hidden_layers=1,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=128)
    Qwen2ForCausalLM(cfg).save_pretrained(tmp_path)
    tok.save_pretrained(tmp_path)
    tok2 = AutoTokenizer.from_pretrained(tmp_path)
    assert tok2.decode(tok2(stories[0])["input_ids"]) == stories[0]
    bf16 = AutoModelForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16, device_map="cpu")
    nf4 = AutoModelForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16, device_map="cpu",
                                               quantization_config=BitsAndBytesConfig(
        load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
        bnb_4bit_compute_dtype=torch.bfloat16))
    assert nf4.get_memory_footprint() < bf16.get_memory_footprint()
    assert any("4bit" in type(m).__name__ for m in nf4.modules())
