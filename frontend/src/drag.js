// Drag a card of your hand onto the discard pile to throw it there: the same as
// tapping the card (to choose it) and then the pile, which is what this does for
// the table's own buttons.  A short move is still a tap; a drag that ends
// elsewhere changes nothing.  Mouse, pen and touch alike (pointer events).

const CARD = ".rummy-hand button.rummy-card";
const PILE = "button.rummy-discard-pile";
const MOVED_PX = 12;

/** Let each table under ``root`` take a card dragged from the hand onto its discard pile. */
export function dragToThrow(root = document) {
  let drag = null;  // {card, x, y, ghost}
  root.addEventListener("pointerdown", (event) => {
    const card = event.target instanceof Element ? event.target.closest(CARD) : null;
    if (!card || card.disabled || event.button > 0) return;
    drag = {card, x: event.clientX, y: event.clientY, ghost: null};
  });
  root.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost && Math.hypot(dx, dy) < MOVED_PX) return;
    if (!drag.ghost) {
      drag.ghost = drag.card.closest(".rummy-cardbox") || drag.card;
      drag.ghost.classList.add("rummy-dragging");
    }
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  });
  const end = (event) => {
    const d = drag;
    drag = null;
    if (!d || !d.ghost) return;
    d.ghost.style.transform = "";
    d.ghost.classList.remove("rummy-dragging");
    // the drag is no tap: the click that follows it does not choose the card
    const swallow = (e) => { e.stopPropagation(); e.preventDefault(); };
    d.card.addEventListener("click", swallow, {capture: true, once: true});
    window.setTimeout(() => d.card.removeEventListener("click", swallow, {capture: true}), 0);
    if (event.type !== "pointerup") return;
    const table = d.card.closest(".rummy-root");
    const pile = table && table.querySelector(PILE);
    if (!pile || pile.disabled) return;
    const box = pile.getBoundingClientRect();
    const over = event.clientX >= box.left && event.clientX <= box.right &&
      event.clientY >= box.top && event.clientY <= box.bottom;
    if (!over) return;
    window.setTimeout(() => {
      if (!d.card.classList.contains("rummy-card-selected")) d.card.click();
      pile.click();
    }, 0);
  };
  root.addEventListener("pointerup", end);
  root.addEventListener("pointercancel", end);
}
