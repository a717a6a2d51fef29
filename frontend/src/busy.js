// A tap that waits for the kernel says so on the control tapped.  On a slow
// network or while the kernel is still working, a tap used to show nothing until
// the answer came (and the learner tapped again).  Now, from the tap until the
// kernel has handled every message the tap sent (its "idle" for each), the
// control is marked aria-busy="true" with the class rummy-busy, which the page's
// style sheet draws as working (rummy.css.j2); then both go.

const CONTROL = "button, [role='button'], input, select, textarea";
// a kernel that never answers (the page lost it: the notice says so) frees the control
const GIVE_UP_MS = 120000;

function mark(control, on) {
  if (on) {
    control.setAttribute("aria-busy", "true");
    control.classList.add("rummy-busy");
  } else {
    control.removeAttribute("aria-busy");
    control.classList.remove("rummy-busy");
  }
}

/**
 * Mark each tapped control of ``root`` busy until ``kernel`` has answered the
 * messages its tap sent (a widget's click handler sends them at once, before
 * the click reaches the page's root; a tap that sends nothing is not marked).
 */
export function showBusyTaps(kernel, root = document) {
  const busy = new Map();   // control -> number of taps still waiting
  let sentBefore = 0;
  const before = () => { sentBefore = kernel.commMsgs.length; };
  root.addEventListener("click", before, true);
  root.addEventListener("click", (event) => {
    const sent = kernel.commMsgs.slice(sentBefore);
    sentBefore = kernel.commMsgs.length;
    const control = event.target instanceof Element ? event.target.closest(CONTROL) : null;
    if (!control || !sent.length) return;
    busy.set(control, (busy.get(control) || 0) + 1);
    mark(control, true);
    const answered = Promise.all(sent.map((id) => kernel.whenIdle(id)));
    const late = new Promise((resolve) => window.setTimeout(resolve, GIVE_UP_MS));
    Promise.race([answered, late]).then(() => {
      const left = (busy.get(control) || 1) - 1;
      if (left > 0) {
        busy.set(control, left);
        return;
      }
      busy.delete(control);
      mark(control, false);
    });
  });
  // the ids are only needed until the taps that sent them are seen
  window.setInterval(() => {
    if (kernel.commMsgs.length > 1000) {
      kernel.commMsgs.splice(0, kernel.commMsgs.length - 100);
      sentBefore = kernel.commMsgs.length;
    }
  }, 60000);
}
