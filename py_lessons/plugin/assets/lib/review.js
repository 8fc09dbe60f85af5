// The reader's review cards, one stored item per answered question (store.js's reviewKey, beside
// the answer it came from: "my work" carries it, and a copy of the course at another address reads
// it, the lesson's path rebased like every page's item): {rev, card, first}. `rev` is the question's
// content revision from the build: a card for another revision, or for a question the course no
// longer has, is retired. `first` is the answer in the lesson ({at: ms, correct}), as quiz.js
// records it; the card (lib/schedule.js, FSRS) is made from it here, and moves on each review.
import { REVIEW_SETTING, reviewKey, store } from "./store.js";
import { answered, dueToday, isCard, postponed } from "./schedule.js";

/** Nothing due is counted or asked while the reader has turned review off. */
export const reviewOn = () => store.get(REVIEW_SETTING) !== "off";
export function setReviewOn(on) {
  if (on) store.remove(REVIEW_SETTING);
  else store.set(REVIEW_SETTING, "off");
}

/** A stored review's card: the one reviews have moved, else the one its lesson answer gives; null
 * for a value this course did not write. */
export function cardOf(saved) {
  if (!saved || typeof saved !== "object") return null;
  if (isCard(saved.card)) return saved.card;
  const first = saved.first;
  if (first && Number.isFinite(first.at) && typeof first.correct === "boolean") return answered(null, first.correct, new Date(first.at));
  return null;
}

/** The card after the reader's first check of it in a review; returned as stored. */
export function answeredInReview(key, rev, correct, now = new Date()) {
  const saved = store.get(key);
  const card = answered(saved?.rev === rev ? cardOf(saved) : null, correct, now);
  store.set(key, { ...saved, rev, card });
  return card;
}

/** Put off to the same time tomorrow. */
export function postpone(key, now = new Date()) {
  const saved = store.get(key);
  const card = cardOf(saved);
  if (!card) return null;
  const until = new Date(now);
  until.setDate(until.getDate() + 1);
  const moved = postponed(card, until);
  store.set(key, { ...saved, card: moved });
  return moved;
}

/** The course's questions (the build's list: kind, id, rev, lesson href) with their stored cards:
 * {due: [...], later: [...], retired} (each entry the question, its key and card; due ones by due
 * date). Cards of a changed or removed question are left out, and removed where `retire` (the
 * review page, which says how many; the home page only counts). */
export function reviewState(questions, now = new Date(), { retire = true } = {}) {
  const current = new Map();
  for (const question of questions) {
    const key = reviewKey(new URL(question.lesson, location.href).pathname, question.kind, question.id);
    current.set(key, question);
  }
  const due = [];
  const later = [];
  let retired = 0;
  for (const key of store.keys()) {
    if (!key.startsWith("review:")) continue;
    const saved = store.get(key);
    const question = current.get(key);
    const card = cardOf(saved);
    if (!question || saved?.rev !== question.rev || !card) {
      if (retire) store.remove(key);
      retired += 1;
      continue;
    }
    (dueToday(card, now) ? due : later).push({ question, key, card });
  }
  const byDue = (a, b) => a.card.due - b.card.due;
  return { due: due.sort(byDue), later: later.sort(byDue), retired };
}
