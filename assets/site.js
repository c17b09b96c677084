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
})();
