// A widget's page part (anywidget 0.11): one message per click, carrying what the page showed. See
// helpers/widgets/page_clicks.py for the why; the kernel decides everything.
//
// The part sits inside a widget whose outer element has the class named by the synced `container`.
// A click on a button of that widget with a class course-action-<action> (or Enter in a one-line
// field named in the synced `enter` map, {field: action}) never reaches ipywidgets' own handler: it
// becomes {event: "action", action, render, clicks, fields}, where
//   render  is the render the page had applied when the click happened (the kernel sets it after every
//           other part of a render, so the page holds it only once it has drawn that render);
//   clicks  is the browser's click count (MouseEvent.detail: 1, 2 for the second click of a double
//           click, 3 ...; 0 for a click made with the keyboard or Enter in a field);
//   fields  is what each element with a class course-field-<name> held at that moment: a text field's
//           text, a drop-down's selected position, a group of tick boxes' states (a list of booleans).
// A double or triple click is one gesture: its second and third clicks carry the render its first click
// was made on, so they can never answer something drawn after the first click (the kernel refuses them).
// A key held down on a button (auto-repeat) sends nothing more than its first press.

const ACTION = "course-action-";
const FIELD = "course-field-";

function fieldValue(field) {
  const select = field.querySelector("select");
  if (select) return select.selectedIndex;
  const text = field.querySelector("textarea, input:not([type=checkbox])");
  if (text) return text.value;
  const ticks = field.querySelectorAll("input[type=checkbox]");
  return ticks.length ? Array.from(ticks, (tick) => tick.checked) : null;
}

function fieldsOf(container) {
  const fields = {};
  for (const field of container.querySelectorAll(`[class*="${FIELD}"]`)) {
    for (const name of field.classList) {
      if (name.startsWith(FIELD)) fields[name.slice(FIELD.length)] = fieldValue(field);
    }
  }
  return fields;
}

function actionOf(button) {
  const name = button && Array.from(button.classList).find((c) => c.startsWith(ACTION));
  return name ? name.slice(ACTION.length) : null;
}

function render({ model, el }) {
  el.style.display = "none";
  let gesture = null; // the render the current multi-click gesture started on

  const containerOf = (target) => {
    const container = el.closest(`.${model.get("container")}`);
    return container && target instanceof Node && container.contains(target) ? container : null;
  };

  const send = (container, action, render, clicks) => {
    model.send({ event: "action", action, render, clicks, fields: fieldsOf(container) });
  };

  const onClick = (event) => {
    const container = containerOf(event.target);
    const button = container && event.target.closest("button");
    const action = button && container.contains(button) ? actionOf(button) : null;
    if (!action) return;
    event.stopImmediatePropagation();
    event.preventDefault();
    if (button.disabled) return;
    const now = model.get("render");
    if (event.detail <= 1 || gesture === null) gesture = now;
    send(container, action, event.detail > 1 ? gesture : now, event.detail);
  };

  const onKey = (event) => {
    // Enter that ends an input method's composition (Chinese, Japanese, ...) only confirms the typed
    // characters: it is never a send (isComposing, and keyCode 229, which some browsers give instead).
    if (event.isComposing || event.keyCode === 229) return;
    const container = containerOf(event.target);
    if (!container || event.key !== "Enter") return;
    const onButton = actionOf(event.target.closest("button")) !== null;
    const field = event.target.tagName === "INPUT" && event.target.closest(`[class*="${FIELD}"]`);
    const name = field && Array.from(field.classList).find((c) => c.startsWith(FIELD));
    const action = name ? (model.get("enter") || {})[name.slice(FIELD.length)] : undefined;
    if (!onButton && !action) return;
    if (event.repeat || action) {
      event.stopImmediatePropagation();
      event.preventDefault(); // no auto-repeated click; Enter in a field is sent below, once
    }
    if (action && !event.repeat && !event.target.disabled) {
      gesture = model.get("render");
      send(container, action, gesture, 0);
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
