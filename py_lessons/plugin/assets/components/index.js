// Entry point of the lesson components (mkdocs.yml extra_javascript). The HTML is complete from
// the build; these modules only add behaviour, each component independently of the others.
import { enhanceSteppers } from "./stepper.js";
import { enhanceQuizzes } from "./quiz.js";
import { enhanceReveals } from "./reveal.js";
import { enhanceProgress } from "./progress.js";
import { enhancePredicts } from "./predict.js";
import { followTrail } from "./run-log.js";

function enhanceComponents() {
  for (const enhance of [enhanceSteppers, enhanceQuizzes, enhanceReveals, enhanceProgress, enhancePredicts, followTrail]) {
    try { enhance(); } catch (error) { console.error(error); }
  }
  // Code exercises build on the cells' editor (cells.js); load them only where a page has one, so
  // that a problem there never stops the other components.
  if (document.querySelector('[data-component="exercise"]')) {
    import("./exercise.js").then((module) => module.enhanceExercises()).catch((error) => console.error(error));
  }
  // The reader's work as a file (export, import, erase): loaded only where a page has the block.
  if (document.querySelector('[data-component="my-work"]')) {
    import("./my-work.js").then((module) => module.enhanceMyWork()).catch((error) => console.error(error));
  }
  // Explorable figures bring the figure sanitizer (output.js): loaded only where a page has one.
  if (document.querySelector('[data-component="explorable"]')) {
    import("./explorable.js").then((module) => module.enhanceExplorables()).catch((error) => console.error(error));
  }
}

enhanceComponents();
globalThis.document$?.subscribe?.(() => enhanceComponents()); // a swapped page gets its components too
