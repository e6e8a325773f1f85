// Which view shows: exactly one of the album list, the grid and the browser lacks `hidden`
// while picking; after Done or Cancel only the finished message shows.

const views = {
  albums: document.getElementById("albums-view"),
  grid: document.getElementById("grid-view"),
  browser: document.getElementById("browser-view"),
};
const back = document.getElementById("back-button");
let current = "albums";

/** Shows the view named `name` ("albums", "grid" or "browser"). */
export function showView(name) {
  current = name;
  for (const [key, element] of Object.entries(views)) element.hidden = key !== name;
  back.hidden = name === "albums";
  document.body.dataset.view = name;
}

export const currentView = () => current;

/** Hides every view and shows `#finished` with `state` (complete, cancelled or ended). */
export function showFinished(state, message) {
  current = "finished";
  for (const element of Object.values(views)) element.hidden = true;
  back.hidden = true;
  document.body.dataset.view = "finished";
  for (const id of ["done-button", "cancel-button"]) document.getElementById(id).hidden = true;
  const finished = document.getElementById("finished");
  finished.dataset.state = state;
  document.getElementById("finished-message").textContent = message;
  finished.hidden = false;
  finished.focus();
}
