// Entry point bundled by esbuild into assets/vendor/fsrs.js: ts-fsrs (npm, pinned in package.json),
// the FSRS scheduler of the open-spaced-repetition project, which Anki and others use; chosen over
// the Python `fsrs` because review runs in the page, offline, with no Python loaded. lib/schedule.js
// is its one user.
export { Rating, createEmptyCard, fsrs, generatorParameters } from "ts-fsrs";
