// @ts-check
/*
 * The Delivery estimate block on the storefront: no framework, no dependencies, deferred. It asks Dakiya through
 * the store's app proxy (the block's data-endpoint) and shows the answer's own sentences, which Dakiya writes in the
 * storefront's language (docs/storefront-api.md). The PIN code is remembered for the next product.
 */
(function () {
  const STORAGE_KEY = "dakiya:pincode";
  const PINCODE = /^[1-9][0-9]{5}$/;

  /** @param {string} value */
  function remember(value) {
    try {
      window.localStorage.setItem(STORAGE_KEY, value);
    } catch {
      // Storage refused (private mode, quota): the block still works, it only forgets.
    }
  }

  function remembered() {
    try {
      return window.localStorage.getItem(STORAGE_KEY) || "";
    } catch {
      return "";
    }
  }

  /** @param {HTMLElement} root */
  function mount(root) {
    if (root.hasAttribute("data-ready")) return;
    root.setAttribute("data-ready", "");
    const form = root.querySelector("form");
    const input = /** @type {HTMLInputElement | null} */ (root.querySelector("input[name=pincode]"));
    const message = root.querySelector(".dakiya-estimate__message");
    const cod = root.querySelector(".dakiya-estimate__cod");
    if (!form || !input || !message || !cod) return;
    const data = root.dataset;
    let asked = 0;

    /** @param {string} state @param {string} text @param {string} [codText] */
    function show(state, text, codText) {
      root.setAttribute("data-state", state);
      /** @type {Element} */ (message).textContent = text;
      /** @type {Element} */ (cod).textContent = codText || "";
      /** @type {HTMLInputElement} */ (input).setAttribute("aria-invalid", state === "error" ? "true" : "false");
    }

    /** @param {string} pincode */
    function check(pincode) {
      if (!PINCODE.test(pincode)) {
        show("error", data.invalid || "");
        return;
      }
      const mine = (asked += 1);
      show("checking", data.checking || "");
      let query = "pincode=" + pincode + "&locale=" + encodeURIComponent(data.locale || "");
      if (data.grams) query += "&grams=" + encodeURIComponent(data.grams);
      if (data.amount) query += "&amount=" + encodeURIComponent(data.amount);
      fetch(data.endpoint + "?" + query, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) {
          return response.json().then(function (body) {
            return { ok: response.ok, status: response.status, body: body };
          });
        })
        .then(function (answer) {
          if (mine !== asked) return;
          const body = answer.body || {};
          if (answer.status === 400 && body.message) return show("error", body.message);
          if (!answer.ok || body.status === "unavailable") return show("unavailable", body.message || data.unavailable || "");
          if (body.status === "off") return show("off", "");
          remember(pincode);
          show(body.status, body.message || "", body.codMessage || "");
        })
        .catch(function () {
          if (mine === asked) show("unavailable", data.unavailable || "");
        });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      check(/** @type {HTMLInputElement} */ (input).value.replace(/\s+/g, ""));
    });

    const known = remembered();
    if (PINCODE.test(known)) {
      input.value = known;
      check(known);
    }
  }

  function mountAll() {
    const roots = document.querySelectorAll("[data-dakiya-estimate]");
    for (let i = 0; i < roots.length; i += 1) mount(/** @type {HTMLElement} */ (roots[i]));
  }

  mountAll();
  // The theme editor adds blocks to a live page.
  document.addEventListener("shopify:section:load", mountAll);
})();
