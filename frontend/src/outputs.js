// A notebook output drawn into the page as JupyterLab draws it (the same classes,
// so the kit's style and page script find it): a widget, HTML (its scripts run:
// the notebooks are the kit's own, trusted as Voilà trusts them), Markdown (marked),
// SVG and bitmap
// pictures, text.  And the Output widget, which holds such outputs.

import {DOMWidgetModel, DOMWidgetView} from "@jupyter-widgets/base";
import {marked} from "marked";

export const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";

/** The kinds of output drawn, the richest first (as JupyterLab prefers them). */
export const ORDER = [
  WIDGET_MIME, "text/html", "text/markdown", "text/latex", "image/svg+xml", "image/png",
  "image/jpeg", "image/gif", "application/json", "text/plain",
];

function joined(value) {
  return Array.isArray(value) ? value.join("") : value;
}

// ANSI colour codes (a traceback, a coloured print) are not for a learner's eyes
function plain(text) {
  return String(text).replace(/\u001b\[[0-9;]*m/g, "");
}

function runScripts(node) {
  node.querySelectorAll("script").forEach((old) => {
    const script = document.createElement("script");
    for (const attr of Array.from(old.attributes)) script.setAttribute(attr.name, attr.value);
    script.textContent = old.textContent;
    old.replaceWith(script);
  });
}

function textNode(text, mime) {
  const div = document.createElement("div");
  div.className = "jp-RenderedText";
  div.dataset.mimeType = mime;
  const pre = document.createElement("pre");
  pre.textContent = plain(text);
  div.appendChild(pre);
  return div;
}

/**
 * Draw one output (nbformat's dict) into ``container``.  ``showWidget(modelId,
 * node)`` draws a widget (returns a promise; rejects when there is no such
 * widget, and the output's text is drawn instead).
 */
export function renderOutput(output, container, showWidget) {
  const node = document.createElement("div");
  node.classList.add("lm-Widget", "jp-OutputArea-output");
  container.appendChild(node);
  const type = output.output_type;
  if (type === "stream") {
    const name = output.name === "stderr" ? "stderr" : "stdout";
    node.appendChild(textNode(joined(output.text), `application/vnd.jupyter.${name}`));
    return Promise.resolve();
  }
  if (type === "error") {
    node.appendChild(textNode(`${output.ename}: ${output.evalue}`, "application/vnd.jupyter.stderr"));
    return Promise.resolve();
  }
  const data = output.data || {};
  const mime = ORDER.find((m) => m in data);
  if (!mime) return Promise.resolve();
  const value = joined(data[mime]);
  if (mime === WIDGET_MIME && showWidget) {
    node.classList.add("jupyter-widgets");
    return showWidget(value.model_id, node).catch(() => {
      node.classList.remove("jupyter-widgets");
      if ("text/plain" in data) node.appendChild(textNode(joined(data["text/plain"]), "text/plain"));
    });
  }
  if (mime === "text/html") {
    node.classList.add("jp-RenderedHTMLCommon", "jp-RenderedHTML");
    node.dataset.mimeType = mime;
    node.innerHTML = value;
    runScripts(node);
  } else if (mime === "text/markdown") {
    // Markdown drawn as JupyterLab draws it (IPython.display.Markdown: **bold**, links)
    node.classList.add("jp-RenderedHTMLCommon", "jp-RenderedMarkdown", "jp-MarkdownOutput");
    node.dataset.mimeType = mime;
    node.innerHTML = marked.parse(String(value));
  } else if (mime === "image/svg+xml") {
    node.classList.add("jp-RenderedSVG");
    node.dataset.mimeType = mime;
    const img = document.createElement("img");
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(value);
    node.appendChild(img);
  } else if (mime.startsWith("image/")) {
    node.classList.add("jp-RenderedImage");
    node.dataset.mimeType = mime;
    const img = document.createElement("img");
    img.src = `data:${mime};base64,${String(value).replace(/\n/g, "")}`;
    const meta = (output.metadata || {})[mime] || {};
    if (meta.width) img.width = meta.width;
    if (meta.height) img.height = meta.height;
    node.appendChild(img);
  } else if (mime === "text/latex") {
    // typeset by MathJax once the page's outputs are drawn (index.js, math.js)
    node.classList.add("jp-RenderedLatex");
    node.dataset.mimeType = mime;
    node.textContent = value;
  } else if (mime === "application/json") {
    node.appendChild(textNode(JSON.stringify(value, null, 2), mime));
  } else {
    // text/plain
    node.appendChild(textNode(value, mime));
  }
  return Promise.resolve();
}

/** An output message from the kernel (display_data, stream, ...) as nbformat's dict. */
export function outputOf(msg) {
  const type = msg.header.msg_type;
  const c = msg.content;
  if (type === "stream") return {output_type: "stream", name: c.name, text: c.text};
  if (type === "error") return {output_type: "error", ename: c.ename, evalue: c.evalue, traceback: c.traceback};
  if (type === "execute_result") {
    return {output_type: "execute_result", data: c.data, metadata: c.metadata,
            execution_count: c.execution_count};
  }
  return {output_type: "display_data", data: c.data, metadata: c.metadata};
}

/**
 * ipywidgets' Output widget: its outputs drawn, and, while the kernel runs code
 * inside ``with out:`` (its ``msg_id`` set), that code's outputs caught into it
 * (and sent back to the kernel, as JupyterLab does).
 */
export class OutputModel extends DOMWidgetModel {
  defaults() {
    return {
      ...super.defaults(),
      _model_name: "OutputModel", _view_name: "OutputView",
      _model_module: "@jupyter-widgets/output", _view_module: "@jupyter-widgets/output",
      _model_module_version: "1.0.0", _view_module_version: "1.0.0",
      msg_id: "", outputs: [],
    };
  }

  initialize(attributes, options) {
    super.initialize(attributes, options);
    this._hooked = "";
    this._hook = (msg) => {
      const type = msg.header.msg_type;
      let outputs = this.get("outputs").slice();
      if (type === "clear_output") {
        if (msg.content.wait) this._clearNext = true;
        else outputs = [];
      } else {
        if (this._clearNext) {
          outputs = [];
          this._clearNext = false;
        }
        outputs.push(outputOf(msg));
      }
      this.set("outputs", outputs);
      this.save_changes();
      return false;
    };
    this.on("change:msg_id", () => this._capture());
    this._capture();
  }

  _capture() {
    const kernel = this.widget_manager.kernel;
    if (!kernel) return;
    if (this._hooked) kernel.removeHook(this._hooked, this._hook);
    this._hooked = this.get("msg_id") || "";
    if (this._hooked) kernel.addHook(this._hooked, this._hook);
  }
}

export class OutputView extends DOMWidgetView {
  render() {
    this.el.classList.add("jupyter-widgets-output-area", "jp-OutputArea");
    this.listenTo(this.model, "change:outputs", () => this.draw());
    this.draw();
  }

  draw() {
    this.el.textContent = "";
    const manager = this.model.widget_manager;
    for (const output of this.model.get("outputs") || []) {
      const child = document.createElement("div");
      child.className = "jp-OutputArea-child";
      this.el.appendChild(child);
      renderOutput(output, child, (id, node) => manager.showWidget(id, node));
    }
  }
}
