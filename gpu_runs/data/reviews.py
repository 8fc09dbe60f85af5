"""A Bangla product-review corpus generated from templates.

Three labels: 0 = negative, 1 = mixed/neutral, 2 = positive.  A review is
one to three clauses about aspects of an order (delivery, price, quality…).
Each clause carries a polarity; intensifiers strengthen it, negation flips
it ("ভালো না"), and after "কিন্তু" the later clause weighs more, as people
write.  The label comes from the summed score, then a share of labels is
flipped and the text gets typos and filler words.  The result is learnable
but not clean, so a classifier lands well below a perfect score.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

LABELS = ["নেতিবাচক", "মিশ্র", "ইতিবাচক"]
LABELS_EN = ["negative", "mixed", "positive"]

# aspect: (subject phrases, positive predicates, negative predicates)
ASPECTS = {
    "delivery": (["ডেলিভারি", "পার্সেল আসতে", "কুরিয়ার"],
                 ["সময়মতো এসেছে", "দ্রুত হয়েছে", "ঠিকঠাক ছিল", "একদিনেই পৌঁছেছে"],
                 ["দেরিতে এসেছে", "খুব ধীর ছিল", "এক সপ্তাহ লেগেছে", "ঝামেলার ছিল"]),
    "price": (["দাম", "মূল্য", "এই দামে"],
              ["ন্যায্য", "সাশ্রয়ী", "কমই বলা যায়", "টাকা উসুল"],
              ["অনেক বেশি", "আকাশছোঁয়া", "বাজারের চেয়ে চড়া", "টাকা জলে গেল"]),
    "quality": (["মান", "জিনিসটা", "কোয়ালিটি", "পণ্যটা"],
                ["চমৎকার", "মজবুত", "ভালো", "দারুণ", "টেকসই"],
                ["খারাপ", "নিম্নমানের", "ভঙ্গুর", "বাজে", "নকল মনে হলো"]),
    "packaging": (["প্যাকেট", "মোড়ক", "প্যাকিং"],
                  ["যত্ন করে করা", "সুন্দর", "অক্ষত ছিল"],
                  ["ছেঁড়া ছিল", "ভেজা ছিল", "দুমড়ানো ছিল"]),
    "seller": (["বিক্রেতা", "দোকানদার", "পেজের লোকজন"],
               ["ভদ্র", "সাহায্য করেছেন", "দ্রুত উত্তর দেন"],
               ["উত্তর দেন না", "অভদ্র", "ফোন ধরেন না"]),
    "taste": (["স্বাদ", "খেতে", "গন্ধ"],
              ["মজাদার", "একদম টাটকা", "অসাধারণ"],
              ["বাসি", "পানসে", "টক হয়ে গেছে"]),
    "fit": (["সাইজ", "মাপ", "রং"],
            ["একদম ঠিক", "ছবির মতোই", "মানানসই"],
            ["মেলেনি", "ছবির সাথে মেলে না", "ছোট হয়েছে"]),
    "battery": (["ব্যাটারি", "চার্জ", "চার্জার"],
                ["সারাদিন চলে", "দ্রুত হয়", "ভালো ব্যাকআপ দেয়"],
                ["তাড়াতাড়ি ফুরায়", "গরম হয়ে যায়", "কাজ করে না"]),
}
NEUTRAL = ["গত সপ্তাহে অর্ডার করেছিলাম", "আম্মুর জন্য কিনেছি", "অফারে নিয়েছিলাম", "দ্বিতীয়বার নিলাম",
           "বোনের জন্মদিনে উপহার দিলাম", "বাজারঘর থেকে নিয়েছি", "গতকাল হাতে পেলাম"]
INTENSIFIERS = ["খুব", "একদম", "অনেক", "সত্যিই"]
NEGATION = ["না", "নয়"]
FILLERS = ["ভাই", "আসলে", "যাই হোক", "সত্যি বলতে", "মোটামুটি", "হুম", "আপু", "ওকে"]
CONNECTORS_PLAIN = ["আর", "এবং", ",", "তাছাড়া"]
CONNECTORS_TURN = ["কিন্তু", "তবে", "অথচ"]
ENDINGS = ["।", "!", "", "।।", " 👍", " 😞", "..."]


@dataclass
class Review:
    text: str
    label: int
    score: float


def _clause(rng: random.Random) -> tuple[str, float]:
    aspect = rng.choice(list(ASPECTS))
    subjects, pos, neg = ASPECTS[aspect]
    polarity = 1 if rng.random() < 0.5 else -1
    pred = rng.choice(pos if polarity > 0 else neg)
    weight = 1.0
    words = [rng.choice(subjects)]
    if rng.random() < 0.3:
        words.append(rng.choice(INTENSIFIERS))
        weight = 1.6
    words.append(pred)
    if rng.random() < 0.18:
        words.append(rng.choice(NEGATION))
        # "not bad" is weaker praise than "good"; "not good" is plain criticism
        polarity, weight = -polarity, (0.5 if polarity < 0 else 1.0)
    return " ".join(words), polarity * weight


def _typo(word: str, rng: random.Random) -> str:
    if len(word) < 3:
        return word
    i = rng.randrange(1, len(word) - 1)
    roll = rng.random()
    if roll < 0.4:
        return word[:i] + word[i + 1:]          # dropped letter
    if roll < 0.7:
        return word[:i] + word[i] + word[i:]    # doubled letter
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]  # swapped letters


def make_review(rng: random.Random, label_noise: float = 0.07) -> Review:
    n = rng.choices([1, 2, 3], weights=[0.35, 0.45, 0.2])[0]
    parts: list[str] = []
    score = 0.0
    if rng.random() < 0.3:
        parts.append(rng.choice(NEUTRAL) + ",")
    for k in range(n):
        text, value = _clause(rng)
        if k > 0:
            if rng.random() < 0.5:
                parts.append(rng.choice(CONNECTORS_TURN))
                score *= 0.6          # after "but" the earlier clause counts less
                value *= 1.3
            else:
                parts.append(rng.choice(CONNECTORS_PLAIN))
        parts.append(text)
        score += value
    if rng.random() < 0.25:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(FILLERS))
    words = " ".join(parts).replace(" ,", ",").split()
    words = [_typo(w, rng) if rng.random() < 0.06 else w for w in words]
    text = " ".join(words) + rng.choice(ENDINGS)
    label = 2 if score > 0.7 else (0 if score < -0.7 else 1)
    if rng.random() < label_noise:
        label = rng.choice([c for c in range(3) if c != label])
    return Review(text, label, score)


def text_key(text: str) -> str:
    """A review reduced to its words: punctuation, emoji and spacing dropped.  Two reviews with
    the same key say the same thing word for word; the splits never share a key."""
    return " ".join(_PUNCT.sub(" ", text).split())


_PUNCT = re.compile(r"[।!?.,…\"'“”‘’()\-]|[\U0001F300-\U0001FAFF\u2600-\u27BF]")


def make_corpus(seed: int = 59, n_train: int = 7510, n_val: int = 1056, n_test: int = 2143,
                exclude: set[str] | frozenset[str] = frozenset()) -> dict:
    """Splits sized like the seed lesson's (train 7,510 / validation 1,056 / test 2,143).

    No leakage: a validation review never repeats a training review word for
    word (same :func:`text_key`), and a test review repeats neither; a review
    whose key is in *exclude* is never produced.  A rejected review is simply
    replaced by the next one the generator makes, so the sizes stay exact.
    """
    rng = random.Random(seed)
    out = {}
    banned = set(exclude)
    for name, n in (("train", n_train), ("val", n_val), ("test", n_test)):
        items: list[Review] = []
        while len(items) < n:
            r = make_review(rng)
            if text_key(r.text) not in banned:
                items.append(r)
        banned |= {text_key(r.text) for r in items}
        out[name] = {"text": [r.text for r in items], "label": [r.label for r in items]}
    return out


# ---------------------------------------------------------------------------
# Plain Bangla prose for the causal LM (fables with recurring characters).
CHARACTERS = ["শিয়াল পণ্ডিত", "বাঘমামা", "কুমির", "খরগোশ", "কাক", "বুড়ো হাতি", "ছোট্ট ইঁদুর", "সারস"]
PLACES = ["বনের ধারে", "নদীর পাড়ে", "গ্রামের হাটে", "বটগাছের নিচে", "পুকুরঘাটে", "ধানখেতের আলে"]
TIMES = ["একদিন", "এক সকালে", "সন্ধ্যাবেলা", "বর্ষার দিনে", "শীতের দুপুরে"]
ACTIONS = ["বসে ভাবছিল", "খাবার খুঁজছিল", "গান গাইছিল", "ঘুমিয়ে ছিল", "গল্প শোনাচ্ছিল", "পথ চলছিল"]
EVENTS = ["হঠাৎ দেখা হলো", "একটা ফন্দি আঁটল", "ভয় পেয়ে পালাল", "বুদ্ধি করে বেঁচে গেল",
          "সবাইকে ডেকে আনল", "নিজের ভুল বুঝতে পারল"]
MORALS = ["বুদ্ধি থাকলে বিপদ কাটে।", "লোভে পাপ, পাপে মৃত্যু।", "বন্ধুর বিপদে পাশে থাকতে হয়।",
          "অহংকার পতনের মূল।", "ধৈর্য ধরলে ফল মেলে।"]


def make_story(rng: random.Random, sentences: int = 6) -> str:
    hero, other = rng.sample(CHARACTERS, 2)
    out = [f"{rng.choice(TIMES)} {hero} {rng.choice(PLACES)} {rng.choice(ACTIONS)}।"]
    for _ in range(sentences - 2):
        who = rng.choice([hero, other])
        roll = rng.random()
        if roll < 0.4:
            out.append(f"তখন {who} {rng.choice(PLACES)} গিয়ে {rng.choice(EVENTS)}।")
        elif roll < 0.7:
            out.append(f"{who} বলল, “{rng.choice(['চলো', 'শোনো', 'দাঁড়াও', 'এসো'])}, "
                       f"{rng.choice(PLACES)} {rng.choice(['যাই', 'বসি', 'দেখি'])}।”")
        else:
            out.append(f"{rng.choice(TIMES)} {who} {rng.choice(ACTIONS)}, আর {other} {rng.choice(EVENTS)}।")
    out.append(f"শেষে সবাই বুঝল, {rng.choice(MORALS)}")
    return " ".join(out)


def make_stories(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [make_story(rng, rng.randint(4, 9)) for _ in range(n)]
