// Entry point of the lesson components (a module script of every page). The HTML is complete from
// the build; each kind's script (componentScripts in site.js: the build's list, from each
// component class's `script`) only adds behaviour, and is loaded only where the page has one of
// its kind, independently of the others: a problem in one never stops the rest.
import { CONTENT_SHOWN, onSwappedPage } from "../lib/dom.js";
import { componentScripts } from "../site.js";

function enhanceComponents() {
  const present = new Set([...document.querySelectorAll("[data-component]")].map((el) => el.dataset.component));
  const scripts = new Set(Object.entries(componentScripts).filter(([kind]) => present.has(kind)).map(([, file]) => file));
  for (const file of scripts) {
    import(`./${file}`).then((module) => module.enhance()).catch((error) => console.error(error));
  }
}

enhanceComponents();
onSwappedPage(enhanceComponents); // a swapped page gets its components too
document.addEventListener(CONTENT_SHOWN, () => enhanceComponents()); // a glossary term in an opened answer
