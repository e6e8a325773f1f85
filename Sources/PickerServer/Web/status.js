// The status line (role=status, aria-live=polite): messages a screen reader announces, such as
// the maximum being reached. A message stays until the next one replaces it.

const element = document.getElementById("status-message");
let timer = 0;

/** Shows `message`; with `transient`, it goes away after a few seconds. */
export function announce(message, { transient = false } = {}) {
  clearTimeout(timer);
  element.textContent = message;
  element.classList.toggle("has-message", Boolean(message));
  if (transient) timer = setTimeout(() => announce(""), 6000);
}
