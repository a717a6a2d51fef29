// LaTeX in a page (a lesson's formulas: text/latex outputs, $…$ in Markdown),
// typeset by MathJax 3 as JupyterLab does it (TeX in, its math as hidden MathML
// for screen readers), drawn as SVG so that no font is fetched.  Its own file
// (kit-math.js), loaded by kit.js only on a page that has math.

import {mathjax} from "mathjax-full/js/mathjax.js";
import {TeX} from "mathjax-full/js/input/tex.js";
import {SVG} from "mathjax-full/js/output/svg.js";
import {AllPackages} from "mathjax-full/js/input/tex/AllPackages.js";
import {SafeHandler} from "mathjax-full/js/ui/safe/SafeHandler.js";
import {HTMLHandler} from "mathjax-full/js/handlers/html/HTMLHandler.js";
import {browserAdaptor} from "mathjax-full/js/adaptors/browserAdaptor.js";
import {AssistiveMmlHandler} from "mathjax-full/js/a11y/assistive-mml.js";

mathjax.handlers.register(AssistiveMmlHandler(SafeHandler(new HTMLHandler(browserAdaptor()))));

const tex = new TeX({
  // every TeX package, as JupyterLab's MathJax
  packages: AllPackages,
  inlineMath: [["$", "$"], ["\\(", "\\)"]],
  displayMath: [["$$", "$$"], ["\\[", "\\]"]],
  processEscapes: true,
  processEnvironments: true,
});
const svg = new SVG({fontCache: "global"});
const doc = mathjax.document(window.document, {InputJax: tex, OutputJax: svg});

/** Typeset the math inside ``nodes``. */
window.rummyTypeset = (nodes) => {
  doc.options.elements = nodes;
  doc.clear().render();
  delete doc.options.elements;
};
