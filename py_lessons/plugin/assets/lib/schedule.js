// When an answered question comes back for review: FSRS, through ts-fsrs (vendor/fsrs.js). Pure
// functions of a card and a time, so that the same answers give the same dates on every device
// and in the tests (tests/unit/test_review_schedule.py runs them in Node). lib/review.js stores
// the cards; this file only computes them.
import { Rating, createEmptyCard, fsrs, generatorParameters } from "../../vendor/fsrs.js";

// Long-term only: a course's question comes back after days, never in minutes (FSRS's learning
// steps drill flashcards within one sitting). No fuzz: a date is the same everywhere.
const SETTINGS = { enable_short_term: false, enable_fuzz: false };

/** A scheduler with FSRS's default weights, or `w` (the tests give the library's own). */
export function scheduler(w) {
  return fsrs(generatorParameters(w ? { ...SETTINGS, w } : SETTINGS));
}

const DEFAULT = scheduler();

/** An answer right at its first check is "Good"; any other "Again" (the question was forgotten).
 * A review has no "Hard" or "Easy": the learner is not asked to grade themselves. */
export const ratingFor = (correct) => (correct ? Rating.Good : Rating.Again);

/** The card after answering at `now` (a Date): a new card when `card` is null. As stored: JSON
 * with times in ms. */
export const answered = (card, correct, now, f = DEFAULT) => graded(card, ratingFor(correct), now, f);

/** The card after an answer graded directly (1 Again … 4 Easy): the library's own test histories
 * use all four. */
export function graded(card, grade, now, f = DEFAULT) {
  return frozen(f.next(card ? revived(card) : createEmptyCard(now), now, grade).card);
}

/** The card put off to `until` (a Date): only its due date moves, its memory is unchanged. */
export const postponed = (card, until) => ({ ...card, due: until.getTime() });

/** Due by the end of `now`'s day (the learner's local day): what "today's review" counts. */
export function dueToday(card, now) {
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return Number.isFinite(card?.due) && card.due <= end.getTime();
}

function revived(card) {
  return { ...card, due: new Date(card.due), last_review: card.last_review == null ? undefined : new Date(card.last_review) };
}

function frozen(card) {
  return {
    due: card.due.getTime(), stability: card.stability, difficulty: card.difficulty,
    elapsed_days: card.elapsed_days, scheduled_days: card.scheduled_days, learning_steps: card.learning_steps,
    reps: card.reps, lapses: card.lapses, state: card.state,
    last_review: card.last_review ? card.last_review.getTime() : null,
  };
}

/** Whether a stored value is a card this file wrote (a hand-edited or foreign file's may not be). */
export function isCard(card) {
  return card !== null && typeof card === "object" && Number.isFinite(card.due) && Number.isFinite(card.stability)
    && Number.isFinite(card.difficulty) && Number.isInteger(card.reps) && Number.isInteger(card.state);
}
