// p2pkb "Your machine": a p2p-probe report pasted, dropped or opened from a
// #probe= link, kept in this browser only (localStorage), and used to mark
// which entries, workarounds and dead ends apply. A pasted log instead
// gives the facts paste.js recognizes in it, used where no report has them.
// Both are untrusted: parsed, checked, and every string is shown as text.
(function () {
  "use strict";
  var KEY = "p2pkb.probe", MAX = 1 << 20, PASTE_KEY = "p2pkb.paste", PASTE_MAX = 8 << 20;
  var panel = document.getElementById("machine");
  if (!panel || !window.p2pkbRules) { return; }
  var words = window.p2pkbText || {}, t = function (k) { return words[k] || k; };
  var $ = function (sel) { return panel.querySelector(sel); };

  // check returns the report, or throws with a message a person can act on.
  // The shape and limits are facts.ReportShape's, generated with the words:
  // a report this accepts, facts.Read accepts, and a report over the limits
  // (more GPUs than a table can show) is refused before it is stored.
  var SHAPE = window.p2pkbReportShape || { maxSize: MAX, maxString: 4096, shape: { k: "obj", f: {} } };
  function check(text) {
    if (typeof text !== "string" || text.length > SHAPE.maxSize) { throw new Error(t("errLarge")); }
    var r;
    try { r = JSON.parse(text); } catch (e) { throw new Error(t("errJson")); }
    if (!r || typeof r !== "object" || Array.isArray(r) || !r.probe || r.probe.name !== "p2p-probe" || r.schema_version !== 1) {
      throw new Error(t("errSchema"));
    }
    var bad = walk(SHAPE.shape, r);
    if (bad) {
      var e = new Error(t({ type: "errType", unknown: "errUnknown", many: "errMany", long: "errLong" }[bad.kind])
        .replace("{field}", bad.path).split("{max}").join(String(bad.max)));
      e.report = true; // a probe report, refused: no log to read in it
      throw e;
    }
    // Lists Go writes as null, and parts a report may leave out, read as empty.
    r.gpus = r.gpus || [];
    r.pairs = r.pairs || [];
    r.summary = r.summary || {};
    return r;
  }

  // walk mirrors facts.Shape.Check: where v leaves shape s, or null. The
  // field's path is made on the way out, only for the field refused.
  var own = function (o, k) { return Object.prototype.hasOwnProperty.call(o, k); };
  var at = function (kind, max) { return { path: "", kind: kind, max: max }; };
  var under = function (bad, step) { bad.path = bad.path === "" || bad.path.charAt(0) === "[" ? step + bad.path : step + "." + bad.path; return bad; };
  function walk(s, v) {
    var obj = v !== null && typeof v === "object" && !Array.isArray(v);
    var i, k, keys, bad;
    if (v === null) { return s.null ? null : at("type"); }
    switch (s.k) {
    case "val":
      if (obj) {
        keys = Object.keys(v);
        if (keys.length === 1 && keys[0] === "error" && typeof v.error === "string" && v.error !== "") {
          return v.error.length > SHAPE.maxString ? { path: "error", kind: "long", max: SHAPE.maxString } : null;
        }
      }
      return walk(s.of, v);
    case "obj":
    case "map":
      if (!obj) { return at("type"); }
      keys = Object.keys(v);
      if (s.k === "map" && keys.length > s.max) { return at("many", s.max); }
      for (i = 0; i < keys.length; i++) {
        k = keys[i];
        if (s.k === "obj" && !own(s.f, k)) { return { path: k, kind: "unknown" }; }
        if (s.k === "map" && k.length > SHAPE.maxString) { return { path: k, kind: "long", max: SHAPE.maxString }; }
        if ((bad = walk(s.k === "obj" ? s.f[k] : s.of, v[k]))) { return under(bad, k); }
      }
      return null;
    case "arr":
      if (!Array.isArray(v)) { return at("type"); }
      if (v.length > s.max) { return at("many", s.max); }
      for (i = 0; i < v.length; i++) {
        if ((bad = walk(s.of, v[i]))) { return under(bad, "[" + i + "]"); }
      }
      return null;
    case "str":
      if (typeof v !== "string") { return at("type"); }
      return v.length > s.max ? at("long", s.max) : null;
    case "int":
      return typeof v === "number" && Number.isInteger(v) && Math.abs(v) <= Number.MAX_SAFE_INTEGER ? null : at("type");
    case "num":
      return typeof v === "number" && isFinite(v) ? null : at("type");
    case "bool":
      return typeof v === "boolean" ? null : at("type");
    }
    return at("type");
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = String(text); }
    return e;
  }
  var str = function (v) { return v === null || v === undefined ? "?" : typeof v === "object" ? (v.error ? String(v.error) : "?") : String(v); };

  // Facts of a pasted log: stored as the facts only, never the log.
  var pasted = [], pasteBox = $(".machine-paste");
  function showPasted(conflicts) {
    if (!pasteBox) { return; }
    pasteBox.textContent = "";
    if (!pasted.length) { return; }
    pasteBox.appendChild(el("p", "meta", t("pasted")));
    var list = el("ul", "pasted-facts");
    pasted.forEach(function (f) {
      var li = el("li", "", f.name + " = " + f.value + " · " + f.line + ": " + f.text.replace(/\s+/g, " ").trim());
      li.dataset.fact = f.name;
      list.appendChild(li);
    });
    pasteBox.appendChild(list);
    (conflicts || []).forEach(function (c) {
      var words = t("pasteConflict").replace("{name}", c.display).replace("{log}", c.log).replace("{line}", String(c.line)).replace("{probe}", c.probe);
      pasteBox.appendChild(el("p", "conflict", words));
    });
  }

  // show writes the summary line; the GPUs, the pair matrix and the test's
  // figures are drawn when the panel is open, as a person reads them, so a
  // kept report costs a page that never opens the panel almost nothing.
  var drawn = null;
  function show(r) {
    var out = $(".machine-facts");
    out.textContent = "";
    drawn = null;
    if (!r && pasted.length) { $(".machine-state").textContent = t(pasted.length === 1 ? "pastedFact" : "pastedFacts").replace("%d", pasted.length); return; }
    if (!r) { $(".machine-state").textContent = t("none"); return; }
    var d = r.driver || {};
    $(".machine-state").textContent = r.gpus.length + " GPU · driver " + str(d.version) + " · CUDA " + str(d.cuda);
    if (panel.open) { draw(r); }
  }
  panel.addEventListener("toggle", function () { if (panel.open && current && drawn !== current) { draw(current); } });

  function draw(r) {
    var out = $(".machine-facts");
    out.textContent = "";
    drawn = r;
    var list = el("ul");
    r.gpus.forEach(function (g) { list.appendChild(el("li", "", "GPU" + str(g.index) + ": " + str(g.name) + " (" + str(g.architecture) + ")")); });
    out.appendChild(list);
    if (r.gpus.length > 1) {
      // The matrix as nvidia-smi topo -m draws it, pairs without P2P marked.
      // check bounds it to MaxGPUs x MaxGPUs cells.
      var byPair = {};
      r.pairs.forEach(function (p) { byPair[p.from + ">" + p.to] = byPair[p.from + ">" + p.to] || p; });
      var table = el("table", "matrix"), head = el("tr");
      head.appendChild(el("th", "", ""));
      r.gpus.forEach(function (g) { head.appendChild(el("th", "", "GPU" + str(g.index))); });
      table.appendChild(head);
      r.gpus.forEach(function (a) {
        var row = el("tr");
        row.appendChild(el("th", "", "GPU" + str(a.index)));
        r.gpus.forEach(function (b) {
          if (a.index === b.index) { row.appendChild(el("td", "", "X")); return; }
          var p = byPair[a.index + ">" + b.index] || {};
          var ok = p.p2p_read === "OK" && p.p2p_write === "OK";
          var cell = el("td", ok ? "p2p-ok" : "p2p-no", str(p.connection) + (ok ? "" : " ✗"));
          if (!ok) { cell.title = str(p.p2p_read); }
          row.appendChild(cell);
        });
        table.appendChild(row);
      });
      out.appendChild(table);
      var blocked = (r.summary.blocked_pairs || []);
      if (blocked.length) {
        var bl = el("ul", "blocked");
        blocked.forEach(function (b) { bl.appendChild(el("li", "", "GPU" + str(b.from) + " → GPU" + str(b.to) + ": " + str(b.reason))); });
        out.appendChild(bl);
      }
    }
    out.appendChild(showTest(r));
  }

  // showTest draws what p2p-probe --test measured: bandwidth with P2P on and
  // off by source row and destination column, as p2pBandwidthLatencyTest
  // prints it, pairs that did not pass marked in words, the checks with the
  // rules' reasons, and the probe's verdict.
  var MARKS = { failed: "tFailed", slow: "tSlow", timeout: "tTimeout", skipped: "tSkipped" };
  function showTest(r) {
    var box = el("div", "p2p-test"), T = r.test, R = window.p2pkbRules;
    if (!T || typeof T !== "object") { box.appendChild(el("p", "meta", t("tNone"))); return box; }
    if (T.ran !== true) { box.appendChild(el("p", "", t("tTitle") + t("tColon") + t("tNotRun") + (T.error ? ": " + str(T.error) : ""))); return box; }
    var devices = Array.isArray(T.devices) ? T.devices : [], pairs = Array.isArray(T.pairs) ? T.pairs : [];
    var ord = function (x) { return typeof x === "number" && x >= 0 && x < 64 && x === Math.floor(x); };
    var n = 0, local = {}, h2d = {}, d2h = {}, host = false, byPair = {};
    devices.forEach(function (d) {
      if (!ord(d.ordinal)) { return; }
      n = Math.max(n, d.ordinal + 1);
      local[d.ordinal] = d.local_gbps; h2d[d.ordinal] = d.h2d_gbps; d2h[d.ordinal] = d.d2h_gbps;
      host = host || typeof d.h2d_gbps === "number" || typeof d.d2h_gbps === "number";
    });
    pairs.forEach(function (p) { if (ord(p.from) && ord(p.to)) { n = Math.max(n, p.from + 1, p.to + 1); byPair[p.from + ">" + p.to] = p; } });
    box.appendChild(el("p", "", t("tTitle") + t("tColon") + devices.length + " GPU · " + R.size(Number(T.size_bytes) || 0) + " · " +
      ((Number(T.duration_ms) || 0) / 1000).toFixed(1) + " s"));
    var fig = function (x) { return typeof x === "number" ? R.gbps(x) : "–"; };
    box.appendChild(el("p", "meta", t("tCaption")));
    var table = el("table", "matrix bandwidth"), head = el("tr");
    head.appendChild(el("th", "", t("tCorner")));
    for (var j = 0; j < n; j++) { head.appendChild(el("th", "", "GPU" + j)); }
    if (host) { head.appendChild(el("th", "", t("tHost"))); }
    table.appendChild(head);
    for (var a = 0; a < n; a++) {
      var row = el("tr");
      row.appendChild(el("th", "", "GPU" + a));
      for (var b = 0; b < n; b++) {
        if (a === b) { row.appendChild(el("td", "local", fig(local[a]))); continue; }
        var p = byPair[a + ">" + b], cell = el("td");
        if (p) {
          var bw = p.bandwidth && typeof p.bandwidth === "object" ? p.bandwidth : {};
          cell.appendChild(el("span", "on", fig(bw.p2p_on)));
          cell.appendChild(document.createTextNode(" / "));
          cell.appendChild(el("span", "off", fig(bw.p2p_off)));
          if (Object.prototype.hasOwnProperty.call(MARKS, p.status)) {
            cell.className = "pair-" + p.status;
            cell.appendChild(el("span", "mark", t(MARKS[p.status])));
          }
        }
        row.appendChild(cell);
      }
      if (host) { row.appendChild(el("td", "host", fig(d2h[a]))); }
      table.appendChild(row);
    }
    if (host) {
      // Pinned host memory as one more endpoint, so a single GPU still gets figures.
      var hrow = el("tr");
      hrow.appendChild(el("th", "", t("tHost")));
      for (var c = 0; c < n; c++) { hrow.appendChild(el("td", "host", fig(h2d[c]))); }
      hrow.appendChild(el("td", "local", ""));
      table.appendChild(hrow);
    }
    var scroll = el("div", "scroll");
    scroll.appendChild(table);
    box.appendChild(scroll);
    // The checks, worded by the rules so that the marks below agree.
    var facts = R.fromReport(r), list = el("ul", "checks");
    var line = function (truth, label, text) {
      list.appendChild(el("li", "check-" + truth, { applies: "✓ ", does_not_apply: "✗ ", unknown: "? " }[truth] + t(label) + t("tColon") + text));
    };
    [["tData", "p2p.test.data_ok"], ["tIpc", "p2p.test.ipc_ok"]].forEach(function (c) {
      var v = R.applies([], c[1], facts);
      line(v.truth, c[0], reasonsText(v));
    });
    // Pair counts only when some pair failed, was slow or hung: the matrix marks them too.
    [["tFailedPairs", "p2p.test.failed_pairs"], ["tSlowPairs", "p2p.test.slow_pairs"], ["tTimeouts", "p2p.test.timeouts"]].forEach(function (c) {
      var v = facts[c[1]];
      if (v && v.known && v.n > 0) { line("does_not_apply", c[0], v.s); }
    });
    box.appendChild(list);
    var verdict = (T.summary || {}).verdict;
    if (verdict) { box.appendChild(el("p", "test-verdict", t("tVerdict") + t("tColon") + str(verdict))); }
    return box;
  }

  var LABELS = { applies: "lApplies", does_not_apply: "lDoesNotApply", unknown: "lUnknown" };
  function verdictEl(v) {
    return el("span", "verdict verdict-" + v.truth, t(LABELS[v.truth]) + (v.reasons && v.reasons.length ? ": " + reasonsText(v) : ""));
  }
  // reasonsText is a verdict's reasons in the page's language.
  function reasonsText(v) {
    return (v.reasons || []).map(function (x) { return window.p2pkbRules.reasonIn(x, document.body.dataset.lang); }).join("; ");
  }

  // mark judges this page's entry and its workarounds and dead ends.
  function mark(r) {
    // Pages that judge more than this function marks (the causes of a pasted message) follow.
    queueMicrotask(function () { document.dispatchEvent(new Event("p2pkb-machine")); });
    document.querySelectorAll(".verdict").forEach(function (e) { e.remove(); });
    document.querySelectorAll("[data-applies]").forEach(function (e) { delete e.dataset.applies; });
    var merged = window.p2pkbPaste ? window.p2pkbPaste.merge(r ? window.p2pkbRules.fromReport(r) : null, pasted) : null;
    if (merged) {
      merged.conflicts.forEach(function (c) { c.display = window.p2pkbRules.fact(c.name, "str", "").display; });
      showPasted(merged.conflicts);
    }
    if (!r && !pasted.length) { return; }
    var facts = merged ? merged.facts : window.p2pkbRules.fromReport(r);
    var judge = function (versions, when) {
      try { return window.p2pkbRules.applies(versions, when, facts); } catch (e) { return { truth: "unknown", reasons: [e.message] }; }
    };
    var entry = document.querySelector("article.entry");
    if (entry) {
      var v = judge(JSON.parse(entry.dataset.versions || "[]"), entry.dataset.appliesWhen || "");
      entry.dataset.applies = v.truth;
      var badges = entry.querySelector(".badges");
      if (badges) { badges.appendChild(verdictEl(v)); }
      var list = entry.querySelector(".workarounds ol");
      ["[data-workaround]", "[data-dead-end]"].forEach(function (sel) {
        document.querySelectorAll(sel).forEach(function (li) {
          var w = judge([], li.dataset.condition || "");
          li.dataset.applies = w.truth;
          var meta = li.querySelector(".meta");
          (meta || li).appendChild(verdictEl(w));
        });
      });
      if (list) {
        var order = { applies: 0, unknown: 1, does_not_apply: 2 };
        Array.prototype.slice.call(list.children).sort(function (a, b) {
          return order[a.dataset.applies] - order[b.dataset.applies];
        }).forEach(function (li) { list.appendChild(li); });
      }
    }
    document.querySelectorAll("li[data-entry-versions]").forEach(function (li) {
      li.dataset.applies = judge(JSON.parse(li.dataset.entryVersions || "[]"), li.dataset.appliesWhen || "").truth;
    });
  }

  // Pages that add entries later (search results) ask for marks again.
  var current = null;

  // usePaste takes the facts of a pasted log; keep stores them for other
  // pages. The log is read a line at a time against the clock: what takes
  // more than SLICE ms goes on in slices of that much, the page running
  // between them, so that no text freezes the tab (paste.js reads at most
  // paste.MaxLine bytes of a line, so no line takes long). A text read at
  // once gives its answer (true when facts were taken); one read in slices
  // is taken (true) before its facts are known.
  var SLICE = 25, SYNC_MAX = 256 << 10, reading = 0;
  var MAX_QUERY = 64 << 10; // search.MaxQueryBytes: the search page refuses a longer query
  function usePaste(text, keep) {
    var msg = $(".machine-message");
    reading++;
    if (text.length > PASTE_MAX) { msg.textContent = t("pasteLarge"); return false; }
    var x = new window.p2pkbPaste.Extractor(), pos = 0, n = 0, gen = reading;
    var step = function () {
      var until = performance.now() + SLICE;
      while (pos < text.length && performance.now() < until) {
        var end = text.indexOf("\n", pos);
        if (end < 0) { end = text.length; }
        x.line(++n, text.slice(pos, end));
        pos = end + 1;
      }
      return pos >= text.length;
    };
    if (step()) { return takePaste(x.facts(), keep, text); }
    setTimeout(function slice() {
      if (gen !== reading) { return; } // a newer paste replaced this one
      if (!step()) { setTimeout(slice, 0); return; }
      takePaste(x.facts(), keep, text);
    }, 0);
    return true;
  }

  // searchLink adds to el a link that asks the search page about text, in
  // words, when the page accepts a query that long.
  function searchLink(el, text, words) {
    if (!text || !text.trim() || new TextEncoder().encode(text).length > MAX_QUERY) { return; }
    var a = document.createElement("a");
    a.className = "machine-paste-search";
    a.href = (document.body.dataset.root || "") + document.body.dataset.lang + "/search/index.html?q=" + encodeURIComponent(text);
    a.textContent = t(words);
    if (el.textContent) { el.appendChild(document.createTextNode(" ")); }
    el.appendChild(a);
  }

  function takePaste(found, keep, text) {
    var msg = $(".machine-message");
    if (!found.length) {
      if (keep) {
        msg.textContent = t("pasteNone");
        // What the text says may still be answered: the search page gives
        // what explain gives, the entries closest to its words included.
        searchLink(msg, text, "pasteSearch");
      }
      return false;
    }
    pasted = found;
    if (keep) {
      try { localStorage.setItem(PASTE_KEY, JSON.stringify(found)); } catch (e) { /* storage off: this page only */ }
      msg.textContent = "";
      // A log that shows something wrong without an error line (a hang, a
      // small BAR1, GeForce cards): the search page answers it from what it
      // shows, as explain does.
      if (window.p2pkbPaste.symptoms(found).length) { searchLink(msg, text, "pasteSymptom"); }
    }
    show(current);
    mark(current);
    return true;
  }
  window.p2pkbMachine = {
    refresh: function () { mark(current); },
    // facts: what this page judges by, the report's and a pasted log's, or null.
    facts: function () {
      if (!current && !pasted.length) { return null; }
      var merged = window.p2pkbPaste ? window.p2pkbPaste.merge(current ? window.p2pkbRules.fromReport(current) : null, pasted) : null;
      return merged ? merged.facts : window.p2pkbRules.fromReport(current);
    },
    // paste: the search page hands over its query, which may be a whole log.
    paste: function (text) { if (!window.p2pkbPaste || !usePaste(String(text), false)) { mark(current); } }
  };

  // use reads a pasted or linked report, or (kept) the one this browser
  // kept. A report is kept only once it is checked and drawn; a kept one that
  // no longer reads (an older site's limits, a hand-edited store) is dropped
  // with a message rather than tried again on every page.
  function use(text, kept) {
    var msg = $(".machine-message");
    if (!kept && window.p2pkbPaste && !/^\s*[{[]/.test(text)) { return usePaste(text, true); }
    try {
      current = check(text);
      show(current);
      mark(current);
    } catch (e) {
      current = null;
      try { show(null); mark(null); } catch (e2) { /* nothing left to draw */ }
      if (kept) {
        try { localStorage.removeItem(KEY); } catch (e2) { /* storage off */ }
        msg.textContent = t("dropped").replace("{why}", e.message);
        return false;
      }
      // JSON that is no probe report may still be output paste.js reads (nvbandwidth -j).
      if (!e.report && window.p2pkbPaste && text.length <= SYNC_MAX && usePaste(text, true)) { return true; }
      msg.textContent = e.message;
      return false;
    }
    if (!kept) {
      try { localStorage.setItem(KEY, text); } catch (e) { /* storage off: keep it for this page */ }
    }
    msg.textContent = kept ? "" : t("stored");
    return true;
  }

  function forget() {
    try { localStorage.removeItem(KEY); localStorage.removeItem(PASTE_KEY); } catch (e) { /* nothing stored */ }
    pasted = [];
    $(".machine-message").textContent = t("forgotten");
    current = null;
    show(null);
    mark(null);
  }

  $(".machine-use").addEventListener("click", function () { use($(".machine-input").value, false); });
  $(".machine-forget").addEventListener("click", forget);
  $(".machine-file").addEventListener("change", function (ev) {
    var f = ev.target.files && ev.target.files[0];
    if (!f) { return; }
    if (f.size > MAX) { $(".machine-message").textContent = t("errLarge"); return; }
    f.text().then(function (text) { use(text, false); });
  });
  $(".machine-input").addEventListener("drop", function (ev) {
    var f = ev.dataTransfer && ev.dataTransfer.files && ev.dataTransfer.files[0];
    if (!f) { return; }
    ev.preventDefault();
    if (f.size > MAX) { $(".machine-message").textContent = t("errLarge"); return; }
    f.text().then(function (text) { use(text, false); });
  });

  // A #probe= link (p2p-probe --link): base64url of raw DEFLATE of the JSON.
  // It is inflated a chunk at a time and refused once past the size of a
  // report, so a small link cannot unpack to gigabytes; the facts leave the
  // address bar whatever happens, so that reloading does not read them again.
  var m = /(?:^#|&)probe=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (m && window.DecompressionStream) {
    history.replaceState(null, "", location.pathname + location.search);
    if (m[1].length > Math.ceil(SHAPE.maxSize * 4 / 3)) { $(".machine-message").textContent = t("errLarge"); return; }
    var b64 = m[1].replace(/-/g, "+").replace(/_/g, "/");
    var bin;
    try { bin = atob(b64 + "===".slice((b64.length + 3) % 4)); } catch (e) { $(".machine-message").textContent = t("errJson"); return; }
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    inflate(bytes, SHAPE.maxSize).then(function (text) {
      if (use(text, false)) { panel.open = true; }
    }, function (e) { $(".machine-message").textContent = e.message; });
    return;
  }

  // inflate resolves to the text of raw DEFLATE data, or rejects with the
  // message to show when it is not DEFLATE or unpacks to more than limit
  // bytes. The data goes in a kilobyte at a time, read out before the next:
  // DEFLATE unpacks a kilobyte to a megabyte at most, so no more than that
  // is ever made past the limit.
  function inflate(data, limit) {
    var ds = new DecompressionStream("deflate-raw"), w = ds.writable.getWriter(), rd = ds.readable.getReader();
    var chunks = [], n = 0, STEP = 1024;
    return new Promise(function (resolve, reject) {
      var failed = false, fail = function (msg) {
        if (failed) { return; }
        failed = true;
        rd.cancel().catch(function () {});
        w.abort().catch(function () {});
        reject(new Error(msg));
      };
      (function feed(at) {
        if (failed) { return; }
        if (at >= data.length) { w.close().catch(function () { fail(t("errJson")); }); return; }
        w.ready.then(function () { return w.write(data.subarray(at, at + STEP)); })
          .then(function () { feed(at + STEP); }, function () { fail(t("errJson")); });
      })(0);
      (function next() {
        rd.read().then(function (res) {
          if (failed) { return; }
          if (res.done) {
            var all = new Uint8Array(n), at = 0;
            chunks.forEach(function (c) { all.set(c, at); at += c.length; });
            resolve(new TextDecoder().decode(all));
            return;
          }
          n += res.value.length;
          if (n > limit) { fail(t("errLarge")); return; }
          chunks.push(res.value);
          next();
        }, function () { fail(t("errJson")); });
      })();
    });
  }

  var saved = null;
  try {
    saved = localStorage.getItem(KEY);
    var kept = JSON.parse(localStorage.getItem(PASTE_KEY) || "[]");
    // Stored facts are read back as data and checked like any input.
    if (Array.isArray(kept)) {
      pasted = kept.filter(function (f) {
        return f && typeof f.name === "string" && typeof f.value === "string" && typeof f.kind === "string" && typeof f.line === "number" && typeof f.text === "string";
      });
    }
  } catch (e) { saved = null; }
  if (!saved && pasted.length) { show(null); mark(null); return; }
  if (saved) { use(saved, true); } else { show(null); }
})();
