// p2pkb: copy buttons and the remembered language. No framework, no network.
(function () {
  "use strict";
  var body = document.body;

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    // file:// and plain http have no async clipboard: use a selection.
    return new Promise(function (resolve, reject) {
      var ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.style.position = "fixed";
      ta.style.opacity = "0";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      if (ok) { resolve(); } else { reject(new Error("copy refused")); }
    });
  }

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest && ev.target.closest("button.copy");
    if (btn) {
      var pre = btn.parentNode.querySelector("pre");
      if (!pre) { return; }
      var label = btn.textContent;
      copyText(pre.textContent.replace(/\n$/, "")).then(function () {
        btn.textContent = body.dataset.copied;
        btn.classList.add("done");
      }, function () {
        btn.textContent = body.dataset.copyFailed;
        var range = document.createRange();
        range.selectNodeContents(pre);
        var sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      });
      setTimeout(function () { btn.textContent = label; btn.classList.remove("done"); }, 2000);
      return;
    }
    var open = ev.target.closest && ev.target.closest("button.open-machine");
    var panel = document.getElementById("machine");
    if (open && panel) {
      panel.open = true;
      panel.scrollIntoView();
      var field = panel.querySelector("textarea");
      if (field) { field.focus(); }
      return;
    }
    var lang = ev.target.closest && ev.target.closest("nav.langs a[data-lang]");
    if (lang) {
      try { localStorage.setItem("p2pkb.lang", lang.dataset.lang); } catch (e) { /* storage off: nothing to remember */ }
    }
  });

  // A search holds at most 64 KB of UTF-8, as on the server
  // (search.MaxQueryBytes): a form with a longer text is not sent, and a
  // message beside it says why, so a huge paste is never searched in part
  // and cannot freeze the tab.
  var MAX_QUERY = 64 << 10;
  document.addEventListener("submit", function (ev) {
    var form = ev.target, q = form.elements && form.elements.q;
    if (!q || form.getAttribute("role") !== "search") { return; }
    var text = q.value, long = text.length > MAX_QUERY || text.length * 3 > MAX_QUERY && new TextEncoder().encode(text).length > MAX_QUERY;
    var msg = form.nextElementSibling;
    if (!msg || !msg.classList.contains("query-message")) {
      if (!long) { return; }
      msg = document.createElement("p");
      msg.className = "query-message";
      msg.setAttribute("role", "alert");
      form.parentNode.insertBefore(msg, form.nextSibling);
    }
    msg.hidden = !long;
    msg.textContent = long ? body.dataset.queryTooLong : "";
    if (long) { ev.preventDefault(); }
  });
})();
