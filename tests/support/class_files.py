"""A class of learners' "my work" files, made up for the class page's tests, and what the page
must show for them, worked out here from the files and the lessons' sources alone (never from the
page's script or the build's JSON): per learner and scope the table's figures, per question and
exercise the class's figures.

The course as the sources define it: each lesson's parts (mkdocs.yml's nav), their cells, their
quiz questions with the right answer (the choice marked ``correct: true``; an ordering's items are
written in the right order) and their exercises."""

from __future__ import annotations

import json
import math
import random
import re
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import yaml

from support.site import ROOT
from support.work import course_lessons

_BLOCK = re.compile(r"^(?P<indent>[ \t]*)```(?P<kind>mcq|ordering|exercise)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
                    re.M | re.S)


@dataclass
class Question:
    kind: str
    id: str
    answer: object             # an mcq's right choice (index); an ordering's right order
    choices: int = 0


@dataclass
class Part:
    k: int
    cells: list[str]
    questions: list[Question] = field(default_factory=list)
    exercises: list[str] = field(default_factory=list)


@dataclass
class Lesson:
    id: str
    url: str                   # from the site's root, as work files write keys: "/lessons/optimization/"
    parts: list[Part]


def _blocks(src_text: str):
    for match in _BLOCK.finditer(src_text):
        indent = match["indent"]
        body = "\n".join(line[len(indent):] for line in match["body"].splitlines())
        yield match["kind"], yaml.safe_load(body)


def course() -> list[Lesson]:
    lessons = []
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    sources = {}

    def walk(entries):
        for entry in entries:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(value, list):
                walk(value)
            elif value.startswith("lessons/"):
                sources.setdefault(value.rsplit("/", 1)[0] + "/", []).append(value)
    walk(config["nav"])
    for lesson in course_lessons():
        parts = []
        for k, (src, part) in enumerate(zip(sources[lesson["url"]], lesson["parts"]), 1):
            found = Part(k=k, cells=list(part["cells"]))
            for kind, data in _blocks((ROOT / "site" / src).read_text(encoding="utf-8")):
                if kind == "mcq":
                    right = [n for n, choice in enumerate(data["choices"]) if choice.get("correct")]
                    found.questions.append(Question("mcq", data["id"], right[0], len(data["choices"])))
                elif kind == "ordering":
                    found.questions.append(Question("ordering", data["id"], list(range(len(data["items"])))))
                else:
                    found.exercises.append(data["id"])
            parts.append(found)
        lessons.append(Lesson(id=lesson["id"], url="/" + lesson["url"], parts=parts))
    return lessons


# -- a made-up class ----------------------------------------------------------------------------
START = datetime(2030, 3, 1, 9, 0, tzinfo=timezone.utc)


def _time(rng) -> str:
    return (START + timedelta(minutes=rng.randrange(0, 60 * 24 * 30))).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _answers(rng, question: Question, version: int) -> dict | None:
    """A learner's record of one question: never checked (None), right or wrong first, tried again."""
    if rng.random() < 0.3:
        return None
    if question.kind == "mcq":
        wrong = [n for n in range(question.choices) if n != question.answer]
        first = question.answer if rng.random() < 0.45 else rng.choice(wrong[:2])  # two common mistakes
        if version == 1:
            return {"choice": first}
        tries = 1 if first == question.answer else rng.randint(1, 3)
        if first == question.answer or tries == 1:
            now = first
        else:
            now = rng.choice([question.answer, None, rng.choice(wrong)])  # right at last, cleared, wrong again
        return {"choice": now, "first": first, "tries": tries}
    right = list(question.answer)
    wrong_order = right[1:] + right[:1]
    first = right if rng.random() < 0.5 else wrong_order
    if version == 1:
        return {"order": first, "checked": True}
    tries = 1 if first == right else rng.randint(1, 3)
    now, checked = (first, True) if tries == 1 else rng.choice([(right, True), (wrong_order, False)])
    return {"order": now, "checked": checked, "first": first, "tries": tries}


def learner_items(rng, lessons: list[Lesson], version: int) -> list[dict]:
    items = []

    def add(key, value):
        items.append({"key": key, "value": value, "saved": _time(rng) if rng.random() < 0.95 else None})

    for lesson in lessons:
        if rng.random() < 0.15:
            continue  # never opened this lesson
        add(f"visit:{lesson.url}", 1_900_000_000_000)
        for part in lesson.parts:
            for cell in part.cells:
                if rng.random() < 0.6:
                    add(f"cell-run:{lesson.url}:{cell}", 1_900_000_000_000 + rng.randrange(10**9))
                if rng.random() < 0.1:
                    add(f"cell:{lesson.url}:{cell}", "print('আমার কোড')\n")
            for question in part.questions:
                record = _answers(rng, question, version)
                if record is not None:
                    add(f"{question.kind}:{lesson.url}:{question.id}", record)
            for exercise in part.exercises:
                roll = rng.random()
                if roll < 0.3:
                    continue
                attempts = rng.randint(0, 4)
                add(f"exercise:{lesson.url}:{exercise}", {"attempts": attempts, "passed": roll < 0.75, "hints": rng.randint(0, 2)})
        if rng.random() < 0.25:
            add(f"complete:{lesson.id}", True)
    return items


def work_file(namespace: str, items: list[dict], *, learner=None, version=2, exported=None, **changes) -> dict:
    data = {"format": "pathshala-work", "version": version, "site": namespace, "course": "পাঠশালা",
            "exported": exported or START.isoformat(timespec="milliseconds").replace("+00:00", "Z"), "items": items}
    if version >= 2:
        data["learner"] = learner
    return {**data, **changes}


NAMES = ["রাহেলা", "তানভীর", "সুমাইয়া", "অর্ক", "নুসরাত", "ফাহিম", "মিতু", "জয়", "<b>বোল্ড</b> নাম", "O'Brien, \"Kay\""]


def make_class(namespace: str, seed: int = 2030, learners: int = 40) -> dict[str, str]:
    """File name -> its text: `learners` learners (two of them in version-1 files, three with an
    older second file), and four files the page must refuse (corrupt, another course, a later
    version, not the format)."""
    rng = random.Random(seed)
    lessons = course()
    files: dict[str, str] = {}
    for n in range(learners):
        version = 1 if n in (5, 6) else 2
        name = f"{NAMES[n % len(NAMES)]} {n + 1}"
        learner = {"id": str(uuid.UUID(int=rng.getrandbits(128))), "name": name}
        exported = (START + timedelta(days=40, minutes=n)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        data = work_file(namespace, learner_items(rng, lessons, version), learner=learner, version=version, exported=exported)
        files[f"learner-{n + 1:02d}.json"] = json.dumps(data, ensure_ascii=False)
        if n in (10, 20, 30):  # the same learner's earlier file: the newer one counts
            older = work_file(namespace, learner_items(rng, lessons, 2), learner=learner,
                              exported=(START + timedelta(days=2)).isoformat(timespec="milliseconds").replace("+00:00", "Z"))
            files[f"learner-{n + 1:02d}-old.json"] = json.dumps(older, ensure_ascii=False)
    files["broken.json"] = files["learner-01.json"][: len(files["learner-01.json"]) // 2]
    files["other-course.json"] = json.dumps(work_file("pathshala-0000000000", [], learner={"id": "a" * 12, "name": "x"}))
    files["future.json"] = json.dumps(work_file(namespace, [], learner={"id": "b" * 12, "name": "y"}, version=99))
    files["notes.json"] = json.dumps({"hello": "world"})
    return files


# -- what the page must show, worked out from the files ---------------------------------------
def _ms(saved):
    return None if saved is None else round(datetime.fromisoformat(saved.replace("Z", "+00:00")).timestamp() * 1000)


def learners_of(files: dict[str, str], namespace: str) -> dict[str, dict]:
    """The learners the page counts: id -> {name, file, items: key -> (value, saved ms)}; of two
    files of one learner the one exported later; files of version 1 are one learner each."""
    found = {}
    for name, text in files.items():
        try:
            data = json.loads(text)
        except ValueError:
            continue
        if data.get("format") != "pathshala-work" or data.get("site") != namespace or data.get("version") not in (1, 2):
            continue
        learner = data.get("learner") or {"id": f"file:{name}", "name": ""}
        entry = {"name": learner["name"] or name.removesuffix(".json"), "file": name, "exported": data["exported"],
                 "items": {item["key"]: (item["value"], _ms(item["saved"])) for item in data["items"]}}
        if learner["id"] not in found or found[learner["id"]]["exported"] < data["exported"]:
            found[learner["id"]] = entry
    return found


def _state(question: Question, value):
    """(checked at all, shown now, first: right/wrong/unknown, first choice if an mcq's)."""
    if not isinstance(value, dict):
        return None
    tries = value.get("tries")
    if question.kind == "mcq":
        shown = isinstance(value.get("choice"), int)
        now = value.get("choice")
    else:
        shown = value.get("checked") is True
        now = value.get("order") if shown else None
    if not ((isinstance(tries, int) and tries > 0) or (tries is None and shown)):
        return None
    first = value.get("first") if isinstance(tries, int) else None
    verdict = "unknown" if first is None else "right" if first == question.answer else "wrong"
    return {"shown": shown, "right": shown and now == question.answer, "first": verdict,
            "choice": first if question.kind == "mcq" and first is not None else None}


def figures(learner: dict, lessons: list[Lesson], lesson_id: str | None = None, k: int | None = None) -> dict:
    """The table's figures for one learner, over the whole course, a lesson or one of its parts."""
    items = learner["items"]
    f = {"progress": 0, "cells": 0, "first": 0, "right": 0, "passed": 0, "failed": 0, "last": None}
    counted = total = 0
    times = []
    for lesson in lessons:
        if lesson_id is not None and lesson.id != lesson_id:
            continue
        finished = items.get(f"complete:{lesson.id}", (None,))[0] is True
        if k is None:
            times += [items.get(key, (None, None))[1] for key in (f"complete:{lesson.id}", f"visit:{lesson.url}")]
        for part in lesson.parts:
            if k is not None and part.k != k:
                continue
            ran = sum(isinstance(items.get(f"cell-run:{lesson.url}:{c}", (None,))[0], (int, float)) for c in part.cells)
            answered = 0
            for q in part.questions:
                state = _state(q, items.get(f"{q.kind}:{lesson.url}:{q.id}", (None,))[0])
                if state:
                    answered += state["shown"]
                    f["first"] += state["first"] == "right"
                    f["right"] += state["right"]
            for e in part.exercises:
                value = items.get(f"exercise:{lesson.url}:{e}", (None,))[0]
                if isinstance(value, dict):
                    f["passed"] += value.get("passed") is True
                    f["failed"] += value.get("attempts", 0) if isinstance(value.get("attempts"), int) else 0
            f["cells"] += ran
            size = len(part.cells) + len(part.questions)
            total += size
            counted += size if finished else ran + answered
            ids = part.cells + [f"{e}-code" for e in part.exercises]
            keys = [f"{kind}:{lesson.url}:{c}" for c in ids for kind in ("cell", "cell-run")]
            keys += [f"{q.kind}:{lesson.url}:{q.id}" for q in part.questions] + [f"exercise:{lesson.url}:{e}" for e in part.exercises]
            times += [items.get(key, (None, None))[1] for key in keys]
    f["progress"] = math.floor(100 * counted / total + 0.5) if total else 0  # JavaScript's Math.round
    times = [t for t in times if t is not None]
    f["last"] = max(times) if times else None
    return f


def question_figures(learners: dict, lessons: list[Lesson]) -> dict[str, dict]:
    """'kind:id' -> answered, wrong first, unknown first, the most common wrong first choice (None
    if none; a tie goes to the choice listed first) and its count; 'exercise:id' -> tried, passed, failed."""
    out = {}
    for lesson in lessons:
        for part in lesson.parts:
            for q in part.questions:
                states = [s for learner in learners.values()
                          if (s := _state(q, learner["items"].get(f"{q.kind}:{lesson.url}:{q.id}", (None,))[0]))]
                wrong = {}
                for s in states:
                    if s["choice"] is not None and s["choice"] != q.answer:
                        wrong[s["choice"]] = wrong.get(s["choice"], 0) + 1
                common = min(wrong, key=lambda c: (-wrong[c], c)) if wrong else None
                out[f"{q.kind}:{q.id}"] = {"answered": len(states), "wrong_first": sum(s["first"] == "wrong" for s in states),
                                           "unknown": sum(s["first"] == "unknown" for s in states),
                                           "common": common, "common_count": wrong.get(common, 0)}
            for e in part.exercises:
                values = [v for learner in learners.values()
                          if isinstance(v := learner["items"].get(f"exercise:{lesson.url}:{e}", (None,))[0], dict)
                          and (v.get("passed") is True or (isinstance(v.get("attempts"), int) and v["attempts"] > 0))]
                out[f"exercise:{e}"] = {"tried": len(values), "passed": sum(v.get("passed") is True for v in values),
                                        "failed": sum(v.get("attempts", 0) for v in values)}
    return out
