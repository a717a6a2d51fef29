// One page's connection to its kernel: Jupyter's messaging protocol over the
// server's kernel websocket (/api/kernels/<id>/channels), in the server's plain
// framing: a message is a JSON text frame; a message carrying binary buffers is
// a binary frame (big-endian uint32 count, uint32 offsets, the JSON, the buffers).
//
// It carries what the widgets need and nothing else: comms (open, message, close,
// both ways), the callbacks ipywidgets attaches to a message it sends (the
// kernel's "busy"/"idle" for it, its outputs, its reply), hooks on the outputs
// of a message (the Output widget's capture), and one request/reply
// (comm_info_request).  It reconnects after a dropped connection, as JupyterLab's
// does, and says so to the page; a kernel the server no longer holds is "lost".

const PROTOCOL_VERSION = "5.3";

export function uuid() {
  if (globalThis.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The message in a binary frame (see the server's serialize_binary_message). */
export function decodeBinary(data) {
  const view = new DataView(data);
  const count = view.getUint32(0);
  const offsets = [];
  for (let i = 0; i < count; i++) offsets.push(view.getUint32(4 * (i + 1)));
  offsets.push(data.byteLength);
  const json = new TextDecoder("utf8").decode(data.slice(offsets[0], offsets[1]));
  const msg = JSON.parse(json);
  msg.buffers = [];
  for (let i = 1; i < count; i++) msg.buffers.push(new DataView(data.slice(offsets[i], offsets[i + 1])));
  return msg;
}

/** A message with buffers as one binary frame (the server's deserialize_binary_message). */
export function encodeBinary(msg, buffers) {
  const json = new TextEncoder().encode(JSON.stringify(msg));
  const parts = [json, ...buffers.map((b) => (b instanceof ArrayBuffer
    ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)))];
  const head = 4 * (parts.length + 1);
  const total = head + parts.reduce((n, p) => n + p.byteLength, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, parts.length);
  let at = head;
  parts.forEach((p, i) => {
    view.setUint32(4 * (i + 1), at);
    out.set(p, at);
    at += p.byteLength;
  });
  return out.buffer;
}

// the server's word for a kernel process that died (restarted empty, or not at all)
const ENDED = new Set(["restarting", "autorestarting", "dead"]);

const OUTPUTS = new Set(["display_data", "execute_result", "stream", "error", "update_display_data"]);

/** A comm as ipywidgets expects it (its IClassicComm). */
export class Comm {
  constructor(kernel, targetName, commId) {
    this.kernel = kernel;
    this.target_name = targetName;
    this.comm_id = commId;
    this._onMsg = null;
    this._onClose = null;
  }

  open(data, callbacks, metadata, buffers) {
    return this.kernel.send("comm_open", {comm_id: this.comm_id, target_name: this.target_name, data},
      {callbacks, metadata, buffers});
  }

  send(data, callbacks, metadata, buffers) {
    return this.kernel.send("comm_msg", {comm_id: this.comm_id, data}, {callbacks, metadata, buffers});
  }

  close(data, callbacks, metadata, buffers) {
    this.kernel.comms.delete(this.comm_id);
    return this.kernel.send("comm_close", {comm_id: this.comm_id, data: data || {}},
      {callbacks, metadata, buffers});
  }

  on_msg(callback) { this._onMsg = callback; }

  on_close(callback) { this._onClose = callback; }

  _handle(msg) { if (this._onMsg) this._onMsg(msg); }

  _closed(msg) { if (this._onClose) this._onClose(msg); }
}

export class Kernel {
  /**
   * @param {string} baseUrl the server's base address ("/")
   * @param {string} kernelId the kernel Voilà ran this page's notebook in
   * @param {(state: string) => void} onState told "connected", "reconnecting", "lost"
   */
  constructor(baseUrl, kernelId, onState = () => {}) {
    this.baseUrl = baseUrl;
    this.id = kernelId;
    this.session = uuid();
    this.onState = onState;
    this.comms = new Map();          // comm_id -> Comm
    this.callbacks = new Map();      // msg_id -> ipywidgets callbacks
    this.hooks = new Map();          // msg_id -> [fn(msg) -> false to swallow]
    this.replies = new Map();        // msg_id -> resolve(reply)
    this.onCommOpen = null;          // (comm, msg) for a comm the kernel opens
    this.queue = [];                 // frames waiting for the socket
    this.commMsgs = [];              // the ids of the comm messages sent, in order
    this.idleWaiters = new Map();    // msg_id -> [resolve()] for the kernel's "idle" after it
    this.ws = null;
    this.leaving = false;
    this.tries = 0;
  }

  url() {
    const loc = window.location;
    const scheme = loc.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${loc.host}${this.baseUrl}api/kernels/${encodeURIComponent(this.id)}` +
      `/channels?session_id=${this.session}`;
  }

  /** Open the socket; resolves once it is open (rejects if it never opens). */
  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url());
      ws.binaryType = "arraybuffer";
      this.ws = ws;
      let opened = false;
      ws.onopen = () => {
        opened = true;
        this.tries = 0;
        const waiting = this.queue;
        this.queue = [];
        waiting.forEach((frame) => ws.send(frame));
        this.onState("connected");
        resolve();
      };
      ws.onmessage = (event) => this._receive(event.data);
      ws.onclose = () => {
        if (this.leaving) return;
        if (!opened && this.tries === 0) {
          reject(new Error("the kernel's connection did not open"));
          return;
        }
        this._retry();
      };
    });
  }

  async _retry() {
    this.tries += 1;
    // a kernel the server no longer holds (shut down, culled, a restarted
    // server) never comes back: say so at once instead of trying for a minute
    if (this.tries > 8 || !(await this._held())) {
      this.onState("lost");
      return;
    }
    this.onState("reconnecting");
    const wait = Math.min(1000 * 2 ** (this.tries - 1), 15000);
    window.setTimeout(() => this.connect().catch(() => this._retry()), wait);
  }

  /** Whether the server still holds this kernel (true when it can't be asked). */
  async _held() {
    try {
      const reply = await fetch(`${this.baseUrl}api/kernels/${encodeURIComponent(this.id)}`,
        {credentials: "same-origin", cache: "no-store"});
      return reply.status !== 404;
    } catch (error) {
      return true;
    }
  }

  /** Stop (the page is being left): no reconnecting, nothing more sent. */
  dispose() {
    this.leaving = true;
    if (this.ws) this.ws.close();
  }

  /** Send a shell message; returns its msg_id. */
  send(msgType, content, {callbacks, metadata, buffers} = {}) {
    const msgId = uuid();
    const msg = {
      header: {msg_id: msgId, msg_type: msgType, username: "", session: this.session,
               date: new Date().toISOString(), version: PROTOCOL_VERSION},
      parent_header: {}, metadata: metadata || {}, content, channel: "shell",
    };
    if (callbacks) this.callbacks.set(msgId, callbacks);
    if (msgType === "comm_msg") this.commMsgs.push(msgId);
    const frame = buffers && buffers.length
      ? encodeBinary({...msg, buffers: []}, buffers) : JSON.stringify({...msg, buffers: []});
    if (this.leaving) return msgId;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
    else this.queue.push(frame);
    return msgId;
  }

  /** Resolves once the kernel has handled the message ``msgId`` (its "idle" for it). */
  whenIdle(msgId) {
    return new Promise((resolve) => {
      const list = this.idleWaiters.get(msgId) || [];
      list.push(resolve);
      this.idleWaiters.set(msgId, list);
    });
  }

  /** A shell request and its reply. */
  request(msgType, content) {
    return new Promise((resolve) => {
      const msgId = this.send(msgType, content);
      this.replies.set(msgId, resolve);
    });
  }

  /** A comm of ours (or one the kernel has open) by target and id. */
  comm(targetName, commId = uuid()) {
    let comm = this.comms.get(commId);
    if (!comm) {
      comm = new Comm(this, targetName, commId);
      this.comms.set(commId, comm);
    }
    return comm;
  }

  /** Call ``hook(msg)`` for each output the kernel sends for ``msgId``. */
  addHook(msgId, hook) {
    const list = this.hooks.get(msgId) || [];
    list.push(hook);
    this.hooks.set(msgId, list);
  }

  removeHook(msgId, hook) {
    const list = (this.hooks.get(msgId) || []).filter((h) => h !== hook);
    if (list.length) this.hooks.set(msgId, list);
    else this.hooks.delete(msgId);
  }

  _receive(data) {
    let msg;
    try {
      msg = typeof data === "string" ? JSON.parse(data) : decodeBinary(data);
    } catch (error) {
      console.error("a message from the kernel could not be read", error);
      return;
    }
    msg.buffers = msg.buffers || [];
    const type = msg.header.msg_type;
    const parent = (msg.parent_header || {}).msg_id;
    if (msg.channel === "shell" || msg.channel === "control") {
      const resolve = this.replies.get(parent);
      if (resolve) {
        this.replies.delete(parent);
        resolve(msg);
      }
      const cb = this.callbacks.get(parent);
      if (cb && cb.shell && cb.shell.reply) cb.shell.reply(msg);
      return;
    }
    if (msg.channel !== "iopub") return;
    if (type === "status" && ENDED.has(msg.content.execution_state)) {
      // the kernel's process died: the server restarts it empty (its widgets
      // gone) or gives up; either way this page's work there has ended
      this.onState("lost");
    }
    if (type === "status" && msg.content.execution_state === "idle" && this.idleWaiters.has(parent)) {
      const waiting = this.idleWaiters.get(parent);
      this.idleWaiters.delete(parent);
      waiting.forEach((resolve) => resolve());
    }
    if (type === "comm_open") this._commOpen(msg);
    else if (type === "comm_msg") {
      const comm = this.comms.get(msg.content.comm_id);
      if (comm) comm._handle(msg);
    } else if (type === "comm_close") {
      const comm = this.comms.get(msg.content.comm_id);
      if (comm) {
        this.comms.delete(msg.content.comm_id);
        comm._closed(msg);
      }
    }
    if (parent && (OUTPUTS.has(type) || type === "clear_output")) {
      const hooks = this.hooks.get(parent);
      if (hooks && hooks.some((hook) => hook(msg) === false)) return;
    }
    const cb = this.callbacks.get(parent);
    if (!cb || !cb.iopub) return;
    if (type === "status") {
      if (cb.iopub.status) cb.iopub.status(msg);
      if (msg.content.execution_state === "idle") this.callbacks.delete(parent);
    } else if (type === "clear_output") {
      if (cb.iopub.clear_output) cb.iopub.clear_output(msg);
    } else if (OUTPUTS.has(type) && cb.iopub.output) {
      cb.iopub.output(msg);
    }
  }

  _commOpen(msg) {
    const {comm_id: commId, target_name: target} = msg.content;
    const comm = this.comm(target, commId);
    if (this.onCommOpen && this.onCommOpen(comm, msg)) return;
    // no one here takes that target: tell the kernel, as JupyterLab does
    this.comms.delete(commId);
    this.send("comm_close", {comm_id: commId, data: {}});
  }
}
