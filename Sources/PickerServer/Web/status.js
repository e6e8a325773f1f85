// The status line (role=status, aria-live=polite): messages a screen reader announces, such as
// the maximum being reached or where an upload went. It floats over the views (styles.css), so a
// message never moves the grid. Information is shown in the neutral colours; only a problem
// (`kind: "error"`) in red. A message stays until the next one replaces it, or a few seconds
// when `transient`.

const element = document.getElementById("status-message");
let timer = 0;

/** Shows `message` as information (`kind: "info"`, the default) or as a problem (`"error"`). */
export function announce(message, { kind = "info", transient = false } = {}) {
  clearTimeout(timer);
  element.textContent = message;
  element.dataset.kind = kind;
  if (transient) timer = setTimeout(() => announce(""), 6000);
}
