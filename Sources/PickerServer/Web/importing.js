// Adding to the library from the picker, when the library takes changes (an indexed library):
// upload a photo (it comes back picked) and create an album. The controls exist only then.

import * as api from "./api.js";
import { t } from "./i18n.js";

/**
 * Puts the upload input and/or the New album button into `container`.
 * @param {HTMLElement} container
 * @param {{canImport: boolean, canCreateAlbum: boolean}} library
 * @param {{selection: import("./selection.js").Selection, onUploaded: () => void, onAlbumCreated: () => void,
 *          announce: (message: string) => void, onError: (error: Error) => void}} handlers
 */
export function setUpImporting(container, library, { selection, onUploaded, onAlbumCreated, announce, onError }) {
  if (library.canImport) {
    // A button like the others (styles.css hides the input under it): the browser's own
    // "Choose File" and "No file chosen" say nothing of what the upload does.
    const label = document.createElement("label");
    label.className = "upload";
    const mark = document.createElement("span");
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = "+";
    const text = document.createElement("span");
    text.dataset.i18n = "upload";
    text.textContent = t("upload");
    const input = document.createElement("input");
    input.type = "file";
    input.id = "upload-input";
    input.accept = "image/*,video/*";
    label.append(mark, text, input);
    container.append(label);
    input.addEventListener("change", async () => {
      const files = [...input.files];
      input.value = "";
      for (const file of files) {
        announce(t("uploading", { name: file.name }));
        try {
          const result = await api.upload(file);
          selection.apply(result.selection);
          announce(t(result.selected ? "uploaded" : "uploadedNotSelected", { name: result.item.filename }));
          onUploaded();
        } catch (error) {
          onError(error);
        }
      }
    });
  }

  if (library.canCreateAlbum) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "new-album-button";
    button.dataset.i18n = "newAlbum";
    button.textContent = t("newAlbum");
    container.append(button);

    const dialog = document.getElementById("new-album-dialog");
    const form = document.getElementById("new-album-form");
    const title = document.getElementById("new-album-title");
    button.addEventListener("click", () => {
      title.value = "";
      dialog.showModal();
      title.focus();
    });
    document.getElementById("new-album-cancel").addEventListener("click", () => dialog.close());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const name = title.value.trim();
      if (!name) return;
      try {
        const album = await api.createAlbum(name);
        dialog.close();
        announce(t("albumCreated", { title: album ? album.title : name }));
        onAlbumCreated();
      } catch (error) {
        onError(error);
      }
    });
  }
}
