// The widget manager: ipywidgets' own ManagerBase (the models, their state, the
// views) over the page's kernel connection (kernel.js).  The widget classes are
// ipywidgets' own (@jupyter-widgets/base and controls, at the versions the
// kernel's ipywidgets speaks) and the Output widget of outputs.js.

import * as base from "@jupyter-widgets/base";
import {ManagerBase} from "@jupyter-widgets/base-manager";
import * as controls from "@jupyter-widgets/controls";
import {Widget} from "@lumino/widgets";

import {OutputModel, OutputView} from "./outputs.js";

const MODULES = {
  "@jupyter-widgets/base": base,
  "@jupyter-widgets/controls": controls,
  "@jupyter-widgets/output": {OutputModel, OutputView},
};

export class KitWidgetManager extends ManagerBase {
  constructor(kernel) {
    super();
    this.kernel = kernel;
    kernel.onCommOpen = (comm, msg) => {
      if (msg.content.target_name !== this.comm_target_name) return false;
      this.handle_comm_open(comm, msg).catch((error) => console.error(error));
      return true;
    };
  }

  /** Every widget the kernel holds (one request, ipywidgets' control comm). */
  load() {
    return this._loadFromKernel();
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (!module || !module[className]) {
      throw new Error(`this page has no widget ${className} from ${moduleName} ${moduleVersion}` +
        ` (it has ipywidgets' base, controls and output widgets)`);
    }
    return module[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    const comm = this.kernel.comm(targetName, modelId);
    if (data || metadata) comm.open(data, undefined, metadata, buffers);
    return comm;
  }

  async _get_comm_info() {
    const reply = await this.kernel.request("comm_info_request", {target_name: this.comm_target_name});
    return reply.content.comms || {};
  }

  /** Draw the widget ``modelId`` into ``node`` (rejects when the kernel has no such widget). */
  async showWidget(modelId, node) {
    const model = await this.get_model(modelId);
    const view = await this.create_view(model);
    Widget.attach(view.luminoWidget, node);
    return view;
  }
}
