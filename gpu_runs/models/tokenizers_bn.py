"""Tokenizers trained on the generated Bangla text.

Both are built with the `tokenizers` library and handed to transformers
through ``tokenizer_object=``.  Building a BertTokenizerFast from
``vocab_file=`` under transformers 5 silently produced a 5-token vocabulary
where every word became [UNK]; tests assert the unknown-token share so that
pitfall cannot return unnoticed.
"""
from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def wordpiece(texts: list[str], vocab_size: int = 4000):
    """A BERT-style WordPiece tokenizer.  No lower-casing or accent stripping:
    stripping accents would delete Bangla vowel signs (Unicode category Mn)."""
    from transformers import BertTokenizerFast

    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, min_frequency=2, special_tokens=BERT_SPECIALS,
                                        continuing_subword_prefix="##")
    tok.train_from_iterator(texts, trainer=trainer)
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)])
    tok.decoder = decoders.WordPiece(prefix="##")
    return BertTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                             sep_token="[SEP]", mask_token="[MASK]", do_lower_case=False)


def byte_bpe(texts: list[str], vocab_size: int = 2000):
    """A byte-level BPE tokenizer like Qwen2's (smaller vocabulary)."""
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(texts, trainer=trainer)
    return PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                   pad_token="<|endoftext|>", unk_token=None)


def unknown_share(tokenizer, texts: list[str]) -> float:
    """Share of (non-special) tokens that are the unknown token."""
    unk = tokenizer.unk_token_id
    total = hits = 0
    for ids in tokenizer(texts, add_special_tokens=False)["input_ids"]:
        total += len(ids)
        hits += sum(1 for i in ids if i == unk)
    return hits / max(total, 1)
