// p2pkb rules in the browser: the condition language and version
// constraints of internal/rules, evaluated over a p2p-probe report with the
// same three-valued logic and the same reasons. internal/rules/testdata
// holds the cases both sides run.
(function () {
  "use strict";
  var UNKNOWN = "unknown", TRUE = "applies", FALSE = "does_not_apply";

  // The facts' names and what shows them come from internal/rules, which
  // the build writes to rules.table.js: each is written once, in Go.
  var T = window.p2pkbRulesTable;
  if (!T) { throw new Error("rules.js needs assets/rules.table.js, loaded before it"); }
  var NAMES = T.names;
  // display mirrors rules.Display: how reasons and answers name a fact.
  function display(n) { return NAMES[n] || n.replace(/^(?:env|python)\.(?=.)/, ""); }
  // pasteFor mirrors rules.PasteFor: the output that shows a fact when
  // pasted with a log.
  function pasteFor(n) {
    for (var i = 0; i < T.paste.length; i++) {
      var p = T.paste[i];
      if ((p.facts || []).indexOf(n) >= 0 || (p.prefixes || []).some(function (x) { return n.indexOf(x) === 0; })) { return p.paste; }
    }
    return "";
  }
  function knownFact(n) {
    return Object.prototype.hasOwnProperty.call(NAMES, n) || (/^env\..+/.test(n)) || (/^python\..+/.test(n));
  }
  function bool(b, d) { return { known: true, kind: "bool", b: b, s: "", display: d }; }
  // NCCL_ENV_LISTED mirrors rules.ListNCCLEnv: a source listed every NCCL_* set.
  var NCCL_ENV_LISTED = "env.NCCL_*";
  function listNCCLEnv(f) { f[NCCL_ENV_LISTED] = { known: true, kind: "listed" }; }
  function val(v) { return v !== null && v !== undefined && typeof v !== "object"; }

  // fromReport mirrors rules.FromReport.
  function fromReport(r) {
    var f = {}, s = r.summary || {}, nvml = !!(r.nvml && r.nvml.available);
    f["nvml.available"] = bool(nvml, "NVML");
    if (nvml) {
      var gpus = r.gpus || [];
      f["gpu.count"] = { known: true, kind: "num", n: gpus.length, s: String(gpus.length), display: "GPU count" };
      f["nvlink.present"] = bool(!!s.nvlink, "NVLink");
      f["nvswitch.present"] = bool(!!s.nvswitch, "NVSwitch");
      f["mig.enabled"] = bool(!!s.mig, "MIG");
      var blocked = (s.blocked_pairs || []).length;
      f["p2p.blocked_pairs"] = { known: true, kind: "num", n: blocked, s: String(blocked), display: "pairs without P2P" };
      var arch = "";
      for (var i = 0; i < gpus.length; i++) {
        var a = gpus[i].architecture;
        if (!val(a)) { arch = ""; break; }
        if (i > 0 && a !== arch) { a = "mixed"; }
        arch = a;
      }
      if (arch !== "") { f["gpu.arch"] = { known: true, kind: "str", s: arch, display: "GPU architecture" }; }
    }
    if (typeof s.all_pairs_p2p === "boolean") {
      var pv = bool(s.all_pairs_p2p, "P2P between all GPU pairs"), ok = [], blocked = [];
      (r.pairs || []).forEach(function (p) { if (p.from < p.to && ok.length < 3) { ok.push("GPU" + p.from + "-GPU" + p.to + " over " + p.connection); } });
      (s.blocked_pairs || []).forEach(function (b) { if (b.from < b.to && blocked.length < 3) { blocked.push("GPU" + b.from + "-GPU" + b.to + " " + b.reason); } });
      pv.yes = "P2P works between all GPU pairs" + (ok.length ? " (" + ok.join(", ") + ")" : "");
      pv.no = "P2P blocked" + (blocked.length ? ": " + blocked.join(", ") : "");
      f["p2p.all_pairs_ok"] = pv;
    }
    var host = r.host || {};
    if (typeof host.virtual_machine === "boolean") { f.virtualized = bool(host.virtual_machine, "virtual machine"); }
    f.container = bool(!!host.container, "container");
    var sw = r.software || {};
    if (sw.iommu && typeof sw.iommu.enabled === "boolean") { f["iommu.enabled"] = bool(sw.iommu.enabled, "IOMMU"); }
    var redirect = false, unreadable = false;
    (sw.acs || []).forEach(function (b) {
      redirect = redirect || !!b.request_redirect || !!b.completion_redirect;
      unreadable = unreadable || b.acs === null || b.acs === undefined;
    });
    if (redirect || !unreadable) { f["acs.redirect"] = bool(redirect, "ACS redirect"); }
    var d = r.driver || {};
    var ver = function (name, v, display) { if (typeof v === "string" && v !== "") { f[name] = { known: true, kind: "version", s: v, display: display }; } };
    ver("driver.version", d.version, "driver");
    ver("cuda.driver", d.cuda, "CUDA (driver)");
    if (d.cuda_toolkit) { f["cuda.version"] = { known: true, kind: "version", s: d.cuda_toolkit, display: "CUDA" }; }
    else if (f["cuda.driver"]) { f["cuda.version"] = { known: true, kind: "version", s: f["cuda.driver"].s, display: "CUDA" }; }
    (sw.python || []).forEach(function (p) {
      var name = p.name;
      if (name.indexOf("nvidia-nccl") === 0) { name = "nccl"; }
      if (name.indexOf("cupy") === 0) { name = "cupy"; }
      f["python." + name] = { known: true, kind: "version", s: String(p.version), display: p.name };
    });
    var env = sw.env || {};
    ["CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "TF_GPU_ALLOCATOR"].forEach(function (k) {
      f["env." + k] = { known: true, kind: "str", s: typeof env[k] === "string" ? env[k] : "", display: k };
    });
    Object.keys(env).forEach(function (k) { f["env." + k] = { known: true, kind: "str", s: String(env[k]), display: k }; });
    listNCCLEnv(f);
    hostFacts(f, r);
    testFacts(f, r.test);
    return f;
  }

  // hostFacts mirrors internal/rules hostFacts.
  function hostFacts(f, r) {
    if (r.nvml && r.nvml.available) {
      var consumer = "", unknown = false;
      (r.gpus || []).forEach(function (g) {
        if (typeof g.name !== "string") { unknown = true; return; }
        var l = g.name.toLowerCase();
        if (!consumer && (l.indexOf("geforce") >= 0 || l.indexOf("titan") >= 0)) { consumer = g.name; }
      });
      if (consumer || !unknown) { f["gpu.consumer"] = bool(!!consumer, "consumer GPU"); f["gpu.consumer"].yes = "consumer GPU (" + consumer + ")"; }
    }
    var k = (r.host || {}).kernel;
    if (typeof k === "string" && k) {
      var lk = k.toLowerCase();
      f.wsl = bool(lk.indexOf("microsoft") >= 0 || lk.indexOf("wsl") >= 0, "WSL2");
      f.wsl.yes = "WSL2 (kernel " + k + ")";
    }
    var args = ((r.software || {}).iommu || {}).kernel_args;
    if (Array.isArray(args) && args.length) {
      var pt = false;
      args.forEach(function (a) {
        if (["iommu=pt", "iommu.passthrough=1", "iommu.passthrough=y", "iommu.passthrough=on"].indexOf(a) >= 0) { pt = true; }
        if (["iommu=nopt", "iommu.passthrough=0", "iommu.passthrough=n", "iommu.passthrough=off"].indexOf(a) >= 0) { pt = false; }
      });
      var v = bool(pt, "IOMMU passthrough"), all = args.join(" ");
      v.yes = "IOMMU passthrough (kernel args " + all + ")";
      v.no = "no IOMMU passthrough (kernel args " + all + ")";
      f["iommu.passthrough"] = v;
    }
  }

  var TEST_FACTS = ["p2p.test.data_ok", "p2p.test.failed_pairs", "p2p.test.slow_pairs", "p2p.test.ipc_ok", "p2p.test.timeouts", "p2p.test.enable_error"];
  function listed(rs) { return rs.length <= 3 ? rs.join("; ") : rs.slice(0, 3).join("; ") + "; and " + (rs.length - 3) + " more"; }
  function size(b) {
    if (b >= 1073741824 && b % 1073741824 === 0) { return (b / 1073741824) + " GiB"; }
    if (b >= 1048576) { return String(b / 1048576) + " MiB"; }
    if (b >= 1024) { return String(b / 1024) + " KiB"; }
    return String(b) + " bytes";
  }
  function gbps(x) { x = Number(x) || 0; return (Math.floor(x * 10 + 0.5) / 10).toFixed(1); }
  function pairName(p) { return "GPU" + p.from + "->GPU" + p.to; }
  function paths(p) { return Array.isArray(p.paths) ? p.paths : []; }
  function pathProblem(p, x) {
    var m = x.first_mismatch;
    if (x.wrong_words > 0 || (m && typeof m === "object")) {
      var s = pairName(p) + ": " + size(x.bytes || 0) + " copied, " + (x.wrong_words || 0) + " words wrong";
      if (m && typeof m === "object") { s += ", first at offset " + m.offset + ": expected " + m.expected + ", got " + m.got; }
      return s;
    }
    if (x.error) { return pairName(p) + " " + x.path + ": " + x.error; }
    return pairName(p) + " " + x.path + ": " + x.status;
  }
  function mismatch(p) {
    var ps = paths(p);
    for (var i = 0; i < ps.length; i++) { if (ps[i].status === "mismatch" || ps[i].wrong_words > 0) { return pathProblem(p, ps[i]); } }
    return "";
  }
  function failure(p) {
    var m = mismatch(p), ps = paths(p);
    if (m) { return m; }
    if (p.enable && p.enable !== "OK") { return pairName(p) + ": enabling peer access: " + p.enable; }
    for (var i = 0; i < ps.length; i++) { if (ps[i].error) { return pathProblem(p, ps[i]); } }
    if (p.reason) { return String(p.reason); }
    if (p.step) { return pairName(p) + ": failed in " + p.step; }
    return pairName(p) + ": failed";
  }

  // testFacts mirrors internal/rules testFacts.
  function testFacts(f, t) {
    if (!t || typeof t !== "object") { return; }
    var pairs = Array.isArray(t.pairs) ? t.pairs : [], devices = Array.isArray(t.devices) ? t.devices : [];
    var ran = bool(t.ran === true, "P2P test");
    ran.yes = "P2P test ran (" + devices.length + " GPU, " + pairs.length + " pairs, " + size(t.size_bytes || 0) + " each)";
    ran.no = "P2P test did not run" + (t.error ? ": " + t.error : "");
    f["p2p.test.ran"] = ran;
    if (t.ran !== true) {
      var why = t.error ? " (the test did not run: " + t.error + ")" : " (the test did not run)";
      TEST_FACTS.forEach(function (n) { f[n] = { known: false, display: NAMES[n] + why }; });
      return;
    }
    var byName = {}, s = t.summary || {};
    pairs.forEach(function (p) { byName[pairName(p)] = p; });
    if (typeof s.data_ok === "boolean") {
      var v = bool(s.data_ok, "P2P data check"), n = 0, bad = [];
      pairs.forEach(function (p) {
        n += paths(p).filter(function (x) { return x.status === "ok" || x.status === "mismatch"; }).length;
        var m = mismatch(p);
        if (m) { bad.push(m); }
      });
      v.yes = "every copy arrived intact (" + pairs.length + " pairs, " + n + " paths checked)";
      v.no = "data arrived wrong" + (bad.length ? ": " + listed(bad) : "");
      f["p2p.test.data_ok"] = v;
    }
    if (typeof s.ipc_ok === "boolean") {
      var iv = bool(s.ipc_ok, "cross-process P2P"), ibad = [];
      pairs.forEach(function (p) {
        var x = paths(p).filter(function (x) { return String(x.path).indexOf("ipc_") === 0 && x.status !== "ok"; })[0];
        if (x) { ibad.push(pathProblem(p, x)); }
      });
      iv.yes = "cross-process P2P works (CUDA IPC and cuMem handles verified)";
      iv.no = "cross-process P2P failed" + (ibad.length ? ": " + listed(ibad) : "");
      f["p2p.test.ipc_ok"] = iv;
    }
    var count = function (name, list, why) {
      list = Array.isArray(list) ? list : [];
      var rs = list.map(function (n) { return Object.prototype.hasOwnProperty.call(byName, n) ? why(byName[n]) : String(n); });
      f[name] = { known: true, kind: "num", n: list.length, s: String(list.length) + (rs.length ? " (" + listed(rs) + ")" : ""), display: NAMES[name] };
    };
    count("p2p.test.failed_pairs", s.failed_pairs, failure);
    count("p2p.test.slow_pairs", s.slow_pairs, function (p) {
      var b = p.bandwidth;
      return b && typeof b === "object" ? pairName(p) + ": " + gbps(b.p2p_on) + " GB/s with P2P, " + gbps(b.p2p_off) + " GB/s without" : pairName(p);
    });
    count("p2p.test.timeouts", s.timeouts, function (p) { return pairName(p) + (p.step ? ": timed out in " + p.step : ": timed out"); });
    var enable = "";
    pairs.forEach(function (p) { if (!enable && p.enable && p.enable !== "OK") { enable = String(p.enable); } });
    f["p2p.test.enable_error"] = { known: true, kind: "str", s: enable, display: NAMES["p2p.test.enable_error"] };
  }

  function get(f, name) {
    if (Object.prototype.hasOwnProperty.call(f, name)) { return f[name]; }
    // An NCCL_* not recorded was not set when a source lists them all (a
    // probe report, an NCCL_DEBUG=INFO log), and is unknown otherwise.
    if (name.indexOf("env.NCCL_") === 0) { return { known: Object.prototype.hasOwnProperty.call(f, NCCL_ENV_LISTED), kind: "str", s: "", display: name.slice(4) }; }
    // The NCCL a job prints is the one it loaded; else the one a Python package ships (rules.Facts.get).
    var py = f["python.nccl"];
    if (name === "nccl.version" && py && py.known) { return { known: true, kind: py.kind, s: py.s, n: py.n, b: py.b, display: NAMES[name] }; }
    // The NCCL a PyTorch wheel brings is implied only where none is printed; where one is, it is the one loaded.
    if (name === "nccl.bundled") {
      var v = get(f, "nccl.version");
      if (v.known) { return { known: true, kind: v.kind, s: v.s, n: v.n, b: v.b, display: display(name) }; }
    }
    return { known: false, display: display(name) };
  }

  function versionParts(v) {
    v = String(v).split("+")[0];
    return (v.match(/[0-9]+/g) || []).map(Number);
  }
  function compareVersions(a, b) {
    var pa = versionParts(a), pb = versionParts(b);
    for (var i = 0; i < Math.max(pa.length, pb.length); i++) {
      var x = pa[i] || 0, y = pb[i] || 0;
      if (x !== y) { return x < y ? -1 : 1; }
    }
    return 0;
  }

  function lex(src) {
    var out = [], i = 0, m;
    while (i < src.length) {
      var c = src[i], two = src.substr(i, 2);
      if (/\s/.test(c)) { i++; continue; }
      if (["&&", "||", "==", "!=", "<=", ">="].indexOf(two) >= 0) { out.push({ kind: "op", text: two, pos: i }); i += 2; continue; }
      if (c === "<" || c === ">" || c === "!") { out.push({ kind: "op", text: c, pos: i }); i++; continue; }
      if (c === "(" || c === ")") { out.push({ kind: c, text: c, pos: i }); i++; continue; }
      if (c === "\"") {
        var j = src.indexOf("\"", i + 1);
        if (j < 0) { throw new Error("column " + (i + 1) + ": string not closed"); }
        out.push({ kind: "str", text: src.slice(i + 1, j), pos: i }); i = j + 1; continue;
      }
      if ((m = /^[0-9][0-9.]*/.exec(src.slice(i)))) { out.push({ kind: "num", text: m[0], pos: i }); i += m[0].length; continue; }
      if ((m = /^[\p{L}_][\p{L}\p{N}_.]*/u.exec(src.slice(i)))) { out.push({ kind: "fact", text: m[0], pos: i }); i += m[0].length; continue; }
      throw new Error("column " + (i + 1) + ": unexpected \"" + c + "\"");
    }
    out.push({ kind: "eof", text: "", pos: src.length });
    return out;
  }

  // parse mirrors rules.Parse; an empty condition is null (always applies).
  function parse(src) {
    if (!src || !src.trim()) { return null; }
    var toks = lex(src), k = 0;
    var peek = function () { return toks[k]; }, next = function () { return toks[k++]; };
    function or() {
      var l = and();
      while (peek().kind === "op" && peek().text === "||") { next(); l = { t: "or", l: l, r: and() }; }
      return l;
    }
    function and() {
      var l = not();
      while (peek().kind === "op" && peek().text === "&&") { next(); l = { t: "and", l: l, r: not() }; }
      return l;
    }
    function not() {
      if (peek().kind === "op" && peek().text === "!") { next(); return { t: "not", e: not() }; }
      return compare();
    }
    function compare() {
      var l = operand(), t = peek();
      if (t.kind === "op" && ["&&", "||", "!"].indexOf(t.text) < 0) { next(); return { t: "cmp", op: t.text, l: l, r: operand() }; }
      return l;
    }
    function operand() {
      var t = next();
      if (t.kind === "(") {
        var e = or(), c = next();
        if (c.kind !== ")") { throw new Error("column " + (c.pos + 1) + ": missing )"); }
        return e;
      }
      if (t.kind === "num") { return { t: "lit", num: true, text: t.text }; }
      if (t.kind === "str") { return { t: "lit", text: t.text }; }
      if (t.kind === "fact") {
        if (t.text === "true" || t.text === "false") { return { t: "lit", boolean: true, text: t.text }; }
        if (!knownFact(t.text)) { throw new Error("column " + (t.pos + 1) + ": unknown fact \"" + t.text + "\" (see the list in internal/rules)"); }
        return { t: "fact", name: t.text };
      }
      if (t.kind === "eof") { throw new Error("column " + (t.pos + 1) + ": expression ends too soon"); }
      throw new Error("column " + (t.pos + 1) + ": unexpected \"" + t.text + "\"");
    }
    var e = or(), t = peek();
    if (t.kind !== "eof") { throw new Error("column " + (t.pos + 1) + ": unexpected \"" + t.text + "\""); }
    return e;
  }

  function not3(t) { return t === TRUE ? FALSE : t === FALSE ? TRUE : UNKNOWN; }
  var NEGATE = { "==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<" };

  function operandValue(e, f) {
    if (e.t === "fact") { return get(f, e.name); }
    if (e.t === "lit") {
      if (e.num) { return { known: true, kind: "num", n: parseFloat(e.text), s: e.text, display: e.text }; }
      if (e.boolean) { return { known: true, kind: "bool", b: e.text === "true", display: e.text }; }
      return { known: true, kind: "str", s: e.text, display: JSON.stringify(e.text) };
    }
    var r = ev(e, f);
    return { known: r.truth !== UNKNOWN, kind: "bool", b: r.truth === TRUE, display: "condition" };
  }

  function ev(e, f) {
    var l, r;
    switch (e.t) {
      case "fact":
        var v = get(f, e.name);
        if (!v.known) { return { truth: UNKNOWN, reasons: [v.display + " unknown"] }; }
        if (v.kind !== "bool") { return { truth: UNKNOWN, reasons: [e.name + " is not true or false"] }; }
        if (v.b) { return { truth: TRUE, reasons: [v.yes || v.display + " present"] }; }
        return { truth: FALSE, reasons: [v.no || "no " + v.display] };
      case "lit":
        if (e.boolean) { return { truth: e.text === "true" ? TRUE : FALSE, reasons: [] }; }
        return { truth: UNKNOWN, reasons: [(e.num ? e.text : JSON.stringify(e.text)) + " is not true or false"] };
      case "not":
        r = ev(e.e, f);
        return { truth: not3(r.truth), reasons: r.reasons };
      case "and":
        l = ev(e.l, f); r = ev(e.r, f);
        if (l.truth === FALSE && r.truth === FALSE) { return { truth: FALSE, reasons: l.reasons.concat(r.reasons) }; }
        if (l.truth === FALSE) { return l; }
        if (r.truth === FALSE) { return r; }
        if (l.truth === TRUE && r.truth === TRUE) { return { truth: TRUE, reasons: l.reasons.concat(r.reasons) }; }
        return { truth: UNKNOWN, reasons: unknownReasons(l, r) };
      case "or":
        l = ev(e.l, f); r = ev(e.r, f);
        if (l.truth === TRUE) { return l; }
        if (r.truth === TRUE) { return r; }
        if (l.truth === FALSE && r.truth === FALSE) { return { truth: FALSE, reasons: l.reasons.concat(r.reasons) }; }
        return { truth: UNKNOWN, reasons: unknownReasons(l, r) };
      case "cmp":
        return cmp(e, f);
    }
    return { truth: UNKNOWN, reasons: [] };
  }

  // unknownReasons mirrors eval.go's: each fact not known is named once.
  function unknownReasons(l, r) {
    var out = [].concat(l.truth === UNKNOWN ? l.reasons : [], r.truth === UNKNOWN ? r.reasons : []);
    return out.filter(function (x, i) { return out.indexOf(x) === i; });
  }

  function cmp(e, f) {
    var l = operandValue(e.l, f), r = operandValue(e.r, f);
    var shown = function (v, isFact) {
      if (isFact && v.kind !== "bool") { return v.display + " " + v.s; }
      if (v.kind === "bool") { return v.display; }
      return v.s;
    };
    if (!l.known || !r.known) {
      return { truth: UNKNOWN, reasons: [l, r].filter(function (v) { return !v.known; }).map(function (v) { return v.display + " unknown"; }) };
    }
    var c;
    if (l.kind === "version" || r.kind === "version") { c = compareVersions(l.s, r.s); }
    else if (l.kind === "num" && r.kind === "num") { c = l.n < r.n ? -1 : l.n > r.n ? 1 : 0; }
    else if (l.kind === "bool" && r.kind === "bool") {
      if (e.op !== "==" && e.op !== "!=") { return { truth: UNKNOWN, reasons: ["true/false compared by order"] }; }
      c = l.b === r.b ? 0 : 1;
    } else { c = l.s < r.s ? -1 : l.s > r.s ? 1 : 0; }
    var ok = { "==": c === 0, "!=": c !== 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0 }[e.op];
    var op = ok ? e.op : NEGATE[e.op];
    var reason = shown(l, e.l.t === "fact") + " " + op + " " + shown(r, e.r.t === "fact");
    if (l.kind === "str" && r.kind === "str") {
      reason = l.display + " is " + JSON.stringify(l.s);
      if (!ok && e.op === "==") { reason = l.display + " is " + JSON.stringify(l.s) + ", not " + JSON.stringify(r.s); }
    }
    return { truth: ok ? TRUE : FALSE, reasons: [reason] };
  }

  var COMPONENTS = { "cuda": "cuda.version", "nvidia-driver": "driver.version", "driver": "driver.version", "torch": "python.torch",
    "pytorch": "python.torch", "tensorflow": "python.tensorflow", "jax": "python.jax", "jaxlib": "python.jaxlib", "cupy": "python.cupy", "nccl": "nccl.version" };
  var CONSTRAINT = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*(>=|<=|==|!=|>|<)\s*([0-9][0-9A-Za-z.+-]*)\s*$/;

  // constraint mirrors rules.Constraint: null for a version that only records.
  function constraint(version) {
    var m = CONSTRAINT.exec(version);
    if (!m) {
      if (/[<>=]/.test(version)) { throw new Error(JSON.stringify(version) + " is not a constraint of the form component>=version"); }
      return null;
    }
    var name = COMPONENTS[m[1].toLowerCase()];
    if (!name) { throw new Error(JSON.stringify(version) + ": unknown component " + JSON.stringify(m[1])); }
    return { t: "cmp", op: m[2], l: { t: "fact", name: name }, r: { t: "lit", text: m[3] } };
  }

  // applies mirrors rules.Applies.
  function applies(versions, when, f) {
    var e = null;
    (versions || []).forEach(function (v) {
      var c = constraint(v);
      if (c) { e = e ? { t: "and", l: e, r: c } : c; }
    });
    var w = parse(when || "");
    if (w) { e = e ? { t: "and", l: e, r: w } : w; }
    if (!e) { return { truth: TRUE, reasons: [] }; }
    return ev(e, f);
  }

  // reasonIn mirrors rules.ReasonIn: a reason as Chinese readers see it,
  // with the facts' Chinese names from the table.
  var ZH_NAMES = T.zhNames || [], ZH_REASONS = T.zhReasons || [];
  function nameZh(s) {
    var i, best = "", zh = "";
    for (i = 0; i < ZH_REASONS.length; i++) {
      if (s.indexOf(ZH_REASONS[i][0]) === 0) { return ZH_REASONS[i][1] + s.slice(ZH_REASONS[i][0].length); }
    }
    for (i = 0; i < ZH_NAMES.length; i++) {
      var en = ZH_NAMES[i][0];
      if (en.length > best.length && (s === en || s.indexOf(en + " ") === 0)) { best = en; zh = ZH_NAMES[i][1]; }
    }
    if (best === "") { return s; }
    var rest = s.slice(best.length);
    ZH_REASONS.forEach(function (r) { rest = rest.replace(r[0], function () { return r[1]; }); });
    return zh + rest;
  }
  function reasonIn(reason, lang) {
    if (lang !== "zh") { return reason; }
    if (/ unknown$/.test(reason)) { return nameZh(reason.slice(0, -" unknown".length)) + " 未知"; }
    if (/ present$/.test(reason)) { return "有 " + nameZh(reason.slice(0, -" present".length)); }
    if (reason.indexOf("no ") === 0) { return "没有 " + nameZh(reason.slice(3)); }
    return nameZh(reason).replace(" is ", " 为 ");
  }

  // holding mirrors rules.Holding: the facts that make e true with facts f,
  // those of every part that holds; null when e does not hold.
  function holding(e, f) {
    if (!e || ev(e, f).truth !== TRUE) { return null; }
    var union = function (a, b) { b.forEach(function (n) { if (a.indexOf(n) < 0) { a.push(n); } }); return a; };
    var walk = function (x) {
      if (x.t === "or") {
        var out = [];
        [x.l, x.r].forEach(function (side) { if (ev(side, f).truth === TRUE) { union(out, walk(side)); } });
        return out;
      }
      if (x.t === "and") { return union(walk(x.l).slice(), walk(x.r)); }
      return factsIn(x, []);
    };
    return walk(e);
  }
  // factsIn mirrors rules.Reads: the facts expression e reads, each once,
  // appended to out.
  function factsIn(e, out) {
    if (!e) { return out; }
    if (e.t === "fact" && out.indexOf(e.name) < 0) { out.push(e.name); }
    ["e", "l", "r"].forEach(function (k) { if (e[k]) { factsIn(e[k], out); } });
    return out;
  }

  // versionFact mirrors rules.VersionFact: a component's version, or a
  // version said to have changed.
  function versionFact(n) {
    return T.versions.indexOf(n) >= 0 || T.versionPrefixes.some(function (p) { return n.length > p.length && n.slice(0, p.length) === p; });
  }

  window.p2pkbRules = { fromReport: fromReport, reasonIn: reasonIn, parse: parse, applies: applies, compareVersions: compareVersions, gbps: gbps, size: size,
    displayName: display, pasteFor: pasteFor, listNCCLEnv: listNCCLEnv, versionFact: versionFact, holding: holding, factsIn: factsIn,
    known: function (f, n) { return !!f && get(f, n).known === true; } };

  // fact mirrors rules.Facts.Set: one fact from another source than a probe
  // report (a pasted log), its value given as text.
  window.p2pkbRules.fact = function (name, kind, text) {
    var v = { known: true, kind: kind, s: text, display: display(name) };
    if (kind === "bool") {
      v.b = text === "true"; v.s = "";
      var own = (T.own || {})[name];
      if (own) { v.yes = own[0]; v.no = own[1]; }
    }
    if (kind === "num") { v.n = parseFloat(text); }
    return v;
  };
})();
