// The kit's page front end for Voilà's pages (the "rummy" template): in place of
// Voilà's own bundle (JupyterLab's application, its plugins and rendermime, some
// 3 MB of script in ~100 files), this one file draws the cells' outputs and
// connects their widgets to the kernel Voilà ran the notebook in.  A table is
// playable in about half the time (benchmarks/ui.py).
//
// The page (index.html.j2) holds Voilà's page settings (#jupyter-config-data:
// baseUrl, kernelId) and each output as <script type="application/vnd.voila.
// cell-output+json">, as Voilà's own pages do.

import "@lumino/widgets/style/index.css";
import "@jupyter-widgets/base/css/index.css";
import "@jupyter-widgets/controls/css/widgets-base.css";

import {showBusyTaps} from "./busy.js";
import {dragToThrow} from "./drag.js";
import {Kernel} from "./kernel.js";
import {lostWords} from "./lost.js";
import {KitWidgetManager} from "./manager.js";
import {renderOutput} from "./outputs.js";

const OUTPUT = 'script[type="application/vnd.voila.cell-output+json"]';
// kit-math.js sits beside this script
const MATH_JS = document.currentScript ? document.currentScript.src.replace(/kit\.js(\?.*)?$/, "kit-math.js") : "";
const HAS_MATH = /\$|\\\(|\\\[|\\begin\{/;

/** LaTeX outputs and Markdown cells with math, typeset (MathJax loaded only for them). */
function typesetMath() {
  const nodes = [
    ...document.querySelectorAll(".jp-RenderedLatex"),
    ...Array.from(document.querySelectorAll(".jp-MarkdownOutput")).filter((n) => HAS_MATH.test(n.textContent)),
  ];
  if (!nodes.length || !MATH_JS) return;
  const script = document.createElement("script");
  script.src = MATH_JS;
  script.onload = () => window.rummyTypeset(nodes);
  document.head.appendChild(script);
}

function settings() {
  const el = document.getElementById("jupyter-config-data");
  return el ? JSON.parse(el.textContent) : {};
}

/** A sentence at the top of the page for a kernel that can't be reached. */
function notice(text) {
  let el = document.getElementById("rummy-kernel-notice");
  if (!text) {
    if (el) el.remove();
    return;
  }
  if (!el) {
    el = document.createElement("p");
    el.id = "rummy-kernel-notice";
    el.setAttribute("role", "alert");
    const main = document.getElementById("rummy-main") || document.body;
    main.prepend(el);
  }
  el.textContent = text;
}

/**
 * While the connection is down the table takes no taps (they would land later, on a
 * table that may have moved on): the cells are inert and marked busy; once the
 * kernel is gone for good they stay so, greyed (rummy.css.j2), so that the table no
 * longer looks alive.  The notice above them (outside the inert part) says why.
 */
function freeze(state) {
  const cells = document.getElementById("rendered_cells");
  const body = document.body;
  const off = state !== "connected";
  if (cells) {
    cells.inert = off;
    if (off) cells.setAttribute("aria-busy", "true");
    else cells.removeAttribute("aria-busy");
  }
  body.classList.toggle("rummy-reconnecting", state === "reconnecting");
  body.classList.toggle("rummy-ended", state === "lost");
}

function leaveWith(kernel, baseUrl) {
  window.addEventListener("beforeunload", () => {
    // as Voilà's page does: the kernel is shut down with the page (the kit's
    // server gives the page its _xsrf cookie)
    const data = new FormData();
    const match = document.cookie.match("\\b_xsrf=([^;]*)\\b");
    data.append("_xsrf", (match && match[1]) || "");
    navigator.sendBeacon(`${baseUrl}voila/api/shutdown/${kernel.id}`, data);
    kernel.dispose();
  });
}

async function start() {
  const config = settings();
  const baseUrl = config.baseUrl || "/";
  const outputs = Array.from(document.querySelectorAll(OUTPUT));
  let kernel = null;
  let manager = null;
  let loaded = null;
  if (config.kernelId) {
    kernel = new Kernel(baseUrl, config.kernelId, (state) => {
      freeze(state === "connected" || state === "reconnecting" ? state : "lost");
      if (state === "connected") notice("");
      else if (state === "reconnecting") notice("Reconnecting… The table waits until it is back.");
      else notice(lostWords(document));
    });
    manager = new KitWidgetManager(kernel);
    showBusyTaps(kernel);
    dragToThrow();
    leaveWith(kernel, baseUrl);
    loaded = kernel.connect().then(() => manager.load());
    loaded.catch((error) => {
      console.error(error);
      notice("This page could not reach the server. Reload the page to try again.");
    });
  }
  const showWidget = manager
    ? (id, node) => loaded.then(() => manager.showWidget(id, node))
    : () => Promise.reject(new Error("no kernel"));
  const drawn = outputs.map((script) => {
    const container = script.parentElement;
    let output;
    try {
      output = JSON.parse(script.textContent);
    } catch (error) {
      return Promise.resolve();
    }
    script.remove();
    return renderOutput(output, container, showWidget);
  });
  typesetMath();  // the text is drawn; widgets come as the kernel sends them
  await Promise.all(drawn);
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
