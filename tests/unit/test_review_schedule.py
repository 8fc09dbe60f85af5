"""Review's schedule (assets/lib/schedule.js), run in Node against the bundle the site ships: the
answer histories of ts-fsrs's own long-term scheduler tests (its __tests__/impl/
long-term_scheduler.test.ts, at the release pinned in package.json) give the intervals and
memory states that test expects; an answer becomes the grade the page says it does; a card
survives being stored as JSON; postponing moves only the date; "due today" is the local day."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from py_lessons.plugin.base import dependencies
from py_lessons.plugin.ship.vendor import bundled

ASSETS = Path(__file__).parents[2] / "py_lessons" / "plugin" / "assets"

# The FSRS-5 weights those tests use (ts-fsrs fills in FSRS-6's two more), and per history the
# grades (1 Again, 2 Hard, 3 Good, 4 Easy) and the expected scheduled days, stability, difficulty.
W = [0.4197, 1.1869, 3.0412, 15.2441, 7.1434, 0.6477, 1.0007, 0.0674, 1.6597, 0.1712, 1.1178, 2.0225,
     0.0904, 0.3025, 2.1214, 0.2498, 2.9466, 0.4891, 0.6468]
LIBRARY_CASES = [
    ([3, 3, 3, 3, 3, 3, 1, 1, 3, 3, 3, 3, 3],
     [3, 13, 48, 155, 445, 1158, 17, 3, 11, 37, 112, 307, 773],
     [3.0412, 13.09130698, 48.15848988, 154.93732625, 445.05562739, 1158.07779739, 16.63063166, 3.01732209,
      11.42247264, 37.37521902, 111.8752758, 306.5974569, 772.94026648],
     [4.49094334, 4.26664289, 4.05746029, 3.86237659, 3.68044154, 3.51076891, 4.69833071, 5.55956298,
      5.26323756, 4.98688448, 4.72915759, 4.4888015, 4.26464541]),
    ([1, 2, 3, 4, 1, 2, 3, 4],
     [1, 2, 6, 41, 4, 7, 21, 133],
     [0.4197, 1.0344317, 5.5356759, 41.0033667, 4.46605519, 6.67743292, 20.88868155, 132.81849454],
     [7.1434, 7.03653841, 6.64066485, 5.92312772, 6.44779861, 6.45995078, 6.10293922, 5.36588547]),
    ([2, 3, 4, 1, 2, 3, 4, 1],
     [2, 7, 54, 5, 8, 26, 171, 8],
     [1.1869, 6.59167572, 53.76078737, 5.0853693, 8.09786749, 25.52991279, 171.16195166, 8.11072373],
     [6.23225985, 5.89059466, 5.14583392, 5.884097, 5.99269555, 5.667177, 4.91430736, 5.71619151]),
    ([4, 1, 2, 3, 4, 1, 2, 3],
     [15, 3, 6, 27, 240, 10, 17, 60],
     [15.2441, 3.25621013, 6.32684549, 26.56339029, 239.70462771, 9.75621519, 17.06035531, 59.59547542],
     [1.16304343, 2.99573557, 3.59851762, 3.43436666, 2.60045771, 4.03816348, 4.46259158, 4.24020203]),
]

# Runs in Node: the history through schedule.js, each card stored and read back as JSON between
# answers (as localStorage does), from the library tests' start (29 Dec 2022, 12:30 local).
HISTORY = """
import { graded, answered, scheduler, postponed, dueToday } from "./lib/schedule.js";
const cases = JSON.parse(process.argv[2]);
const f = scheduler(cases.w);
const out = { library: [], answers: {} };
for (const grades of cases.histories) {
  let card = null, now = new Date(2022, 11, 29, 12, 30, 0, 0);
  const steps = [];
  for (const grade of grades) {
    card = JSON.parse(JSON.stringify(graded(card, grade, now, f)));
    steps.push([card.scheduled_days, card.stability, card.difficulty, card.due - now.getTime()]);
    now = new Date(card.due);
  }
  out.library.push(steps);
}
const start = new Date(2026, 2, 2, 9, 0, 0, 0);
for (const [name, correct] of [["right", true], ["wrong", false]]) {
  const card = answered(null, correct, start);
  const same = graded(null, correct ? 3 : 1, start);
  out.answers[name] = { card, same: JSON.stringify(card) === JSON.stringify(same),
    dueTodayAtStart: dueToday(card, start), dueTodayThen: dueToday(card, new Date(card.due)),
    dueEarlierThatDay: dueToday(card, new Date(card.due - 3_600_000 * 2)),
    dueEveningBefore: dueToday(card, new Date(card.due - 3_600_000 * 12)),
    postponed: postponed(card, new Date(2026, 2, 5, 8, 0)) };
}
out.start = start.getTime();
out.retention = scheduler().parameters.request_retention;
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def run_schedule(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed (the plugin's build runs on it)")
    folder = tmp_path_factory.mktemp("schedule")
    (folder / "site" / "lib").mkdir(parents=True)
    (folder / "vendor").mkdir()
    shutil.copyfile(ASSETS / "lib" / "schedule.js", folder / "site" / "lib" / "schedule.js")
    modules = dependencies.node_modules()
    shutil.copyfile(bundled("fsrs.js", modules, dependencies.user_cache() / "bundles"), folder / "vendor" / "fsrs.js")
    (folder / "site" / "history.mjs").write_text(HISTORY, encoding="utf-8")
    (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    cases = {"w": W, "histories": [grades for grades, *_ in LIBRARY_CASES]}
    done = subprocess.run([node, str(folder / "site" / "history.mjs"), json.dumps(cases)], capture_output=True,
                          text=True, check=True, env={"TZ": "Asia/Dhaka", "PATH": "/usr/bin:/bin"})
    return json.loads(done.stdout.splitlines()[-1])  # the library says on a line before that it fills in w


@pytest.mark.parametrize("case", range(len(LIBRARY_CASES)))
def test_answer_histories_give_the_library_tests_intervals_and_memory(run_schedule, case):
    _, days, stability, difficulty = LIBRARY_CASES[case]
    steps = run_schedule["library"][case]
    assert [step[0] for step in steps] == days
    assert [round(step[1], 8) for step in steps] == stability
    assert [round(step[2], 8) for step in steps] == difficulty
    # the due date is the interval in whole days after the answer (no minutes-long learning steps)
    assert [step[3] for step in steps] == [d * 86_400_000 for d in days]


def test_a_right_answer_is_good_and_a_wrong_one_again(run_schedule):
    answers = run_schedule["answers"]
    assert answers["right"]["same"] and answers["wrong"]["same"]
    day = 86_400_000
    assert answers["wrong"]["card"]["due"] - run_schedule["start"] == 1 * day  # "ভুল হলে পরদিনই" (review/index.md)
    assert answers["right"]["card"]["due"] - run_schedule["start"] > 1 * day   # "ঠিক হলে কয়েক দিন পরে"
    assert answers["right"]["card"]["scheduled_days"] == 3  # FSRS's default weights: "তিন দিন পরে" (review/index.md)
    assert run_schedule["retention"] == 0.9  # a question returns when recall is expected to fall to "৯০%" (review/index.md)
    assert answers["wrong"]["card"]["lapses"] == 0 and answers["wrong"]["card"]["reps"] == 1


def test_due_today_is_the_local_day_and_postponing_moves_only_the_date(run_schedule):
    for answer in run_schedule["answers"].values():
        assert answer["dueTodayAtStart"] is False
        assert answer["dueTodayThen"] is True
        assert answer["dueEarlierThatDay"] is True    # due at 09:00: counted from the morning
        assert answer["dueEveningBefore"] is False    # not at 21:00 the day before
        moved = answer["postponed"]
        assert {k: v for k, v in moved.items() if k != "due"} == {k: v for k, v in answer["card"].items() if k != "due"}
        assert moved["due"] != answer["card"]["due"]
