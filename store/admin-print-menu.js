/*
 * The local admin's Print menu on an order page (store/admin-print-actions.ts serves it). An entry opens the print
 * dialog: the app's extension runs in a frame and says what it will print; once it sets `src` on its
 * `s-admin-print-action`, the dialog loads that document from the app as the admin does (a path relative to the
 * app URL, with `Authorization: Bearer <session token>`), shows it and offers Print and Download.
 */
(() => {
  const dialog = document.getElementById("print-dialog");
  if (!dialog) return;
  const { shop, appUrl, orderGid } = dialog.dataset;
  const title = dialog.querySelector(".dialog-head");
  const extensionFrame = dialog.querySelector("iframe.extension");
  const status = dialog.querySelector(".print-status");
  const preview = dialog.querySelector("iframe.preview");
  const download = dialog.querySelector("a.download");
  const printButton = dialog.querySelector("button.print");
  let observer = null;
  let documentUrl = null;
  let loadedSrc = null;

  const sessionToken = async () => {
    const response = await fetch("/__shell/session-token?shop=" + encodeURIComponent(shop), { cache: "no-store" });
    if (!response.ok) throw new Error("no session token");
    return response.text();
  };

  function reset() {
    observer?.disconnect();
    observer = null;
    if (documentUrl) URL.revokeObjectURL(documentUrl);
    documentUrl = null;
    loadedSrc = null;
    preview.hidden = true;
    preview.removeAttribute("src");
    download.hidden = true;
    download.removeAttribute("href");
    printButton.disabled = true;
    status.textContent = "";
  }

  async function loadDocument(src) {
    if (src === loadedSrc) return;
    loadedSrc = src;
    status.textContent = "Loading the document…";
    try {
      const response = await fetch(new URL(src, appUrl), { headers: { Authorization: "Bearer " + (await sessionToken()) } });
      if (loadedSrc !== src) return;
      if (!response.ok) {
        status.textContent = "The app answered " + response.status + ": nothing to print.";
        return;
      }
      const blob = await response.blob();
      if (loadedSrc !== src) return;
      documentUrl = URL.createObjectURL(blob);
      preview.src = documentUrl;
      preview.hidden = false;
      download.href = documentUrl;
      download.hidden = false;
      printButton.disabled = false;
      status.textContent = "Ready to print.";
    } catch {
      if (loadedSrc === src) status.textContent = "The document could not be loaded. Close and choose Print again.";
    }
  }

  /** Follows the extension's `s-admin-print-action`: whenever it sets a `src`, that is the document to print. */
  function watchExtension() {
    const frameDocument = extensionFrame.contentDocument;
    if (!frameDocument) return;
    const check = () => {
      const action = frameDocument.querySelector("s-admin-print-action");
      const src = action && action.getAttribute("src");
      if (src) void loadDocument(src);
    };
    observer?.disconnect();
    observer = new MutationObserver(check);
    observer.observe(frameDocument, { subtree: true, childList: true, attributes: true, attributeFilter: ["src"] });
    check();
  }

  function open(handle, name) {
    reset();
    title.textContent = name;
    extensionFrame.title = name;
    extensionFrame.onload = watchExtension;
    extensionFrame.src = "/__shell/extensions/" + encodeURIComponent(handle) + "/frame?shop=" + encodeURIComponent(shop) + "&selected=" + encodeURIComponent(orderGid);
    if (!dialog.open) dialog.showModal();
  }

  function close() {
    reset();
    extensionFrame.onload = null;
    extensionFrame.src = "about:blank";
    dialog.close();
  }

  dialog.querySelector("button.close").addEventListener("click", close);
  dialog.addEventListener("cancel", () => reset());
  printButton.addEventListener("click", () => preview.contentWindow?.print());
  for (const entry of document.querySelectorAll("[data-print-action]")) {
    entry.addEventListener("click", () => {
      entry.closest("details")?.removeAttribute("open");
      open(entry.dataset.printAction, entry.textContent.trim());
    });
  }
})();
