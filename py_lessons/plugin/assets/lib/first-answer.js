// A question's first answer, the way into review for every kind that asks one (quiz.js's mcq and
// ordering, predict.js's reader's verdict). In a lesson, the first answer checked is kept in the
// question's review item (lib/review.js makes its card when review is asked: the lesson loads no
// scheduler); on the review page (inside [data-review-item]) a question keeps nothing of its own
// and tells the page instead (REVIEW_ANSWERED), which schedules the next time.
import { pagePath, reviewKey, store } from "./store.js";

/** Fired (bubbling) by a question on the review page at its first check: detail {correct}. */
export const REVIEW_ANSWERED = "pathshala:review-answered";

/** After a check of the question `root` (its data-component, data-id, data-revision): into review
 * from the lesson (unless this revision is there already), or the review page told. */
export function answered(root, correct, firstInReview) {
  if (root.closest("[data-review-item]")) {
    if (firstInReview) root.dispatchEvent(new CustomEvent(REVIEW_ANSWERED, { bubbles: true, detail: { correct } }));
    return;
  }
  const { component: kind, id, revision } = root.dataset;
  const key = reviewKey(pagePath(), kind, id);
  if (store.get(key)?.rev !== revision) store.set(key, { rev: revision, card: null, first: { at: Date.now(), correct } });
}

/** The first answer the lesson kept for this revision of the question `root`: {at, correct}, or null. */
export function firstAnswer(root) {
  const { component: kind, id, revision } = root.dataset;
  const saved = store.get(reviewKey(pagePath(), kind, id));
  return saved?.rev === revision && saved.first ? saved.first : null;
}
