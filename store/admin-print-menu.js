/*
 * The local admin's Print menu, on an order's page and on the Orders list for the orders selected in it
 * (store/admin-print-actions.ts serves it). An entry opens the print dialog: the app's extension runs in a frame,
 * given the selection, and says what it will print; once it sets `src` on its `s-admin-print-action`, the dialog
 * loads that document from the app as the admin does (a path relative to the app URL, with `Authorization: Bearer
 * <session token>`), shows it and offers Print and Download.
 */
(() => {
  const dialog = document.getElementById("print-dialog");
  if (!dialog) return;
  const { shop, appUrl, target, orderGid } = dialog.dataset;
  const orderBoxes = [...document.querySelectorAll("input[data-select-order]")];
  // What the page hands the action: an order's page its order, the list the orders checked in it.
  const selectedGids = () => (orderGid ? [orderGid] : orderBoxes.filter((box) => box.checked).map((box) => box.value));
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
    // Order gids (letters, digits, ':' and '/') go into the address as they are: escaped, a selection of hundreds
    // would outgrow the 16 KB a request's head may have.
    extensionFrame.src =
      "/__shell/extensions/" + encodeURIComponent(handle) + "/frame?shop=" + encodeURIComponent(shop) + "&target=" + encodeURIComponent(target) + "&selected=" + selectedGids().join(",");
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

  // The menu: its button shows and hides the entries; an entry, Escape or a click elsewhere closes it.
  const menu = document.querySelector("[data-print-menu]");
  if (!menu) return;
  const menuButton = menu.querySelector("button[aria-expanded]");
  const entries = menu.querySelector(".menu-items");
  const showEntries = (shown) => {
    entries.hidden = !shown;
    menuButton.setAttribute("aria-expanded", String(shown));
  };
  menuButton.addEventListener("click", () => showEntries(entries.hidden));
  menu.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || entries.hidden) return;
    showEntries(false);
    menuButton.focus();
  });
  document.addEventListener("click", (event) => {
    if (!menu.contains(event.target)) showEntries(false);
  });
  for (const entry of entries.querySelectorAll("[data-print-action]")) {
    entry.addEventListener("click", () => {
      showEntries(false);
      open(entry.dataset.printAction, entry.textContent.trim());
    });
  }

  // The list's bulk actions show once an order is checked, saying how many, as the admin's do.
  const bulkActions = document.querySelector("[data-bulk-actions]");
  const selectAll = document.querySelector("input[data-select-all-orders]");
  if (!bulkActions || !selectAll) return;
  const showSelection = () => {
    const count = selectedGids().length;
    selectAll.checked = count > 0 && count === orderBoxes.length;
    selectAll.indeterminate = count > 0 && count < orderBoxes.length;
    bulkActions.querySelector("[data-selection-count]").textContent = count === 1 ? "1 selected" : count + " selected";
    bulkActions.hidden = count === 0;
    if (count === 0) showEntries(false);
  };
  selectAll.addEventListener("change", () => {
    for (const box of orderBoxes) box.checked = selectAll.checked;
    showSelection();
  });
  for (const box of orderBoxes) box.addEventListener("change", showSelection);
  // A page restored from the browser's history keeps its checked boxes.
  showSelection();
})();
