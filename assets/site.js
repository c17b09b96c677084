// p2pkb: copy buttons, the remembered language, and the Your machine panel's
// scripts, loaded when they are needed. No framework, no network.
(function () {
  "use strict";
  var body = document.body;

  // The panel's scripts and styles are most of a page's weight and most
  // visitors never open it: they are loaded when it opens, or at once where
  // something stored in this browser or a #probe= link has it judge the
  // page. Relative srcs work from file:// and under any sub-path; a page
  // that needs them at once (search) names them itself.
  function loadMachine() {
    if (!document.querySelector('link[href$="assets/machine.css"]')) {
      var css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = (body.dataset.root || "") + "assets/machine.css";
      document.head.appendChild(css);
    }
    ["machine." + body.dataset.lang + ".js", "rules.table.js", "rules.js", "paste.table.js", "paste.js", "machine.js"].forEach(function (name) {
      if (document.querySelector('script[src$="assets/' + name + '"]')) { return; }
      var s = document.createElement("script");
      s.src = (body.dataset.root || "") + "assets/" + name;
      s.async = false; // run in this order, as deferred scripts do
      document.head.appendChild(s);
    });
  }
  var panel = document.getElementById("machine"), stored = false;
  try { stored = !!(localStorage.getItem("p2pkb.probe") || localStorage.getItem("p2pkb.paste")); } catch (e) { /* storage off: nothing stored */ }
  if (panel) {
    if (stored || panel.open || /(?:^#|&)probe=/.test(location.hash)) { loadMachine(); }
    panel.addEventListener("toggle", function () { if (panel.open) { loadMachine(); } });
  }

  // Show only the entries that apply: the marks come from machine.js.
  document.addEventListener("change", function (ev) {
    if (ev.target.id === "only-applying") { body.classList.toggle("only-applying", ev.target.checked); }
  });

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
  // The header's box is one line: a log pasted there goes to the search
  // page's box whole, lines and all.
  document.addEventListener("paste", function (ev) {
    var q = ev.target, form = q.form;
    if (!form || !form.classList.contains("search") || q.name !== "q" || !ev.clipboardData) { return; }
    var text = ev.clipboardData.getData("text");
    if (text.indexOf("\n") < 0) { return; }
    ev.preventDefault();
    var long = text.length > MAX_QUERY || text.length * 3 > MAX_QUERY && new TextEncoder().encode(text).length > MAX_QUERY;
    if (long) { q.value = text; form.requestSubmit(); return; } // refused below, with the reason
    location.href = form.action + "?q=" + encodeURIComponent(text);
  });
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
