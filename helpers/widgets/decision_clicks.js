// The approval panel's page part (anywidget 0.11): one message per decision, saying which render of the
// panel it was made on. See helpers/widgets/decision_clicks.py for the why; the kernel decides everything.
//
// A click on a decision button (class course-decide-<decision>) or Enter in the amount field never reaches
// ipywidgets' own handler: it becomes {event: "decide", decision, render, clicks, fields}, where
//   render  is the render the page had applied when the click happened (the kernel sets it after every
//           other part of a render, so the page holds it only once it has drawn that render);
//   clicks  is the browser's click count (MouseEvent.detail: 1, 2 for the second click of a double
//           click, 3 ...; 0 for a click made with the keyboard);
//   fields  is what the amount, args and message fields held at that moment.
// A double or triple click is one gesture: its second and third clicks carry the render its first click
// was made on, so they can never answer a pause drawn after the first click (the kernel refuses them).
// A key held down on a button (auto-repeat) sends nothing more than its first press.

const DECISIONS = ["approve", "edit", "reject", "respond"];

function fieldText(panel, name) {
  const field = panel.querySelector(`.course-field-${name} input, .course-field-${name} textarea`);
  return field ? field.value : null;
}

function render({ model, el }) {
  el.style.display = "none";
  let gesture = null; // the render the current multi-click gesture started on

  const panelOf = (target) => {
    const panel = el.closest(".course-approval-panel");
    return panel && target instanceof Node && panel.contains(target) ? panel : null;
  };

  const send = (panel, decision, render, clicks) => {
    model.send({
      event: "decide",
      decision,
      render,
      clicks,
      fields: { amount: fieldText(panel, "amount"), args: fieldText(panel, "args"),
                message: fieldText(panel, "message") },
    });
  };

  const onClick = (event) => {
    const panel = panelOf(event.target);
    const button = panel && event.target.closest("button");
    const decision = button && DECISIONS.find((d) => button.classList.contains(`course-decide-${d}`));
    if (!decision) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    if (button.disabled) return;
    const now = model.get("render");
    if (event.detail <= 1 || gesture === null) gesture = now;
    send(panel, decision, event.detail > 1 ? gesture : now, event.detail);
  };

  const onKey = (event) => {
    const panel = panelOf(event.target);
    if (!panel || event.key !== "Enter") return;
    const onButton = DECISIONS.some((d) => event.target.closest(`.course-decide-${d}`));
    const inAmount = event.target.closest(".course-field-amount") && event.target.tagName === "INPUT";
    if (!onButton && !inAmount) return;
    if (event.repeat || inAmount) {
      event.stopImmediatePropagation();
      event.preventDefault(); // no auto-repeated click; Enter in the amount field is sent below, once
    }
    if (inAmount && !event.repeat && !event.target.disabled) {
      gesture = model.get("render");
      send(panel, "edit", gesture, 0);
    }
  };

  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKey, true);
  return () => {
    document.removeEventListener("click", onClick, true);
    document.removeEventListener("keydown", onKey, true);
  };
}

export default { render };
