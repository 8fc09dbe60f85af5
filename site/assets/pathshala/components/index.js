// Entry point of the lesson components (mkdocs.yml extra_javascript). The HTML is complete from
// the build; these modules only add behaviour, each component independently of the others.
import { enhanceSteppers } from "./stepper.js";
import { enhanceQuizzes } from "./quiz.js";
import { enhanceReveals } from "./reveal.js";
import { enhanceProgress } from "./progress.js";

function enhanceComponents() {
  for (const enhance of [enhanceSteppers, enhanceQuizzes, enhanceReveals, enhanceProgress]) {
    try { enhance(); } catch (error) { console.error(error); }
  }
}

enhanceComponents();
globalThis.document$?.subscribe?.(() => enhanceComponents()); // instant navigation swapped the page

