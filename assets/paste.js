// p2pkb paste facts in the browser: internal/paste's readers, line for line,
// running the patterns internal/paste writes to paste.table.js.
// Pasted text (nvidia-smi topo, the CUDA P2P samples, NCCL_DEBUG=INFO,
// lspci, dmesg, tracebacks and banners) becomes the facts p2p-probe gives,
// each with the line it came from. internal/paste/testdata/cases.json holds
// the cases both sides run. Pasted text is only read, never shown as markup.
(function () {
  "use strict";
  // The patterns, trigger words and bounds are internal/paste's, written by
  // the build to paste.table.js: each is written once, in Go.
  var T = window.p2pkbPasteTable;
  // SAID is paste.Said: the source of the facts read from a person's words.
  var SAID = "description";
  if (!T) { throw new Error("paste.js needs assets/paste.table.js, loaded before it"); }
  var MAX_TEXT = T.maxText, MAX_GPUS = T.maxGPUs, MAX_ENV = T.maxEnv, MAX_LINE = T.maxLine, CLOSE_LIMIT = T.closeLimit;
  var RE = {};
  Object.keys(T.patterns).forEach(function (k) { RE[k] = new RegExp(T.patterns[k].s, T.patterns[k].f || ""); });
  function global(name) { return new RegExp(T.patterns[name].s, (T.patterns[name].f || "") + "g"); }
  var PREFIXES = RE.prefixes, ANSI = global("ansi");

  var encoder = new TextEncoder(), decoder = new TextDecoder();
  // cut keeps MAX_TEXT bytes of UTF-8, as Go does.
  function cut(s) {
    var e = s.length;
    while (e > 0 && s.charAt(e - 1) === "\r") { e--; }
    s = s.slice(0, e);
    var b = encoder.encode(s);
    if (b.length <= MAX_TEXT) { return s; }
    var i = MAX_TEXT;
    while (i > 0 && (b[i] & 0xC0) === 0x80) { i--; }
    return decoder.decode(b.slice(0, i)) + "…";
  }
  // head keeps the first MAX_LINE bytes of UTF-8 (paste.MaxLine): the
  // patterns here backtrack, and a pattern run on a line of any length could
  // take minutes; on this much it takes milliseconds.
  function head(s) {
    if (s.length <= MAX_LINE / 3) { return s; }
    var b = encoder.encode(s.slice(0, MAX_LINE));
    if (b.length <= MAX_LINE) { return s.length <= MAX_LINE ? s : decoder.decode(b); }
    var i = MAX_LINE;
    while (i > 0 && (b[i] & 0xC0) === 0x80) { i--; }
    return decoder.decode(b.slice(0, i));
  }
  // fields mirrors strings.Fields.
  function fields(s) {
    var out = [], start = -1;
    for (var i = 0; i <= s.length; i++) {
      var c = i < s.length ? s.charCodeAt(i) : 32;
      var space = c === 32 || (c >= 9 && c <= 13) || c === 0x85 || c === 0xA0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200A) || c === 0x2028 || c === 0x2029 || c === 0x202F || c === 0x205F || c === 0x3000;
      if (space) { if (start >= 0) { out.push(s.slice(start, i)); start = -1; } } else if (start < 0) { start = i; }
    }
    return out;
  }
  function trimSet(s, set) {
    var a = 0, b = s.length;
    while (a < b && set.indexOf(s.charAt(a)) >= 0) { a++; }
    while (b > a && set.indexOf(s.charAt(b - 1)) >= 0) { b--; }
    return s.slice(a, b);
  }
  function isDigits(s) {
    if (s === "") { return false; }
    for (var i = 0; i < s.length; i++) { var c = s.charCodeAt(i); if (c < 48 || c > 57) { return false; } }
    return true;
  }
  // isDecimal is \d+(\.\d+)?, as Go's isDecimal.
  function isDecimal(s) {
    var i = s.indexOf(".");
    return i < 0 ? isDigits(s) : isDigits(s.slice(0, i)) && isDigits(s.slice(i + 1));
  }
  // bwHeader and bwRow mirror matrix.go's.
  function bwHeader(f) {
    if (f.length < 2 || (f[0] !== "D\\D" && f[0] !== "GPU" && f[0] !== "CPU")) { return false; }
    for (var i = 1; i < f.length; i++) { if (!isDigits(f[i])) { return false; } }
    return true;
  }
  function bwRow(f) {
    if (f.length < 2 || !isDigits(f[0])) { return false; }
    for (var i = 1; i < f.length; i++) { var c = f[i]; if (c !== "inf" && c !== "nan" && c !== "-" && !isDecimal(c)) { return false; } }
    return true;
  }
  function ev() { return { set: false, line: 0, text: "" }; }
  function mark(e, n, text) { if (!e.set) { e.set = true; e.line = n; e.text = text; } }
  function grid(v) { var g = []; for (var i = 0; i < MAX_GPUS; i++) { g.push(new Array(MAX_GPUS).fill(v)); } return g; }
  function trimDot(s) { return s.charAt(s.length - 1) === "." ? s.slice(0, -1) : s; }
  function firstGroup(m) { for (var i = 1; i < m.length; i++) { if (m[i]) { return m[i]; } } return ""; }
  function trimNum(s) { var n = parseInt(s, 10); return isNaN(n) ? s : String(n); }
  function cudaInt(s) {
    var v = parseInt(s, 10);
    if (isNaN(v) || v < 1000) { return s; }
    return Math.floor(v / 1000) + "." + Math.floor((v % 1000) / 10);
  }

  // strip mirrors paste.Strip.
  function strip(line) {
    if (line.indexOf("\x1b") >= 0) { line = line.replace(ANSI, ""); }
    var s = line.trim();
    for (var i = 0; i < 8; i++) {
      var m = PREFIXES.exec(s);
      if (!m || m[0].length === 0) { break; }
      s = s.slice(m[0].length).trim();
    }
    return s;
  }

  // Extractor mirrors paste.Extractor: line(n, text) in order, then facts().
  function Extractor() {
    this.f = {}; this.prio = {};
    this.mat = null; this.p2pMode = ""; this.bw = null;
    this.pairs = { seen: grid(false), blocked: grid(false), any: false, firstOK: ev(), firstBlock: ev(), okSource: "", noSource: "" };
    this.nccl = { seen: [ev(), ev(), ev()], nodes: 0, nodesSeen: false, hosts: [], refused: ev(), firstChannel: ev() };
    this.iommuFaults = { n: 0, first: ev() }; this.xids = { n: 0, first: ev() }; this.xidNVLink = ev();
    this.acs = { any: ev(), redirect: ev() }; this.consumer = ev(); this.dataCentre = ev(); this.amdGPU = ev();
    this.simple = { seen: false, verifyKO: ev(), passed: ev(), ran: ev() };
    this.mig = { next: false, on: ev(), seen: ev() };
    this.envCount = 0;
    this.sym = {
      nt: { wrongCols: [], header: ev(), rows: 0, wrong: 0, firstBad: ev(), oob: ev(), oobN: "", busbw: ev(), busbwV: "" },
      waived: ev(), mismatch: ev(), close: ev(),
      smi: { next: "", fb: 0, bar1: 0, bar1Ev: ev(), small: ev(), anyBAR1: false, matched: false },
      hang: { watch: false, init: ev() },
      tensors: { nonzero: new Array(MAX_GPUS).fill(0), zeros: ev(), open: { set: false, line: 0, raw: "", text: "" }, recent: [], differs: ev() },
      setpci: { next: false, any: ev(), redirect: ev() },
      rebar: { mib: 0, ev: ev(), small: ev() },
      bb: { cols: [], size: -1, width: 0, peak: 0, peakEv: ev(), most: 0, mostEv: ev(), hosts: [], ranks: 0, name: "", nameEv: ev() }
    };
    this.car = { named: ev(), log: false };
    this.prose = { hang: ev(), hangBare: ev(), lossNaN: ev(), nanPairs: false, lossZero: ev(), zero2: ev(), atInit: false, introAt: 0, later: ev(), first: ev(), oneNode: ev(), multiFail: ev(), diverge: ev(), loopback: ev(), p2pOff: ev(), nodeLocal: ev(), second: ev(), training: ev(), elsewhere: ev(), mixed: ev(), firstOnly: ev(), firstOK: 0, otherFail: 0, power: ev(), powerGPUs: false, several: false, riser: ev(), lost: ev(), oom: ev(), form: false, close: ev(), ctrlC: ev(), wrong: ev(), dist: false, mig: ev(), vm: ev(), cont: ev(), p2p: false, amd: ev(),
      socks: ev(), slow: ev(), bus: ev(), lib: false, shm: ev(), dockerShm: ev(), fmAt: 0, fm: ev(), nvls: ev(),
      win: ev(), wsl: false, multi: false, bwFig: ev(), bwCar: false, sock1: ev(), mig2: false, acs: ev(), iommu: ev(),
      peerAlready: ev(), ibvWarn: ev(), fabricNS: ev(), errorColumn: ev(), testsNamed: false, noNCCL: ev(), splitMode: ev(), splitTensor: ev(),
      ctr: ev(), wslSaid: ev(), vmSaid: ev(), share: ev(), iso: ev(), hangLine: ev(), differ: ev(), works: {}, nWorks: 0 };
    this.gpuArch = { seen: 0, first: ev(), dc: ev() };
    this.cudaBuild = 0;
    this.story = { ev: ev(), component: "", fact: "", good: "", bad: "", goodEv: ev(), badEv: ev(), halves: [], installed: "", pending: null };
    this.link = { nv: grid(0), nvRow: [], nvSet: false, section: "", gen: 0, wid: 0, genEv: ev(), widEv: ev(),
      fig: grid(0), figRow: [], figSet: false, nvb: false, nvbRows: 0, nvbCells: [], host: new Array(MAX_GPUS).fill(0), hostRow: [], nvbHost: false };
    this.listed = { most: 0, ev: ev() };
    this.peerAsk = { a: 0, b: 0, set: false };
    this.scale = { fail: ev(), metric: ev(), metricOne: false, metricMany: false, dp: false, same: ev(), from: "", devs: [], read: {}, nRead: 0, one: { unit: "" }, many: { unit: "", gpus: 0 }, rates: [] };
    for (var q = 0; q < MAX_GPUS; q++) { this.link.nvRow.push(ev()); this.link.figRow.push(new Array(MAX_GPUS).fill(null)); }
  }
  var X = Extractor.prototype;

  X.set = function (name, kind, value, prio, n, text, source) {
    if (Object.prototype.hasOwnProperty.call(this.prio, name) && this.prio[name] >= prio) { return; }
    this.prio[name] = prio;
    this.f[name] = { name: name, kind: kind, value: value, line: n, text: cut(text), source: source };
  };
  X.setEvent = function (name, kind, value, prio, e, source) { if (e.set) { this.set(name, kind, value, prio, e.line, e.text, source); } };
  X.addPair = function (a, b, ok, n, raw, src) {
    var p = this.pairs;
    if (a < 0 || b < 0 || a >= MAX_GPUS || b >= MAX_GPUS || a === b) { return; }
    p.any = true; p.seen[a][b] = true;
    if (ok) { if (!p.firstOK.set) { p.okSource = src; } mark(p.firstOK, n, raw); return; }
    p.blocked[a][b] = true;
    if (!p.firstBlock.set) { p.noSource = src; }
    mark(p.firstBlock, n, raw);
  };

  // codeComment mirrors paste.go's: whether raw is a whole-line comment
  // within a Markdown code fence of a programming language (codeLangs), the
  // program's own words rather than what the run did.
  X.codeComment = function (raw) {
    var t = raw.replace(/^[ \t]+/, "");
    if (t.slice(0, 3) === "```") {
      if (this.inFence) { this.inFence = false; this.inCode = false; }
      else { this.inFence = true; this.inCode = T.words.codeLangs.indexOf(t.slice(3).trim().toLowerCase()) >= 0; }
      return false;
    }
    return !!this.inCode && (t.charAt(0) === "#" || t.slice(0, 2) === "//");
  };

  X.line = function (n, raw) {
    var comment = this.codeComment(raw);
    raw = head(raw);
    this.watchHang(raw);
    if (comment) { return; }
    var s = strip(raw);
    if (this.symptomLine(s, n, raw) || this.linkLine(s, n, raw)) { return; }
    if (this.mat && this.matRow(s, n, raw)) { return; }
    if (this.mat) { this.endMatrix(); }
    if (this.bw && this.bwLine(s, n, raw)) { return; }
    if (s === "") { return; }
    var m = startMatrix(s, n, raw);
    if (m) { m.mode = this.p2pMode; this.p2pMode = ""; this.mat = m; return; }
    this.scan(s, n, raw);
  };

  X.scan = function (s, n, raw) {
    var m;
    this.gpuLine(s, n, raw);
    if ((m = RE.p2pMode.exec(s))) { this.p2pMode = m[1]; }
    if (RE.bwStart.test(s)) {
      this.bw = { cur: -1, conn: false, mats: [null, null, null, null], ran: ev(), onFirst: ev(), devices: 0, devLine: ev(), open: ev(), figures: false };
      this.bwLine(s, n, raw);
      return;
    }
    // NVLink SHARP in use, with or without the "NCCL INFO" before it (paste.go).
    if (s.indexOf("NVLS ") >= 0 && RE.nvlsOn.test(s)) { this.set("nccl.nvls", "bool", "true", 1, n, raw, "NCCL"); }
    if (s.indexOf("NCCL") >= 0) { this.ncclLine(s, n, raw); }
    if (s.indexOf("Device") >= 0 && (m = RE.canAccess.exec(s))) {
      this.addPair(parseInt(m[1], 10), parseInt(m[3], 10), m[2] === "CAN", n, raw, "p2pBandwidthLatencyTest");
    }
    if (s.indexOf("Peer access from") >= 0 && (m = RE.peerAccess.exec(s))) {
      this.addPair(parseInt(m[2], 10), parseInt(m[4], 10), m[5] === "Yes", n, raw, "simpleP2P");
      this.simple.seen = true;
    }
    // A peer check and its answer (paste.go): on one line, or asked alone
    // with the answer on the next.
    if (this.peerAsk.set) {
      this.peerAsk.set = false;
      if ((m = RE.peerAnswer.exec(s))) { this.addPair(this.peerAsk.a, this.peerAsk.b, m[1] === "True", n, raw, "PyTorch's peer check"); }
    }
    if (s.indexOf("if ") < 0 && s.indexOf("assert ") < 0 && s.indexOf("while ") < 0) {
      if ((m = RE.peerCheck.exec(s))) {
        this.addPair(parseInt(m[1], 10), parseInt(m[2], 10), m[3] === "True" || m[3] === "true" || m[3] === "1", n, raw, "a peer check");
      } else if ((m = RE.peerAsk.exec(s))) {
        this.peerAsk.a = parseInt(m[1], 10); this.peerAsk.b = parseInt(m[2], 10); this.peerAsk.set = true;
      }
    }
    if ((m = RE.devCount.exec(s))) { this.set("gpu.count", "num", trimNum(m[1]), 2, n, raw, "simpleP2P"); this.simple.seen = true; }
    if ((m = RE.gpusFound.exec(s))) { this.set("gpu.count", "num", trimNum(m[1] || m[2]), 2, n, raw, m[1] ? "llama.cpp" : "deviceQuery"); }
    if ((m = RE.devList.exec(s))) {
      var d = parseInt(m[1] || m[2] || m[3], 10);
      if (d >= this.listed.most) { this.listed.most = d; this.listed.ev = { set: true, line: n, text: raw }; }
    }
    if (s.indexOf("Verification error @ element") === 0) { mark(this.simple.verifyKO, n, raw); mark(this.simple.ran, n, raw); }
    if (this.simple.seen) {
      if (s.indexOf("Test passed") === 0) { mark(this.simple.passed, n, raw); }
      else if (s.indexOf("Test failed") === 0) { mark(this.simple.verifyKO, n, raw); }
      else if (s.indexOf("cudaMemcpyPeer / cudaMemcpy between") === 0 || s.indexOf("Run kernel on GPU") === 0) { mark(this.simple.ran, n, raw); }
    }
    this.kernelLine(s, n, raw);
    this.versionLine(s, n, raw);
    this.versionProse(s, n, raw);
    this.storyLine(s, n, raw);
    this.gpuArchLine(s, n, raw);
    this.cudaBuildLine(s, n, raw);
    this.symptomScan(s, n, raw);
    this.proseLine(s, n, raw);
    this.customARLine(s, n, raw);
    this.linkScan(s);
  };

  // The link readers mirror link.go.
  var NVLINK_GBS = 25, BELOW = 0.5, PCIE_LANE = [0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563];
  function nvbRow(f) {
    if (f.length < 2 || !isDigits(f[0])) { return false; }
    for (var i = 1; i < f.length; i++) { if (f[i] !== "N/A" && !isDecimal(f[i])) { return false; } }
    return true;
  }
  function digitFields(f) { for (var i = 0; i < f.length; i++) { if (!isDigits(f[i])) { return false; } } return f.length > 0; }
  X.linkFigure = function (i, j, v, n, raw) {
    var l = this.link;
    if (i < 0 || j < 0 || i >= MAX_GPUS || j >= MAX_GPUS || i === j || !(v > 0)) { return; }
    if (v > l.fig[i][j]) { l.fig[i][j] = v; l.figRow[i][j] = { set: true, line: n, text: raw }; }
    l.figSet = true;
  };
  X.linkLine = function (s, n, raw) {
    var l = this.link, f, j;
    if (l.nvb || l.nvbHost) {
      f = fields(s);
      // The header numbers the columns; a figure always has two decimals.
      if (digitFields(f)) { return true; }
      if (nvbRow(f)) {
        var i = parseInt(f[0], 10);
        if (l.nvbHost) {
          for (j = 1; j < f.length; j++) {
            var h = parseFloat(f[j]);
            if (isDecimal(f[j]) && i === 0 && j - 1 < MAX_GPUS && h > l.host[j - 1]) { l.host[j - 1] = h; l.hostRow[j - 1] = { set: true, line: n, text: raw }; }
          }
          return true;
        }
        l.nvbRows++;
        for (j = 1; j < f.length; j++) {
          if (i !== j - 1) { l.nvbCells.push({ i: i, j: j - 1, v: isDecimal(f[j]) ? parseFloat(f[j]) : 0, na: !isDecimal(f[j]), line: n, raw: raw }); }
        }
        return true;
      }
      this.nvbEnd();
    }
    if (l.section !== "") {
      f = fields(s);
      if (f.length >= 3 && (f[0] === "Max" || f[0] === "Current") && f[1] === ":") {
        if (f[0] === "Max") {
          var w = f[2].charAt(f[2].length - 1) === "x" ? f[2].slice(0, -1) : f[2];
          var v = isDigits(w) ? parseInt(w, 10) : 0;
          if (v > 0 && l.section === "PCIe Generation" && v < PCIE_LANE.length && (l.gen === 0 || v < l.gen)) { l.gen = v; l.genEv = { set: true, line: n, text: raw }; }
          else if (v > 0 && l.section === "Link Width" && (l.wid === 0 || v < l.wid)) { l.wid = v; l.widEv = { set: true, line: n, text: raw }; }
        }
        return true;
      }
      if (f.length > 0 && (f[0] === "Device" || f[0] === "Host")) { return true; }
      l.section = "";
    }
    return false;
  };
  X.linkScan = function (s) {
    if (s === "PCIe Generation" || s === "Link Width") { this.link.section = s; }
    if (s.indexOf("memcpy ") === 0) { this.link.nvb = RE.nvbTitle.test(s); this.link.nvbHost = RE.nvbHost.test(s); }
  };
  // nvbEnd mirrors link.go's: a device-to-device matrix of one row is
  // all_to_one's or one_to_all's, not a pair's figures.
  X.nvbEnd = function () {
    var l = this.link;
    if (l.nvbRows >= 2) {
      for (var k = 0; k < l.nvbCells.length; k++) {
        var c = l.nvbCells[k];
        this.addPair(c.i, c.j, !c.na, c.line, c.raw, "nvbandwidth");
        if (!c.na) { this.linkFigure(c.i, c.j, c.v, c.line, c.raw); }
      }
    }
    l.nvb = false; l.nvbHost = false; l.nvbRows = 0; l.nvbCells = [];
  };
  X.linkFacts = function () {
    var l = this.link, i, j;
    if (!l.figSet) { return; }
    var pcie = l.gen > 0 && l.wid > 0 ? PCIE_LANE[l.gen] * l.wid : 0, below = 0, least = 0, first = ev(), leastEv = null, leastSrc = "";
    for (i = 0; i < MAX_GPUS; i++) {
      for (j = 0; j < MAX_GPUS; j++) {
        var v = l.fig[i][j];
        // A pair without P2P copies through the host: its figure is not P2P's.
        if (v === 0 || this.pairs.blocked[i][j]) { continue; }
        var allows = pcie, e = l.widEv, src = "nvidia-smi -q (PCIe Gen" + l.gen + " x" + l.wid + ")";
        if (l.nvSet && l.nv[i][j] > 0) { allows = l.nv[i][j] * NVLINK_GBS; e = l.nvRow[i]; src = "nvidia-smi topo -m (NV" + l.nv[i][j] + ", 25 GB/s a link)"; }
        if (allows === 0 && l.host[i] > 0 && l.host[j] > 0) {
          var k = l.host[j] < l.host[i] ? j : i;
          allows = l.host[k]; e = l.hostRow[k]; src = "nvbandwidth's copies between the host and GPU " + k + " in the same run";
        }
        if (allows === 0) { continue; }
        if (least === 0 || allows < least) { least = allows; leastEv = e; leastSrc = src; }
        if (v < allows * BELOW) { below++; mark(first, l.figRow[i][j].line, l.figRow[i][j].text); }
      }
    }
    if (least === 0) { return; }
    this.setEvent("p2p.link_gbs", "num", String(least), 1, leastEv, leastSrc);
    for (i = 0; !first.set && i < MAX_GPUS; i++) { for (j = 0; !first.set && j < MAX_GPUS; j++) { if (l.figRow[i][j]) { first = l.figRow[i][j]; } } }
    this.setEvent("p2p.bw_below_link", "num", String(below), 1, first, "P2P bandwidth against the link");
  };

  // The symptom readers mirror symptoms.go.
  var SET_UP = T.words.setUp, TEARDOWN = T.words.teardown, QUIET = T.words.quiet, TF_ALL_REDUCE = T.words.tfAllReduce, PYNCCL = T.words.pynccl;
  function armsHang(s) {
    if (s.indexOf(TF_ALL_REDUCE[0]) >= 0 && s.indexOf(TF_ALL_REDUCE[1]) >= 0 || s.indexOf(PYNCCL[0]) >= 0) { return true; }
    return s.indexOf("NCCL INFO") >= 0 && containsAny(s, SET_UP);
  }
  var TEST_TYPES = ["float", "half", "double", "int8", "int32", "int64", "f8e"];
  function containsAny(s, words) { for (var i = 0; i < words.length; i++) { if (s.indexOf(words[i]) >= 0) { return true; } } return false; }
  var FIRST_ONLY_GAP = 3;
  // saidIn: re matches a sentence of s that not does not (paste.saidIn).
  var SENTENCE_END = global("sentenceEnd");
  function saidIn(s, re, not) {
    var at = 0, m, end, c;
    SENTENCE_END.lastIndex = 0;
    for (;;) {
      m = SENTENCE_END.exec(s);
      end = m ? m.index + m[0].length : s.length;
      c = s.slice(at, end);
      if (re.test(c) && !not.test(c)) { return true; }
      if (!m) { return false; }
      at = end;
    }
  }
  // saidOutside: re matches s outside every span of nots (paste.saidOutside).
  function saidOutside(s, re, nots) {
    return spans(re, s).some(function (m) { return !nots.some(function (x) { return m[0] < x[1] && x[0] < m[1]; }); });
  }
  // bareZero mirrors paste.bareZero: a 0 that stands alone as a figure.
  function bareZero(s) {
    var digit = function (c) { return c >= "0" && c <= "9"; };
    var word = function (c) { return digit(c) || (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_"; };
    for (var i = 0; i < s.length; i++) {
      if (s.charAt(i) !== "0" || (i > 0 && (word(s.charAt(i - 1)) || s.charAt(i - 1) === "."))) { continue; }
      var j = i + 1;
      if (j + 1 < s.length && s.charAt(j) === "." && s.charAt(j + 1) === "0") {
        for (j++; j < s.length && s.charAt(j) === "0"; j++) { /* the zeros of 0.00 */ }
      }
      if (j === s.length) { return true; }
      if (s.charAt(j) === ".") {
        if (j + 1 === s.length || " \t\n\f\r".indexOf(s.charAt(j + 1)) >= 0) { return true; }
      } else if (!word(s.charAt(j))) {
        return true;
      }
    }
    return false;
  }
  function blank(s) {
    for (var i = 0; i < s.length; i++) { var c = s.charAt(i); if (c !== " " && c !== "\t" && c !== "\r" && c !== "\v" && c !== "\f") { return false; } }
    return true;
  }
  X.watchHang = function (raw) {
    var h = this.sym.hang;
    if (!h.watch || blank(raw)) { return; }
    if (!containsAny(raw, QUIET) || containsAny(raw, TEARDOWN)) { h.watch = false; }
  };
  X.symptomLine = function (s, n, raw) {
    var y = this.sym, m;
    if (y.smi.next !== "") {
      var next = y.smi.next;
      y.smi.next = "";
      if ((m = RE.smiTotal.exec(s))) { this.smiTotal(next, parseInt(m[1], 10), n, raw); return true; }
    }
    if (y.setpci.next && s !== "") {
      // A loop prints one word per port, after sudo's prompt.
      if (s.indexOf("[sudo] password") === 0) { return true; }
      y.setpci.next = false;
      if (RE.hexWord.test(s)) {
        y.setpci.next = true;
        mark(y.setpci.any, n, raw);
        if (parseInt(s, 16) & 0x000c) { mark(y.setpci.redirect, n, raw); }
        return true;
      }
    }
    return false;
  };
  X.smiTotal = function (section, v, n, raw) {
    var y = this.sym.smi;
    if (section === "FB Memory Usage") { y.fb = v; return; }
    if (!y.anyBAR1 || v < y.bar1) { y.bar1 = v; y.bar1Ev = { set: true, line: n, text: raw }; }
    y.anyBAR1 = true;
    if (y.fb > 0) { y.matched = true; if (v < y.fb) { mark(y.small, n, raw); } }
    y.fb = 0;
  };
  X.symptomScan = function (s, n, raw) {
    var y = this.sym;
    if (s === "FB Memory Usage" || s === "BAR1 Memory Usage") { y.smi.next = s; }
    if (armsHang(s)) { var h = y.hang; h.watch = true; h.init.set = true; h.init.line = n; h.init.text = raw; }
    if ((s.indexOf("waiving test") >= 0 || s.indexOf("Waiving device_to_device") === 0) && RE.waived.test(s)) { mark(y.waived, n, raw); }
    if (s.indexOf("Mismatched elements: ") === 0 && RE.mismatch.test(s)) { mark(y.mismatch, n, raw); }
    if (s.indexOf(" absolute difference") >= 0) {
      var ad = RE.absDiff.exec(s);
      if (ad && parseFloat(ad[1]) < CLOSE_LIMIT) { mark(y.close, n, raw); }
    }
    if (y.tensors.open.set || s.indexOf("tensor(") >= 0 || s.indexOf("device='cuda:") >= 0) { this.tensorLine(s, n, raw); }
    if (s.indexOf("BAR 1: current size: ") >= 0) { var b = s; while (b.charAt(0) === "`") { b = b.slice(1); } if (b.indexOf("BAR 1: current size: ") === 0) { this.rebarLine(b, n, raw); } }
    if (containsAny(s, T.words.setpciACS) && RE.setpciACS.test(s)) { y.setpci.next = true; }
    this.ncclTestLine(s, n, raw);
    this.busbwLine(s, n, raw);
  };
  X.ncclTestLine = function (s, n, raw) {
    var t = this.sym.nt, m, f, i;
    if (s.charAt(0) === "#" && s.indexOf("#wrong") >= 0) {
      f = fields(s);
      t.wrongCols = [];
      for (i = 1; i < f.length; i++) { if (f[i] === "#wrong") { t.wrongCols.push(i - 1); } }
      mark(t.header, n, raw);
      return;
    }
    if (s.indexOf("Out of bounds values") >= 0 && (m = RE.oob.exec(s))) {
      if (!t.oob.set) { t.oobN = trimNum(m[1]); }
      mark(t.oob, n, raw);
      return;
    }
    if (s.indexOf("Avg bus bandwidth") >= 0 && (m = RE.busbw.exec(s))) {
      if (!t.busbw.set) { t.busbwV = m[1]; }
      mark(t.busbw, n, raw);
      return;
    }
    if (!t.wrongCols.length || !containsAny(s, TEST_TYPES)) { return; }
    f = fields(s);
    if (f.length !== t.wrongCols[t.wrongCols.length - 1] + 1 || !isDigits(f[0])) { return; }
    t.rows++;
    var bad = 0;
    t.wrongCols.forEach(function (c) { if (isDigits(f[c])) { var w = parseInt(f[c], 10); if (w > 0) { bad += Math.min(w, 1 << 30); } } });
    if (bad > 0) { t.wrong = Math.min(t.wrong + bad, 1 << 30); mark(t.firstBad, n, raw); }
  };
  function mib(num, unit) {
    if (!isDigits(num)) { return 0; }
    var v = parseInt(num, 10);
    if (v > (1 << 20)) { return 0; }
    if (unit === "GB") { return v * 1024; }
    if (unit === "TB") { return v * 1024 * 1024; }
    return unit === "MB" ? v : 0;
  }
  X.rebarLine = function (s, n, raw) {
    var m = RE.rebar.exec(s);
    if (!m) { return; }
    var cur = mib(m[1], m[2]);
    if (cur <= 0) { return; }
    var r = this.sym.rebar, most = 0;
    if (!r.ev.set || cur < r.mib) { r.mib = cur; r.ev = { set: true, line: n, text: raw }; }
    fields(m[3] || "").forEach(function (f) { if (f.length > 2) { most = Math.max(most, mib(f.slice(0, -2), f.slice(-2))); } });
    if (cur < most || cur <= 256) { mark(r.small, n, raw); }
  };
  // tensorLine mirrors symptoms.go: a tensor on one line or over several.
  var RECENT_TENSORS = 8, MAX_TENSOR_TEXT = 4000;
  X.tensorLine = function (s, n, raw) {
    var m, t = this.sym.tensors;
    if ((m = RE.tensor.exec(s))) { t.open.set = false; this.tensorPrinted(m[1], m[2], n, raw); return; }
    if (t.open.set) {
      if ((m = RE.tensorEnd.exec(s)) && t.open.text.length + m[1].length <= MAX_TENSOR_TEXT) {
        t.open.set = false;
        this.tensorPrinted(t.open.text + m[1], m[2], t.open.line, t.open.raw);
        return;
      }
      if (n - t.open.line < 64 && t.open.text.length + s.length <= MAX_TENSOR_TEXT && RE.tensorRow.test(s)) { t.open.text += s; return; }
      t.open.set = false;
    }
    if (s.indexOf("tensor(") >= 0 && (m = RE.tensorStart.exec(s))) { t.open = { set: true, line: n, raw: raw, text: m[1] }; }
  };
  X.tensorPrinted = function (values, dev, n, raw) {
    var d = parseInt(dev, 10), y = this.sym.tensors;
    if (d >= MAX_GPUS) { return; }
    var v = values.split(" ").join("").replace(/,+$/, ""), elems = v.split(",").length;
    if (!containsAny(v, ["1", "2", "3", "4", "5", "6", "7", "8", "9"])) {
      for (var o = 0; o < MAX_GPUS; o++) {
        if (o !== d && y.nonzero[o] === elems + 1) { mark(y.zeros, n, raw); return; }
      }
      return;
    }
    y.nonzero[d] = elems + 1;
    if (y.recent.length === RECENT_TENSORS) { y.recent.shift(); }
    y.recent.push({ dev: d, values: v, ev: { set: true, line: n, text: raw } });
    if (y.differs.set) { return; }
    var r = y.recent, commas = function (x) { return x.split(",").length; };
    for (var i = 0; i < r.length; i++) {
      for (var j = i + 1; j < r.length; j++) {
        if (r[j].dev === r[i].dev || r[j].values !== r[i].values) { continue; }
        for (var k = i + 1; k < r.length; k++) {
          if (k !== j && r[k].dev === r[j].dev && r[k].values !== r[i].values && commas(r[k].values) === commas(r[i].values)) { y.differs = r[k].ev; return; }
        }
      }
    }
  };
  X.symptomFacts = function () {
    var y = this.sym, t = y.nt;
    if (t.oob.set) { this.setEvent("nccl.tests.wrong", "num", t.oobN, 2, t.oob, "nccl-tests"); }
    else if (t.wrong > 0) { this.setEvent("nccl.tests.wrong", "num", String(t.wrong), 1, t.firstBad, "nccl-tests"); }
    else if (t.rows > 0) { this.setEvent("nccl.tests.wrong", "num", "0", 1, t.header, "nccl-tests"); }
    this.setEvent("nccl.tests.busbw", "num", t.busbwV, 1, t.busbw, "nccl-tests");
    this.busbwFacts();
    this.setEvent("p2p.waived", "bool", "true", 1, y.waived, "CUDA P2P test");
    if (y.mismatch.set && y.close.set) {
      this.setEvent("output.close", "bool", "true", 2, y.close, "array check");
      this.setEvent("output.wrong", "bool", "false", 2, y.close, "array check");
    } else {
      this.setEvent("output.wrong", "bool", "true", 2, y.mismatch, "array check");
      this.setEvent("p2p.test.data_ok", "bool", "false", 0, y.mismatch, "array check");
    }
    if (y.smi.anyBAR1) {
      this.setEvent("gpu.bar1_mib", "num", String(y.smi.bar1), 1, y.smi.bar1Ev, "nvidia-smi -q");
      if (y.smi.small.set || y.smi.matched) {
        this.setEvent("gpu.bar1_small", "bool", String(y.smi.small.set), 1, y.smi.small.set ? y.smi.small : y.smi.bar1Ev, "nvidia-smi -q");
      }
    }
    if (y.rebar.ev.set) {
      this.setEvent("gpu.bar1_mib", "num", String(y.rebar.mib), 1, y.rebar.ev, "lspci");
      this.setEvent("gpu.bar1_small", "bool", String(y.rebar.small.set), 1, y.rebar.small.set ? y.rebar.small : y.rebar.ev, "lspci");
    }
    if (y.hang.watch) { this.setEvent("nccl.stopped_after_init", "bool", "true", 1, y.hang.init, "NCCL"); }
    this.setEvent("p2p.copy_zeros", "bool", "true", 1, y.tensors.zeros, "PyTorch");
    this.setEvent("acs.redirect", "bool", String(y.setpci.redirect.set), 2, y.setpci.redirect.set ? y.setpci.redirect : y.setpci.any, "setpci");
  };

  // The nccl-tests bandwidth reader mirrors nccltests.go.
  var GPU_WORDS = T.words.testGPU, BUSBW_PEAK_BYTES = 64 * 1024 * 1024;
  X.busbwLine = function (s, n, raw) {
    if (s.indexOf("busbw") >= 0 && s.indexOf("algbw") >= 0) { this.busbwHeader(fields(s.charAt(0) === "#" ? s.slice(1) : s)); return; }
    if (this.sym.bb.cols.length > 0 && containsAny(s, TEST_TYPES)) { this.busbwRow(fields(s), n, raw); return; }
    this.busbwScan(s, n, raw);
  };
  X.busbwHeader = function (f) {
    var b = this.sym.bb;
    b.cols = []; b.size = -1;
    for (var i = 0; i < f.length; i++) {
      if (f[i] === "busbw") { b.cols.push(i); } else if ((f[i] === "size" || f[i] === "bytes") && b.size < 0) { b.size = i; }
    }
    b.width = f.length;
    if (b.size !== 0) { b.cols = []; }
  };
  X.busbwRow = function (f, n, raw) {
    var b = this.sym.bb;
    if (!b.cols.length || f.length > b.width + 2 || f.length <= b.cols[0] || !isDigits(f[b.size])) { return; }
    var size = parseFloat(f[b.size]);
    if (size >= b.most) { b.most = size; b.mostEv = { set: true, line: n, text: raw }; }
    for (var i = 0; i < b.cols.length; i++) {
      var c = b.cols[i];
      if (c >= f.length) { break; }
      if (!isDecimal(f[c])) { continue; }
      var v = parseFloat(f[c]);
      if (v > b.peak || !b.peakEv.set) { b.peak = v; b.peakEv = { set: true, line: n, text: raw }; }
    }
  };
  X.busbwScan = function (s, n, raw) {
    var b = this.sym.bb, m;
    if (s.indexOf("Rank ") >= 0 && (m = RE.testRank.exec(s))) {
      b.ranks++;
      if (b.hosts.length < 2 && (b.hosts.length === 0 || b.hosts[0] !== m[1])) { b.hosts.push(m[1]); }
      if (!b.nameEv.set) { b.name = m[2].trim(); b.nameEv = { set: true, line: n, text: raw }; }
      return;
    }
    if (!b.nameEv.set && containsAny(s, GPU_WORDS) && (m = RE.smiName.exec(s))) {
      b.name = firstGroup(m).trim(); b.nameEv = { set: true, line: n, text: raw };
    }
  };
  function isAlnum(c) { return /[0-9A-Za-z]/.test(c); }
  function hasWord(s, w) {
    for (var i = s.indexOf(w); i >= 0; i = s.indexOf(w, i + 1)) {
      var end = i + w.length;
      if ((i === 0 || !isAlnum(s.charAt(i - 1))) && (end === s.length || !isAlnum(s.charAt(end)))) { return true; }
    }
    return false;
  }
  function perLink(name) {
    if (containsAny(name, ["B200", "B300", "B100"])) { return 50; }
    if (containsAny(name, ["3090", "A6000", " A40"])) { return 14.0625; }
    return 25;
  }
  function modelLink(name) {
    var u = name.toUpperCase();
    var pcie = function (gen) { return { gbs: PCIE_LANE[gen] * 16, nvlink: false, what: "PCIe Gen" + gen + " x16" }; };
    var nv = function (links, per) { return { gbs: links * per, nvlink: true, what: links + " NVLinks" }; };
    var isPCIe = u.indexOf("PCIE") >= 0 || u.indexOf(" NVL") >= 0, sxm = u.indexOf("SXM") >= 0;
    if (containsAny(u, ["B200", "B300", "B100"])) { return nv(18, 50); }
    if (containsAny(u, ["H100", "H200", "H20", "H800"]) && isPCIe) { return pcie(5); }
    if (u.indexOf("H800") >= 0) { return nv(8, 25); }
    if (containsAny(u, ["H100", "H200", "GH200"]) || hasWord(u, "H20")) { return nv(18, 25); }
    if (containsAny(u, ["A100", "A800"]) && sxm) { return u.indexOf("A800") >= 0 ? nv(8, 25) : nv(12, 25); }
    if (containsAny(u, ["A100", "A800"]) && isPCIe) { return pcie(4); }
    if (u.indexOf("V100") >= 0 && sxm) { return nv(6, 25); }
    if (containsAny(u, ["V100", "P100", "2080"]) && !sxm || hasWord(u, "T4") || hasWord(u, "P40")) { return pcie(3); }
    if (containsAny(u, ["5090", "RTX PRO"])) { return pcie(5); }
    if (containsAny(u, ["4090", "3090", "A6000", "6000 ADA", "L40"]) || hasWord(u, "A40") || hasWord(u, "A30") || hasWord(u, "A10") || hasWord(u, "L4")) { return pcie(4); }
    return null;
  }
  X.busbwLink = function () {
    var b = this.sym.bb, l = this.link, g = this.f["gpu.count"];
    if (g && l.nvSet && g.source === "nvidia-smi topo -m") {
      var gpus = parseInt(g.value, 10), least = 0, e = null;
      for (var i = 0; i < gpus && i < MAX_GPUS; i++) {
        var sum = 0, most = 0;
        for (var j = 0; j < gpus && j < MAX_GPUS; j++) {
          if (i === j) { continue; }
          if (l.nv[i][j] === 0) { least = -1; break; }
          sum += l.nv[i][j]; most = Math.max(most, l.nv[i][j]);
        }
        if (least < 0) { break; }
        var links = sum > 18 ? most : sum;
        if (least === 0 || links < least) { least = links; e = l.nvRow[i]; }
      }
      if (least > 0 && gpus > 1) {
        var per = perLink(b.name);
        return { gbs: least * per, nvlink: true, what: "nvidia-smi topo -m (" + least + " NVLinks a GPU, " + per + " GB/s each)", ev: e };
      }
    }
    if (b.nameEv.set) {
      var m = modelLink(b.name);
      if (m) { m.what = "GPU name (" + b.name + ": " + m.what + ")"; m.ev = b.nameEv; return m; }
    }
    if (l.gen > 0 && l.wid > 0) { return { gbs: PCIE_LANE[l.gen] * l.wid, nvlink: false, what: "nvidia-smi -q (PCIe Gen" + l.gen + " x" + l.wid + ")", ev: l.widEv }; }
    return null;
  };
  X.busbwFacts = function () {
    var b = this.sym.bb, t = this.sym.nt;
    if (!b.peakEv.set || b.ranks === 1 || t.wrong > 0 || t.oob.set && t.oobN !== "0") { return; }
    this.setEvent("nccl.tests.busbw_peak", "num", String(b.peak), 1, b.peakEv, "nccl-tests");
    if (b.hosts.length > 1) { return; }
    if (b.most < BUSBW_PEAK_BYTES) { this.setEvent("nccl.tests.small_sizes", "bool", "true", 1, b.mostEv, "nccl-tests"); return; }
    var k = this.busbwLink();
    if (!k || !(k.gbs > 0)) { return; }
    this.setEvent("nccl.tests.link_gbs", "num", String(k.gbs), 1, k.ev, k.what);
    this.setEvent("nccl.tests.nvlink", "bool", String(k.nvlink), 1, k.ev, k.what);
    this.setEvent("nccl.tests.busbw_pct", "num", String(Math.floor(b.peak / k.gbs * 100 + 0.5)), 1, b.peakEv, "nccl-tests busbw against the link");
  };

  // The prose readers mirror prose.go.
  var CONSUMER_WORDS = T.words.consumer, HANG_WORDS = T.words.hang, INIT_WORDS = T.words.init, DIST_WORDS = T.words.dist, WRONG_WORDS = T.words.wrong, MIG_WORDS = T.words.mig, VM_WORDS = T.words.vm,
    CONTAINER_WORDS = T.words.containers, P2P_INTENT_WORDS = T.words.p2pIntent, AMD_WORDS = T.words.amd,
    SOCKET_WORDS = T.words.sockets, SLOW_WORDS = T.words.slow, SHM_WORDS = T.words.shm, FM_WORDS = T.words.fm, NVLS_WORDS = T.words.nvls,
    WINDOWS_WORDS = T.words.windows, WIN_LAUNCH_WORDS = T.words.winLaunch,
    BW_FIGURE_WORDS = T.words.bwFigure, BW_CARRIER_WORDS = T.words.bwCarrier, ACS_WORDS = T.words.acs, IOMMU_WORDS = T.words.iommu;
  // grubIOMMUOn mirrors prose.go's: the options of GRUB's command line turn translation on.
  function grubIOMMUOn(m) {
    var on = false, re = new RegExp(RE.grubArg.source, "g"), a;
    while ((a = re.exec(m))) {
      var name = a[1], val = a[2].toLowerCase();
      if (val === "on" || val === "force_enable" || val === "force") { on = on || name !== "iommu.passthrough"; }
      else if (val === "off" || val === "pt" || val === "soft" || name === "iommu.passthrough" && (val === "1" || val === "y")) { return false; }
    }
    return on;
  }
  // utf8Window is s from near UTF-8 bytes before i to near bytes after j
  // (UTF-16 indexes), as prose.go slices its bytes.
  var CLOSE_NEAR = T.closeNear;
  function utf8Len(c) { return c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xD800 && c <= 0xDFFF ? 2 : 3; }
  function utf8Window(s, i, j, near) {
    var a = i, b = j, n = 0;
    while (a > 0 && n < near) { a--; n += utf8Len(s.charCodeAt(a)); }
    for (n = 0; b < s.length && n < near; b++) { n += utf8Len(s.charCodeAt(b)); }
    return s.slice(a, b);
  }
  // issueForm mirrors prose.go's: the answer to NCCL's issue form's
  // question, the first line with text after it.
  var ISSUE_FORM = T.words.issueForm;
  X.issueForm = function (s, n, raw) {
    var p = this.prose, a = s.trim();
    if (p.form && a !== "") {
      p.form = false;
      if ((a === ISSUE_FORM[1] || a === ISSUE_FORM[2]) && !p.wrong.set) { mark(p.wrong, n, raw); }
      else if (a === ISSUE_FORM[3] && !p.hang.set) { mark(p.hang, n, raw); }
      else if (a === ISSUE_FORM[4] && !p.slow.set) { mark(p.slow, n, raw); }
    }
    if (s.indexOf(ISSUE_FORM[0]) >= 0) { p.form = true; }
  };
  X.proseLine = function (s, n, raw) {
    var p = this.prose;
    this.issueForm(s, n, raw);
    if ((!p.hang.set || !p.later.set || !p.first.set) && containsAny(s, HANG_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.hangWord.test(s) && (RE.hangWhere.test(s) || RE.hangIntro.test(s) || RE.hangLater.test(s) && RE.hangProgress.test(s)) && !RE.hangNot.test(s)) {
      if (!p.hang.set) {
        mark(p.hang, n, raw);
        p.atInit = p.atInit || containsAny(s, INIT_WORDS) && RE.initStage.test(s) && !RE.initNot.test(s);
        if (RE.hangIntro.test(s)) { p.introAt = n; }
      }
      if (!p.later.set && RE.hangLater.test(s)) { mark(p.later, n, raw); }
      if (!p.first.set && RE.hangFirst.test(s)) { mark(p.first, n, raw); }
    } else if (!p.hang.set && !p.hangBare.set && containsAny(s, HANG_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.hangBare.test(s) && !RE.hangNot.test(s) && !RE.hangBareNot.test(s)) {
      mark(p.hangBare, n, raw);
      if (!p.first.set && RE.hangFirst.test(s)) { mark(p.first, n, raw); }
    }
    if (!p.hang.set && containsAny(s, T.words.timeoutSaid) && s.indexOf("NCCL INFO") < 0 && RE.timeoutSaid.test(s) && !RE.timeoutNot.test(s)) { mark(p.hang, n, raw); }
    if (!p.hang.set && !p.hangBare.set && containsAny(s, T.words.spin) && RE.spinPower.test(s) && RE.spin.test(s)) { mark(p.hangBare, n, raw); }
    if (!p.atInit && containsAny(s, INIT_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.initLog.test(s)) { p.atInit = true; }
    if (!p.atInit && p.introAt > 0 && n > p.introAt && n - p.introAt <= T.introNear && s.indexOf("init_process_group") >= 0) { p.atInit = true; }
    if (!p.close.set && containsAny(s, T.words.close)) {
      var cm = RE.closeSaid.exec(s);
      if (cm && RE.closeTopic.test(utf8Window(s, cm.index, cm.index + cm[0].length, CLOSE_NEAR))) { mark(p.close, n, raw); }
    }
    if (!p.diverge.set && containsAny(s, T.words.diverge) && s.indexOf("NCCL INFO") < 0 && RE.ranksDiverge.test(s)) { mark(p.diverge, n, raw); }
    if (!p.elsewhere.set && containsAny(s, T.words.elsewhere) && s.indexOf("NCCL INFO") < 0 && RE.elsewhere.test(s)) { mark(p.elsewhere, n, raw); }
    if (!p.firstOnly.set && containsAny(s, T.words.firstOnly) && s.indexOf("NCCL INFO") < 0) {
      // The two halves may be said up to FIRST_ONLY_GAP lines apart (paste.firstOnlyGap).
      var ok = RE.firstOK.test(s), fails = RE.otherFails.test(s);
      if (ok && fails || RE.firstOnly.test(s)) { mark(p.firstOnly, n, raw); }
      else if (ok) { if (p.otherFail > 0 && n - p.otherFail <= FIRST_ONLY_GAP) { mark(p.firstOnly, n, raw); } p.firstOK = n; }
      else if (fails) { if (p.firstOK > 0 && n - p.firstOK <= FIRST_ONLY_GAP) { mark(p.firstOnly, n, raw); } p.otherFail = n; }
    }
    if (!p.mixed.set && containsAny(s, T.words.mixedDevices) && s.indexOf("NCCL INFO") < 0 && RE.mixedDevices.test(s)) { mark(p.mixed, n, raw); }
    if (!p.training.set && containsAny(s, T.words.training) && s.indexOf("NCCL INFO") < 0 && RE.training.test(s)) { mark(p.training, n, raw); }
    if (!p.loopback.set && containsAny(s, T.words.masterLoopback) && s.indexOf("NCCL INFO") < 0 && RE.masterLoopback.test(s)) { mark(p.loopback, n, raw); }
    if (!p.second.set && containsAny(s, T.words.secondJob) && containsAny(s, T.words.secondJobNouns) && s.indexOf("NCCL INFO") < 0 && RE.secondJob.test(s)) { mark(p.second, n, raw); }
    if (!p.nodeLocal.set && containsAny(s, T.words.nodeLocal) && s.indexOf("NCCL INFO") < 0 && RE.nodeLocal.test(s)) { mark(p.nodeLocal, n, raw); }
    if (!p.p2pOff.set && containsAny(s, T.words.p2pOff) && s.indexOf("NCCL INFO") < 0 && RE.p2pOff.test(s) && !RE.p2pOffNot.test(s)) { mark(p.p2pOff, n, raw); }
    if ((!p.oneNode.set || !p.multiFail.set) && containsAny(s, T.words.nodes) && s.indexOf("NCCL INFO") < 0) {
      if (!p.oneNode.set && RE.oneNodeOK.test(s)) { mark(p.oneNode, n, raw); }
      if (!p.multiFail.set && RE.multiNodeFail.test(s)) { mark(p.multiFail, n, raw); }
    }
    if (!p.riser.set && containsAny(s, T.words.riser) && s.indexOf("NCCL") < 0 && RE.riser.test(s) && !RE.riserNot.test(s)) { mark(p.riser, n, raw); }
    if (!p.lost.set && containsAny(s, T.words.gpuLost) && !containsAny(s, T.words.gpuLostSkip) && RE.gpuLost.test(s) && !RE.gpuLostNot.test(s)) { mark(p.lost, n, raw); }
    if (!p.oom.set && containsAny(s, T.words.oom) && !containsAny(s, T.words.oomSkip) && RE.oomSaid.test(s) && !RE.oomNot.test(s)) { mark(p.oom, n, raw); }
    if (containsAny(s, T.words.lossNaN) && s.indexOf("NCCL INFO") < 0 && RE.lossNaN.test(s) && !RE.lossNaNNot.test(s)) {
      if (!p.lossNaN.set) { mark(p.lossNaN, n, raw); }
      p.nanPairs = p.nanPairs || RE.nanPairs.test(s);
    }
    if (!p.lossZero.set && containsAny(s, T.words.lossZero) && (bareZero(s) || containsAny(s, T.words.zeroSaid)) && s.indexOf("NCCL INFO") < 0 && RE.lossZero.test(s)) { mark(p.lossZero, n, raw); }
    if (!p.zero2.set && containsAny(s, T.words.zero2) && RE.zero2.test(s)) { mark(p.zero2, n, raw); }
    if (!p.power.set && containsAny(s, T.words.hostReset) && s.indexOf("NCCL") < 0 && saidIn(s, RE.hostReset, RE.hostResetNot)) {
      mark(p.power, n, raw);
      p.powerGPUs = RE.bothGPUs.test(s);
    }
    if (!p.several && containsAny(s, T.words.several) && s.indexOf("NCCL INFO") < 0 && RE.severalGPUs.test(s)) { p.several = true; }
    if (!p.wrong.set && containsAny(s, WRONG_WORDS) && RE.wrongOut.test(s)) { mark(p.wrong, n, raw); }
    if (s.indexOf("^C") === 0 || s.indexOf("@^C") === 0 || s.indexOf("KeyboardInterrupt") >= 0) { mark(p.ctrlC, n, raw); }
    if (!p.dist && containsAny(raw, DIST_WORDS) && RE.distCall.test(raw)) { p.dist = true; }
    if (!p.mig.set && containsAny(s, MIG_WORDS) && RE.migProse.test(s) && !RE.placeNot.test(s)) { mark(p.mig, n, raw); }
    if (!p.mig2 && containsAny(s, MIG_WORDS) && RE.migNamed.test(s) && !containsAny(s, ["MIG M.", "MIG Mode", "NCCL INFO"])) { p.mig2 = true; }
    if (!p.vm.set && containsAny(s, VM_WORDS) && RE.vmProse.test(s) && !RE.placeNot.test(s)) { mark(p.vm, n, raw); }
    if (!p.cont.set && containsAny(s, CONTAINER_WORDS) && RE.containers.test(s) && !RE.containerNot.test(s)) { mark(p.cont, n, raw); }
    if (!p.p2p && containsAny(s, P2P_INTENT_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.p2pIntent.test(s)) { p.p2p = true; }
    if (!p.amd.set && containsAny(s, AMD_WORDS) && RE.amdCPU.test(s) && !RE.amdNot.test(s)) { mark(p.amd, n, raw); }
    if (!p.socks.set && containsAny(s, SOCKET_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.sockets.test(s) && !RE.socketsNot.test(s)) { mark(p.socks, n, raw); }
    if (!p.sock1.set && s.indexOf("Socket(s):") === 0 && RE.oneSocket.test(s)) { mark(p.sock1, n, raw); }
    if (!p.slow.set && containsAny(s, SLOW_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.slow.test(s) &&
      RE.slowWhere.test(s) && !RE.slowNot.test(s)) {
      // The run's speed: several GPUs no faster than one (scaling).
      if (!RE.slowComm.test(s) && RE.slowRun.test(s)) { if (!this.scale.fail.set) { mark(this.scale.fail, n, raw); } } else { mark(p.slow, n, raw); }
    }
    if (!p.shm.set && !p.dockerShm.set && s.indexOf("docker") >= 0 && s.slice(-1) !== "\\" &&
      RE.dockerGPURun.test(s) && RE.dockerMulti.test(s) && !RE.dockerShm.test(s)) { mark(p.dockerShm, n, raw); }
    if (!p.shm.set && containsAny(s, SHM_WORDS) && s.indexOf("NCCL INFO") < 0) {
      if (!p.bus.set && RE.busError.test(s)) { mark(p.bus, n, raw); }
      if (!p.lib && RE.shmLib.test(s)) { p.lib = true; }
      if (RE.shmSmall.test(s)) { mark(p.shm, n, raw); }
    }
    if (!p.nvls.set && containsAny(s, NVLS_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.nvlsZero.test(s)) { mark(p.nvls, n, raw); }
    if (!p.wsl && containsAny(s, WINDOWS_WORDS)) {
      var not = spans(RE.windowsNot, s);
      p.wsl = not.length > 0 && containsAny(s, ["WSL", "wsl", "Wsl"]);
      if (!p.wsl && !p.win.set && saidOutside(s, RE.windows, not)) { mark(p.win, n, raw); }
    }
    if (!p.multi && containsAny(s, WIN_LAUNCH_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.winLaunch.test(s)) { p.multi = true; }
    if (!p.bwFig.set && containsAny(s, BW_FIGURE_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.bwFigure.test(s)) { mark(p.bwFig, n, raw); }
    if (!p.bwCar && containsAny(s, BW_CARRIER_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.bwCarrier.test(s)) { p.bwCar = true; }
    if (!p.fm.set && containsAny(s, FM_WORDS)) {
      if (RE.fmHeader.test(s)) { p.fmAt = n; } else if (p.fmAt > 0 && n - p.fmAt <= 4 && RE.fmActive.test(s) || RE.fmExec.test(s)) { mark(p.fm, n, raw); }
    }
    if (!p.acs.set && containsAny(s, ACS_WORDS) && s.indexOf("NCCL INFO") < 0 && RE.acsOn.test(s) && !RE.acsNot.test(s)) { mark(p.acs, n, raw); }
    if (!p.iommu.set && containsAny(s, IOMMU_WORDS) && s.indexOf("NCCL INFO") < 0) {
      var g = RE.grubIOMMU.exec(s);
      if (g && g[0] !== "") { if (grubIOMMUOn(g[0])) { mark(p.iommu, n, raw); } }
      else if (RE.iommuSaid.test(s) && !RE.iommuNot.test(s)) { mark(p.iommu, n, raw); }
    }
    this.scalingLine(s, n, raw);
    this.noiseLine(s, n, raw);
    this.hangLineRead(s, n, raw);
  };
  // The hang said by the program that waited mirrors hangline.go.
  var HANG_LINE_WORDS = T.words.hangLine;
  function hangLine(line) {
    return containsAny(line, HANG_LINE_WORDS) && line.indexOf("NCCL INFO") < 0 && RE.hangLine.test(line) && !RE.hangLineNot.test(line);
  }
  // watchdogWork mirrors hangline.go: ranks whose watchdog lines wait at one
  // SeqNum in different collectives, or with different sizes where every
  // rank's input has one size, were not called alike.
  var SAME_SIZE = ["ALLREDUCE", "BROADCAST", "REDUCE", "ALLGATHER", "_ALLGATHER_BASE", "REDUCE_SCATTER", "_REDUCE_SCATTER_BASE"], MAX_WORKS = 256;
  function watchdogWork(p, s, n, raw) {
    var m = RE.watchdogWork.exec(s);
    if (!m || m[3] === "SEND" || m[3] === "RECV") { return; }
    var rank = m[1], seq = m[2], op = m[3], numel = m[4];
    if (!Object.prototype.hasOwnProperty.call(p.works, seq)) {
      if (p.nWorks < MAX_WORKS) { p.works[seq] = [rank, op, numel]; p.nWorks++; }
      return;
    }
    var f = p.works[seq];
    if (f[0] !== rank && (f[1] !== op || SAME_SIZE.indexOf(op) >= 0 && f[2] !== numel)) { mark(p.differ, n, raw); }
  }
  X.hangLineRead = function (s, n, raw) {
    if (!this.prose.hangLine.set && hangLine(s)) { mark(this.prose.hangLine, n, raw); }
    if (!this.prose.differ.set && s.indexOf("WorkNCCL(SeqNum=") >= 0) { watchdogWork(this.prose, s, n, raw); }
  };
  // The harmless messages said in words mirror noise.go.
  var PEER_ALREADY_WORDS = T.words.peerAlready, IBV_WARN_WORDS = T.words.ibvWarn, FABRIC_NS_WORDS = T.words.fabricNS,
    ERROR_COLUMN_WORDS = T.words.errorColumn, TESTS_NAMED_WORDS = T.words.testsNamed, NO_NCCL_SAID_WORDS = T.words.noNCCLSaid,
    SPLIT_MODE_WORDS = T.words.splitMode;
  X.noiseLine = function (s, n, raw) {
    var p = this.prose;
    if (s.indexOf("NCCL INFO") >= 0 || s.indexOf("NCCL WARN") >= 0) { return; }
    if (!p.peerAlready.set && containsAny(s, PEER_ALREADY_WORDS) && RE.peerAlready.test(s) && !RE.peerAlreadyNot.test(s)) { mark(p.peerAlready, n, raw); }
    if (!p.ibvWarn.set && containsAny(s, IBV_WARN_WORDS) && RE.ibvWarn.test(s)) { mark(p.ibvWarn, n, raw); }
    if (!p.fabricNS.set && containsAny(s, FABRIC_NS_WORDS) && RE.fabricNS.test(s)) { mark(p.fabricNS, n, raw); }
    if (!p.errorColumn.set && containsAny(s, ERROR_COLUMN_WORDS) && RE.errorColumn.test(s)) { mark(p.errorColumn, n, raw); }
    if (!p.noNCCL.set && containsAny(s, NO_NCCL_SAID_WORDS) && RE.noNCCLSaid.test(s)) { mark(p.noNCCL, n, raw); }
    if (!p.splitMode.set && containsAny(s, SPLIT_MODE_WORDS) && RE.splitMode.test(s)) { mark(p.splitMode, n, raw); }
    if (!p.splitTensor.set && containsAny(s, SPLIT_MODE_WORDS) && RE.splitTensor.test(s)) { mark(p.splitTensor, n, raw); }
    if (!p.testsNamed && containsAny(s, TESTS_NAMED_WORDS) && RE.testsNamed.test(s)) { p.testsNamed = true; }
    this.platformLine(s, n, raw);
  };
  // The platform readers mirror platform.go.
  var PLATFORM_WORDS = T.words.platform, PLATFORM_NAMES = T.words.platformNames;
  X.platformLine = function (s, n, raw) {
    var p = this.prose;
    if (p.ctr.set && p.wslSaid.set && p.vmSaid.set && p.share.set && p.iso.set || s.indexOf("NCCL INFO") >= 0 ||
      !containsAny(s, PLATFORM_WORDS) && !containsAny(s, PLATFORM_NAMES)) { return; }
    if (!p.ctr.set && saidOutside(s, RE.containerSaid, spans(RE.containerSaidNot, s))) { mark(p.ctr, n, raw); }
    if (!p.wslSaid.set && containsAny(s, ["WSL", "wsl", "Wsl", "Windows Subsystem", "windows subsystem"]) && RE.wslSaid.test(s) && (!RE.wslSaidNot.test(s) || RE.wslSuspect.test(s))) { mark(p.wslSaid, n, raw); }
    if (!p.vmSaid.set && RE.vmSaid.test(s) && !RE.placeNot.test(s) && !RE.vmSaidNot.test(s)) { mark(p.vmSaid, n, raw); }
    if (!p.share.set && RE.sharing.test(s) && !RE.sharingNot.test(s)) { mark(p.share, n, raw); }
    if (!p.iso.set && (RE.isolated.test(s) || RE.isolatedSaid.test(s)) && !RE.isolatedNot.test(s)) { mark(p.iso, n, raw); }
  };
  // The gates of proseGates (prose.go); the rows come from the table.
  var PROSE_GATES = {
    dist: function (x) { return x.prose.dist; },
    p2p: function (x) { return x.prose.p2p; },
    lib: function (x) { return x.prose.lib || x.nccl.firstChannel.set; },
    libOrDist: function (x) { return x.prose.lib || x.nccl.firstChannel.set || x.prose.dist; },
    bwCar: function (x) { return x.prose.bwCar; },
    nativeLaunch: function (x) {
      return (x.prose.dist || x.prose.multi) && !x.prose.wsl && !Object.prototype.hasOwnProperty.call(x.prio, "wsl");
    },
    noPassthrough: function (x) {
      var pt = x.f["iommu.passthrough"];
      return !pt || pt.value !== "true";
    },
    notTensorSplit: function (x) { return !x.prose.splitTensor.set; },
    notWSL: function (x) {
      return !x.prose.wsl && !Object.prototype.hasOwnProperty.call(x.prio, "wsl");
    },
    atInit: function (x) { return x.prose.atInit && !x.nccl.firstChannel.set && !x.sym.hang.init.set; },
    notAtInit: function (x) { return !x.prose.atInit; },
    nanNotPaired: function (x) { return !x.prose.nanPairs; },
    noHang: function (x) { return !x.f["hang.seen"] && !x.f["nccl.stopped_after_init"]; },
    oneNode: function (x) { return x.prose.oneNode.set; },
    powerGPUs: function (x) { return x.prose.powerGPUs || x.prose.several || x.prose.multi || x.prose.dist; },
    testsNoWrong: function (x) {
      var w = x.f["nccl.tests.wrong"];
      return x.prose.testsNamed && (!w || w.value === "0");
    }
  };

  // pathFacts mirrors prose.go's: beside a run said to be slow, whether the
  // path between the GPUs is shown.
  X.pathFacts = function () {
    var e = this.prose.slow, names = T.words.path, places = T.words.place, i, f;
    if (!e.set || this.f["perf.no_speedup"] || this.f["perf.dataparallel"] || this.f["llamacpp.split_mode"] || RE.slowRate.test(e.text)) { return; }
    if (RE.slowTopo.test(e.text)) { this.setEvent("topo.known", "bool", "true", 0, e, SAID); return; }
    for (i = 0; i < names.length; i++) {
      if ((f = this.f[names[i]])) { this.setEvent("topo.known", "bool", "true", 0, e, f.source); return; }
    }
    for (i = 0; i < places.length; i++) {
      if ((f = this.f[places[i]]) && f.value === "true") { this.setEvent("topo.known", "bool", "true", 0, e, f.source); return; }
    }
    if (this.prose.mig2) { this.setEvent("topo.known", "bool", "true", 0, e, SAID); return; }
    this.setEvent("topo.known", "bool", "false", 0, e, SAID);
  };

  // scaleFigures mirrors scaling.go: several GPUs more than N times slower
  // per iteration than one, or a rate that falls with more GPUs, say no
  // speed-up.
  function gpuCount(said) {
    var w = said.toLowerCase();
    if (w === "four") { return 4; }
    if (w === "eight") { return 8; }
    if (w === "" || w === "two") { return 2; }
    return parseInt(w, 10) || 0;
  }
  function slowerThan(f, one) {
    if (f.unit !== one.unit || f.gpus < 2) { return false; }
    if (f.unit === "s") { return f.value > one.value * 1.2; }
    return f.value > one.value * f.gpus;
  }
  function scaleFigures(c, s, n, raw) {
    var m;
    if (!c.one.unit) {
      if ((m = RE.scaleFigOne.exec(s))) { c.one = { value: parseFloat(m[1]), unit: m[2].toLowerCase(), gpus: 1 }; }
      else if ((m = RE.scaleSecOne.exec(s))) { c.one = { value: parseFloat(m[1]), unit: "s", gpus: 1 }; }
    }
    if (!c.many.unit) {
      if ((m = RE.scaleFigMulti.exec(s))) { c.many = { value: parseFloat(m[3]), unit: m[4].toLowerCase(), gpus: gpuCount((m[1] || "") + (m[2] || "")) }; }
      else if ((m = RE.scaleSecMulti.exec(s))) { c.many = { value: parseFloat(m[3]), unit: "s", gpus: gpuCount((m[1] || "") + (m[2] || "")) }; }
    }
    if (c.one.unit && slowerThan(c.many, c.one)) { mark(c.fail, n, raw); }
    var re = scaleRateAll(), i, f;
    re.lastIndex = 0;
    while ((m = re.exec(s)) && c.rates.length < MAX_RATES) {
      f = { value: parseFloat(m[5]), unit: rateUnit(m[6]), gpus: rateGPUs(m) };
      for (i = 0; i < c.rates.length; i++) {
        if (fewerFaster(f, c.rates[i]) || fewerFaster(c.rates[i], f)) { mark(c.fail, n, raw); return; }
      }
      c.rates.push(f);
    }
  }
  // rateUnit, rateGPUs and fewerFaster mirror scaling.go.
  var MAX_RATES = 8, SCALE_RATE_ALL = null;
  function scaleRateAll() {
    if (!SCALE_RATE_ALL) { SCALE_RATE_ALL = new RegExp(RE.scaleRate.source, RE.scaleRate.flags.replace("g", "") + "g"); }
    return SCALE_RATE_ALL;
  }
  function rateUnit(u) {
    u = u.toLowerCase();
    return u.indexOf("it") === 0 || u.indexOf("step") === 0 ? "it/s" : "/s";
  }
  function rateGPUs(m) {
    if (m[1]) { return 1; }
    if (m[2]) { return 2; }
    if (m[3]) { return parseInt(m[3], 10); }
    var w = m[4].toLowerCase();
    return w === "one" || w === "single" ? 1 : gpuCount(m[4]);
  }
  function fewerFaster(f, o) {
    if (f.unit !== o.unit || f.gpus < 1 || o.gpus <= f.gpus) { return false; }
    if (f.unit === "/s") { return o.value < f.value; }
    return o.value * o.gpus / f.gpus < f.value;
  }
  // The scaling reader mirrors scaling.go.
  var SCALE_WORDS = T.words.scale, SAME_GPU_WORDS = T.words.sameGPU, MAX_RANK_DEVS = 256;
  X.scalingLine = function (s, n, raw) {
    var c = this.scale;
    if (!c.same.set && containsAny(raw, SAME_GPU_WORDS)) { this.sameGPULine(s, n, raw); }
    if (!c.fail.set && containsAny(s, T.words.oneUsed) && s.indexOf("NCCL INFO") < 0 && RE.oneUsed.test(s)) { mark(c.fail, n, raw); }
    if (!c.metric.set && containsAny(s, T.words.metric) && s.indexOf("NCCL INFO") < 0) { metricLine(c, s, n, raw); }
    if (c.fail.set && c.dp || !containsAny(s, SCALE_WORDS) || s.indexOf("NCCL INFO") >= 0) { return; }
    var dp = RE.scaleDP.test(s);
    c.dp = c.dp || dp;
    if (c.fail.set || RE.scaleNot.test(s)) { return; }
    scaleFigures(c, s, n, raw);
    if (RE.scaleFail.test(s) && (dp || RE.scaleSelf.test(s) || RE.scaleMulti.test(s)) || dp && RE.scaleDPSlow.test(s)) { mark(c.fail, n, raw); }
  };
  // metricLine mirrors scaling.go's.
  function metricLine(c, s, n, raw) {
    var quality = containsAny(s, T.words.metricQuality), steps = containsAny(s, T.words.metricSteps);
    if (quality && RE.metricSaid.test(s) && !RE.metricSpeed.test(s) || steps && RE.metricSteps.test(s) && RE.scaleMulti.test(s)) { mark(c.metric, n, raw); return; }
    if (!quality) { return; }
    c.metricOne = c.metricOne || RE.metricOne.test(s);
    c.metricMany = c.metricMany || RE.metricMany.test(s);
    if (c.metricOne && c.metricMany) { mark(c.metric, n, raw); }
  }
  X.sameGPULine = function (s, n, raw) {
    var c = this.scale, m, d, i, o;
    if (s.indexOf("NCCL INFO") < 0) {
      if (RE.sameGPU.test(s) && !RE.sameGPUNot.test(s)) { mark(c.same, n, raw); c.from = SAID; }
      return;
    }
    if (Object.prototype.hasOwnProperty.call(c.read, raw) || c.nRead >= MAX_RANK_DEVS) { return; }
    c.read[raw] = true; c.nRead++;
    if (!(m = RE.rankDev.exec(raw))) { return; }
    d = { hostBus: m[1] + " " + m[5], pid: m[2], rank: m[3], nranks: m[4], comm: m[6] || "" };
    for (i = 0; i < c.devs.length; i++) {
      o = c.devs[i];
      if (o.hostBus === d.hostBus && o.rank !== d.rank && o.nranks === d.nranks &&
        (d.comm !== "" && o.comm === d.comm || d.comm === "" && o.comm === "" && o.pid !== d.pid)) { mark(c.same, n, raw); c.from = "NCCL"; return; }
    }
    c.devs.push(d);
  };
  X.scalingFacts = function () {
    var c = this.scale;
    this.setEvent("ranks.same_gpu", "bool", "true", 1, c.same, c.from);
    this.setEvent("train.metric_by_gpus", "bool", "true", 1, c.metric, SAID);
    this.setEvent(c.dp ? "perf.dataparallel" : "perf.no_speedup", "bool", "true", 1, c.fail, SAID);
  };
  X.proseFacts = function () {
    var x = this;
    T.proseFacts.forEach(function (f) {
      if (f[4] === "" || PROSE_GATES[f[4]](x)) { x.setEvent(f[0], "bool", "true", f[1], x.prose[f[3]], f[2]); }
    });
    this.setEvent("output.close", "bool", "true", 1, this.prose.close, SAID);
    this.setEvent("output.wrong", "bool", "false", 2, this.prose.close, SAID);
    if (!this.prose.socks.set) { this.setEvent("cpu.sockets", "bool", "false", 1, this.prose.sock1, "lscpu"); }
    this.scalingFacts();
  };

  // The version readers mirror versions.go.
  var NCCL_SAID_WORDS = T.words.ncclSaid, TORCH_SAID_WORDS = T.words.torchSaid, VERSION_MORE = RE.versionMore;
  function prioOf(x, name) { return Object.prototype.hasOwnProperty.call(x.prio, name) ? x.prio[name] : 0; }
  function versionCmp(a, b) {
    function parts(v) { return (v.split("+")[0].match(/\d+/g) || []).map(function (d) { return parseInt(d, 10); }); }
    var pa = parts(a), pb = parts(b);
    for (var i = 0; i < Math.max(pa.length, pb.length); i++) {
      var x = i < pa.length ? pa[i] : 0, y = i < pb.length ? pb[i] : 0;
      if (x !== y) { return x < y ? -1 : 1; }
    }
    return 0;
  }
  // single mirrors versions.go's: a line that names another version right after v gives none.
  function single(rest, v) {
    for (var i = 0; i < 4 && rest !== ""; i++) {
      var m = VERSION_MORE.exec(rest);
      if (!m) { return true; }
      if (versionCmp(m[1], v) !== 0) { return false; }
      rest = rest.slice(m[0].length);
    }
    return true;
  }
  X.versionProse = function (s, n, raw) {
    var m, v;
    if (containsAny(s, NCCL_SAID_WORDS) && s.indexOf("NCCL INFO") < 0 && s.indexOf("NCCL WARN") < 0) {
      if ((m = RE.ncclSaid.exec(s)) && prioOf(this, "nccl.version") < 1) {
        v = m[1] + "." + trimNum(m[2]) + "." + trimNum(m[3]);
        if (single(s.slice(m.index + m[0].length), v)) { this.set("nccl.version", "version", v, 0, n, raw, SAID); }
      }
      if ((m = RE.pipNCCLList.exec(s)) && prioOf(this, "python.nccl") < 1 && single(s.slice(m.index + m[0].length), m[1])) {
        this.set("python.nccl", "version", m[1], 0, n, raw, "pip");
      }
    }
    if (prioOf(this, "python.torch") < 1 && containsAny(s, TORCH_SAID_WORDS) && (m = RE.torchSaid.exec(s))) {
      var end = m.index + m[0].length;
      if (single(s.slice(end), m[1])) { this.set("python.torch", "version", m[1], 0, n, raw, SAID); }
    }
  };

  // storyLine mirrors verstory.go's: a version said to work set against
  // one said to fail, or the change that led to one.
  var STORY_WORDS = T.words.story, STORY_COMPONENTS = T.words.storyComponents, MAX_HALVES = 16, MAX_HALF_GAP = 12;
  function storyComponent(word) {
    var w = word.toLowerCase().split(/[ \t]+/).join(" ");
    for (var i = 0; i + 2 < STORY_COMPONENTS.length; i += 3) { if (STORY_COMPONENTS[i] === w) { return [STORY_COMPONENTS[i + 1], STORY_COMPONENTS[i + 2]]; } }
    return ["", ""];
  }
  function storyShape(comp, v, first) {
    var i = v.indexOf("."), major = i < 0 ? v : v.slice(0, i);
    if (comp === "driver") { return major.length === 3 && major.charAt(0) >= "3"; }
    if (comp === "llama.cpp" && i < 0) { return v.length >= 4; }
    var j = first.indexOf("."), fmajor = j < 0 ? first : first.slice(0, j);
    return i >= 0 && major === fmajor;
  }
  function storyPolarity(c) {
    if (RE.storyNone.test(c)) { return 0; }
    if (RE.storyNotWork.test(c)) { return -1; }
    if (RE.storyDenied.test(c) || RE.storyFix.test(c)) { return 1; }
    if (RE.storyBad.test(c)) { return -1; }
    if (RE.storyGood.test(c)) { return 1; }
    return 0;
  }
  // storyOutcome mirrors verstory.go's: what s says of the change at offset at.
  function storyOutcome(s, at) {
    var cuts = [0], re = global("storyCut"), mm, k;
    for (k = 0; k < 32 && (mm = re.exec(s)); k++) { cuts.push(mm.index + mm[0].length); if (mm[0] === "") { re.lastIndex++; } }
    cuts.push(s.length);
    var c = 0;
    while (c + 2 < cuts.length && at >= cuts[c + 1]) { c++; }
    if (RE.storyAdvice.test(s.slice(cuts[c], cuts[c + 1]))) { return 0; }
    var pol = 0;
    for (var i = c; pol === 0 && i <= c + 2 && i + 1 < cuts.length; i++) { pol = storyPolarity(s.slice(cuts[i], cuts[i + 1])); }
    return pol;
  }
  // groupAt is the offset in s of group g of match m (JavaScript gives the
  // match's start only): the group is the match's last occurrence of it.
  function groupAt(m, g) { return m.index + m[0].lastIndexOf(m[g]); }
  var STORY_INSTALL = T.words.storyInstall;
  function installedComponent(m) {
    for (var i = 1; i < m.length; i++) {
      var g = (m[i] || "").toLowerCase();
      if (g === "") { continue; }
      if (g.indexOf("nvidia-nccl") === 0 || g === "libnccl2") { return "nccl"; }
      if (g === "nvidia-driver" || g === "cuda-drivers") { return "driver"; }
      if (g === "cuda-toolkit") { return "cuda"; }
      if (g === "pytorch") { return "torch"; }
      if (g.indexOf("tensorrt") === 0) { return "tensorrt-llm"; }
      return g;
    }
    return "";
  }
  X.storyLine = function (s, n, raw) {
    var im;
    if (this.story.installed === "" && containsAny(s, STORY_INSTALL) && s.indexOf("NCCL INFO") < 0 && (im = RE.storyInstall.exec(s))) {
      this.story.installed = installedComponent(im);
    }
    if (this.story.ev.set || !containsAny(s, STORY_WORDS) || s.indexOf("NCCL INFO") >= 0) { return; }
    if (this.pendingStory(s, n)) { return; }
    if (!/[0-9]/.test(s)) { this.bareStory(s, n, raw); return; }
    var named = [], m, re, i, k;
    re = global("storyComp");
    for (k = 0; k < 8 && (m = re.exec(s)); k++) { named.push({ v: m[2], at: groupAt(m, 2), comp: storyComponent(m[1])[0] }); }
    re = global("storyDriver");
    for (k = 0; k < 4 && (m = re.exec(s)); k++) { var dv = m[1] || m[2]; named.push({ v: dv, at: m.index + m[0].indexOf(dv), comp: "driver" }); }
    var builds = [];
    re = global("storyBuild");
    for (k = 0; k < 8 && (m = re.exec(s)); k++) { builds.push({ v: m[1], at: groupAt(m, 1) }); named.push({ v: m[1], at: groupAt(m, 1), comp: "llama.cpp" }); }
    var comp = "", first = "", firstAt = s.length;
    named.forEach(function (v) {
      if (v.comp !== "" && v.at < firstAt && storyShape(v.comp, v.v, v.v)) { comp = v.comp; first = v.v; firstAt = v.at; }
    });
    if (comp === "") { if (!this.fromToStory(s, n, raw) && !this.anonStory(s, n, raw)) { this.bareStory(s, n, raw); } return; }
    var vers = [];
    re = global("storyVer");
    for (k = 0; k < 16 && (m = re.exec(s)); k++) {
      var v = m[1], at = groupAt(m, 1), owner = "";
      for (i = 0; i < named.length; i++) { if (named[i].at === at) { owner = named[i].comp; } }
      // Named with the component, a version is its in any major; said alone, only in the first's shape.
      if (owner === comp && storyShape(comp, v, v) || owner === "" && storyShape(comp, v, first)) { vers.push({ v: v, at: at }); }
    }
    if (comp === "llama.cpp") {
      builds.forEach(function (b) { vers.push(b); });
      vers.sort(function (a, b) { return a.at - b.at; });
    }
    var sides = storySides(s, vers), good = sides[0], bad = sides[1];
    var e = ev();
    mark(e, n, raw);
    if (good !== "" && bad !== "") { if (versionCmp(good, bad) === 0) { return; } }
    else if (good !== "" || bad !== "") {
      // One version and the change that led to it, or a release said to have regressed; a change said not to have cured it tells none.
      if (!RE.storyChange.test(s) && !(bad !== "" && bisected(s))) { this.storyHalf(comp, good, bad, e); return; }
      if (RE.storyUnfixed.test(s)) { return; }
    } else { this.pendChange(comp, s, e); return; }
    this.tellStory(comp, good, bad, e, e, e);
  };
  // pendChange and pendingStory mirror verstory.go's: a change between two
  // versions whose outcome the next line or two says.
  var MAX_PENDING_GAP = 2;
  X.pendChange = function (comp, s, e) {
    var c = fromToChange(s);
    if (!c || RE.storyAdvice.test(s)) { return; }
    this.story.pending = { component: comp, left: c.left, taken: c.taken, ev: e };
  };
  // fromToChange mirrors verstory.go's: the change from one version to another a line says.
  function fromToChange(s) {
    var m = RE.storyFromTo.exec(s);
    if (!m || !RE.storyChange.test(s)) { return null; }
    var left = m[1], taken = m[2];
    if (left.indexOf(".") < 0 || taken.indexOf(".") < 0 || versionCmp(left, taken) === 0) { return null; }
    return { left: left, taken: taken, takenAt: m.index + m[0].lastIndexOf(taken) };
  }
  X.pendingStory = function (s, n) {
    var p = this.story.pending;
    if (!p || n - p.ev.line > MAX_PENDING_GAP || RE.storyAnon.test(s)) { return false; }
    var pol = storyOutcome(s, 0);
    if (pol === 0 || RE.storyUnfixed.test(s)) { return false; }
    if (pol < 0) { this.tellStory(p.component, p.left, p.taken, p.ev, p.ev, p.ev); } else { this.tellStory(p.component, p.taken, p.left, p.ev, p.ev, p.ev); }
    return true;
  };
  // storySides mirrors verstory.go's: the version of vers that line s says
  // works and the one it says fails.
  function storySides(s, vers) {
    var re, m, k;
    var cuts = [0];
    re = global("storyCut");
    for (k = 0; k < 32 && (m = re.exec(s)); k++) { cuts.push(m.index + m[0].length); if (m[0] === "") { re.lastIndex++; } }
    cuts.push(s.length);
    function clause(at) { for (var j = 1; j < cuts.length; j++) { if (at < cuts[j]) { return j - 1; } } return cuts.length - 2; }
    function hasVer(c) { return vers.some(function (v) { return clause(v.at) === c; }); }
    var from = {};
    re = global("storyFromTo");
    for (k = 0; k < 4 && (m = re.exec(s)); k++) { from[m.index + m[0].indexOf(m[1], 4)] = true; }
    var good = "", bad = "";
    vers.forEach(function (v) {
      var c = clause(v.at), pol = storyPolarity(s.slice(cuts[c], cuts[c + 1]));
      if (pol === 0 && c + 2 < cuts.length && !hasVer(c + 1)) { pol = storyPolarity(s.slice(cuts[c + 1], cuts[c + 2])); }
      if (pol === 0 && c > 0 && !hasVer(c - 1)) { pol = storyPolarity(s.slice(cuts[c - 1], cuts[c])); }
      if (from[v.at]) { pol = -pol; }
      if (workedAt(s, v.at)) { pol = 1; }
      // A version the line has already said fails does not also work, nor the reverse.
      if (pol > 0 && good === "" && v.v !== bad) { good = v.v; } else if (pol < 0 && bad === "" && v.v !== good) { bad = v.v; }
    });
    return [good, bad];
  }
  // workedAt mirrors verstory.go's: the version at offset at said, right before it, to have worked.
  function workedAt(s, at) {
    var before = s.slice(Math.max(0, at - 64), at), m = RE.storyWorkedAt.exec(before);
    return !!m && !RE.storyWorkedNot.test(before.slice(0, m.index));
  }
  // anonPair mirrors verstory.go's: two versions said alone that can be two
  // releases of one program (one major, or three parts each).
  function anonPair(good, bad) {
    if (versionCmp(good, bad) === 0) { return false; }
    return good.split(".")[0] === bad.split(".")[0] || good.split(".").length >= 3 && bad.split(".").length >= 3;
  }
  // anonStory mirrors verstory.go's: versions said alone, of the program
  // the paste is about.
  X.anonStory = function (s, n, raw) {
    if (s.indexOf("|") >= 0) { return false; }
    var vers = [], re = global("storyAnon"), m, k;
    for (k = 0; k < 8 && (m = re.exec(s)); k++) {
      var before = s.slice(0, m.index + 1).replace(/ +$/, "");
      var end = groupAt(m, 1) + m[1].length;
      if (!RE.storyUnit.test(s.slice(end)) && !/[=≈~]$/.test(before)) { vers.push({ v: m[1], at: groupAt(m, 1) }); }
    }
    if (vers.length === 0) { return false; }
    var sides = storySides(s, vers), good = sides[0], bad = sides[1], e = ev();
    mark(e, n, raw);
    if (good !== "" && bad !== "") {
      if (!anonPair(good, bad)) { return false; }
      this.tellStory("", good, bad, e, e, e);
      return true;
    }
    if (good !== "" || bad !== "") {
      if (RE.storyChange.test(s)) { return false; }
      var named = this.namedHalf(good + bad, good !== "", n);
      if (named) { this.storyHalfAs(named.key, named.component, good, bad, e); return this.story.ev.set; }
      this.storyHalfAs("~" + (good + bad).split(".")[0], "", good, bad, e);
      return this.story.ev.set;
    }
    return false;
  };
  // fromToStory mirrors verstory.go's: a change between two versions of
  // a component left unnamed, and what it did.
  X.fromToStory = function (s, n, raw) {
    var c = fromToChange(s);
    if (!c) { return false; }
    var e = ev();
    mark(e, n, raw);
    var pol = storyOutcome(s, c.takenAt);
    if (pol === 0) { this.pendChange("", s, e); return false; }
    this.tellStory("", pol > 0 ? c.taken : c.left, pol > 0 ? c.left : c.taken, e, e, e);
    return true;
  };
  // bareStory mirrors verstory.go's: a story that names no version.
  var STORY_BARE = T.words.storyBare, STORY_BISECT = T.words.storyBisect;
  X.bareStory = function (s, n, raw) {
    if (!bisected(s) && !bareChange(s)) { return; }
    var e = ev();
    mark(e, n, raw);
    this.tellStory(lineComponent(s), "", "", e, e, e);
    this.story.bare = true;
  };
  // bisected and bareChange mirror verstory.go's.
  // bisected mirrors verstory.go's: advice before the finding says none.
  function bisected(s) {
    if (!containsAny(s, STORY_BISECT)) { return false; }
    var m = RE.storyBisect.exec(s);
    return !!m && !RE.storyAdvice.test(s.slice(0, m.index));
  }
  function bareChange(s) {
    if (!containsAny(s, STORY_BARE)) { return false; }
    var m = RE.storyBare.exec(s);
    return !!m && !RE.storyNotRelease.test(s) && storyOutcome(s, m.index) !== 0;
  }
  // lineComponent mirrors verstory.go's: the first component a line names.
  function lineComponent(s) {
    var re = global("storyCompWord"), k, mm;
    for (k = 0; k < 4 && (mm = re.exec(s)); k++) {
      // inPath: a component in another project's address is not the story's.
      var start = Math.max(s.lastIndexOf(" ", mm.index - 1), s.lastIndexOf("\t", mm.index - 1), s.lastIndexOf("(", mm.index - 1), s.lastIndexOf("<", mm.index - 1), s.lastIndexOf("[", mm.index - 1)) + 1;
      if (s.slice(start, mm.index).indexOf("/") >= 0) { continue; }
      var rest = s.slice(mm.index + mm[0].length).toLowerCase();
      if (rest.indexOf("-test") !== 0 && rest.indexOf("_test") !== 0) { return storyComponent(mm[1])[0]; }
    }
    return "";
  }
  X.tellStory = function (comp, good, bad, e, goodEv, badEv) {
    var fact = "";
    for (var i = 0; i + 2 < STORY_COMPONENTS.length; i += 3) {
      if (STORY_COMPONENTS[i + 1] === comp && (fact === "" || STORY_COMPONENTS[i] === comp)) { fact = STORY_COMPONENTS[i + 2]; }
    }
    this.story = { ev: e, component: comp, fact: fact, good: good, bad: bad, goodEv: good !== "" ? goodEv : ev(), badEv: bad !== "" ? badEv : ev(), halves: [], installed: this.story.installed, pending: null };
  };
  // storyHalf mirrors verstory.go's: half a story told over lines.
  X.storyHalf = function (comp, good, bad, e) { this.storyHalfAs(comp, comp, good, bad, e); };
  // namedHalf mirrors verstory.go's: the half of a named component whose
  // other side is of v's major, said at most MAX_HALF_GAP lines before n.
  X.namedHalf = function (v, good, n) {
    var hs = this.story.halves, major = v.split(".")[0];
    for (var i = 0; i < hs.length; i++) {
      var other = good ? hs[i].bad : hs[i].good, oev = good ? hs[i].badEv : hs[i].goodEv;
      if (hs[i].component !== "" && other !== "" && other.split(".")[0] === major && n - oev.line <= MAX_HALF_GAP) { return hs[i]; }
    }
    return null;
  };
  X.storyHalfAs = function (key, comp, good, bad, e) {
    var hs = this.story.halves, h = null;
    for (var i = 0; i < hs.length; i++) { if (hs[i].key === key) { h = hs[i]; } }
    if (!h) {
      if (hs.length >= MAX_HALVES) { return; }
      h = { key: key, component: comp, good: "", bad: "", goodEv: ev(), badEv: ev() };
      hs.push(h);
    }
    if (good !== "" && (h.good === "" || e.line - h.goodEv.line > MAX_HALF_GAP)) { h.good = good; h.goodEv = e; }
    if (bad !== "" && (h.bad === "" || e.line - h.badEv.line > MAX_HALF_GAP)) { h.bad = bad; h.badEv = e; }
    if (h.good !== "" && h.bad !== "" && versionCmp(h.good, h.bad) !== 0 && Math.abs(h.goodEv.line - h.badEv.line) <= MAX_HALF_GAP) { this.tellStory(comp, h.good, h.bad, e, h.goodEv, h.badEv); }
  };
  X.storyFacts = function () {
    var st = this.story;
    if (!st.ev.set) { return; }
    this.setEvent(st.bare ? "version.changed" : "version.regression", "bool", "true", 1, st.ev, SAID);
    if (st.component === "") { st.component = st.installed; }
    if (st.component === "") { return; }
    this.setEvent("version.component", "str", st.component, 1, st.ev, SAID);
    if (st.good !== "") { this.setEvent("version.good", "version", st.good, 1, st.goodEv, SAID); }
    if (st.bad !== "") { this.setEvent("version.bad", "version", st.bad, 1, st.badEv, SAID); }
    if (st.fact === "") { return; }
    // A tool's reading stands (prio above 0) unless it shows the version said to work.
    var f = this.f[st.fact], p = prioOf(this, st.fact), showsGood = !!f && st.good !== "" && versionCmp(f.value, st.good) === 0;
    var badOK = st.bad !== "" && (st.fact !== "driver.version" || storyShape("driver", st.bad, st.bad));
    if (p > 0 && !(badOK && showsGood)) { return; }
    if (f && (st.bad !== "" || showsGood)) { delete this.f[st.fact]; delete this.prio[st.fact]; }
    if (badOK) { this.setEvent(st.fact, "version", st.bad, p, st.badEv, SAID); }
  };

  // impliedFacts mirrors implied.go's: the NCCL PyTorch's wheel requires.
  var TORCH_NCCL = T.words.torchNCCL;
  function impliedNCCL(v) {
    var i = v.indexOf("+"), local = i < 0 ? "" : v.slice(i + 1);
    if (i >= 0) { v = v.slice(0, i); }
    if (local !== "" && local.indexOf("cu") !== 0 || /[abdr]/.test(v)) { return ""; }
    var parts = v.split(".");
    if (parts.length < 2) { return ""; }
    var minor = parts[0] + "." + parts[1];
    for (var k = 0; k + 1 < TORCH_NCCL.length; k += 2) { if (TORCH_NCCL[k] === minor) { return TORCH_NCCL[k + 1]; } }
    return "";
  }
  X.impliedFacts = function () {
    var t = this.f["python.torch"];
    if (!t || this.f["nccl.version"] || this.f["python.nccl"] || this.story.ev.set && this.story.component === "torch") { return; }
    var nccl = impliedNCCL(t.value);
    if (nccl === "") { return; }
    var e = { set: true, line: t.line, text: t.text };
    this.setEvent("nccl.bundled", "version", nccl, 0, e, "PyTorch's wheel");
  };

  // gpuArchLine mirrors versions.go's: the architectures GPU names give.
  var GPU_NAME_WORDS = T.words.gpuName, GPU_ARCHS = [["ampere", RE.gpuAmpere], ["ada", RE.gpuAda], ["hopper", RE.gpuHopper], ["blackwell", RE.gpuBlackwell]];
  X.gpuArchLine = function (s, n, raw) {
    if (!containsAny(s, GPU_NAME_WORDS) || s.indexOf("NCCL INFO") >= 0) { return; }
    for (var i = 0; i < GPU_ARCHS.length; i++) {
      if ((this.gpuArch.seen & (1 << i)) === 0 && GPU_ARCHS[i][1].test(s)) { this.gpuArch.seen |= 1 << i; mark(this.gpuArch.first, n, raw); }
    }
    if (!this.gpuArch.dc.set && RE.gpuDataCentre.test(s)) { mark(this.gpuArch.dc, n, raw); }
  };
  X.gpuArchFacts = function () {
    var g = this.gpuArch, count = 0, last = -1;
    this.setEvent("gpu.consumer", "bool", "false", 0, g.dc, "GPU name");
    for (var i = 0; i < GPU_ARCHS.length; i++) { if (g.seen & (1 << i)) { count++; if (last < 0) { last = i; } } }
    if (count === 1) { this.setEvent("gpu.arch", "str", GPU_ARCHS[last][0], 0, g.first, "GPU name"); }
    else if (count > 1) { this.setEvent("gpu.arch", "str", "mixed", 0, g.first, "GPU name"); }
  };
  // cudaBuildLine mirrors cudabuild.go's: the CUDA of a build, and the
  // GPU's compute capability.
  var CUDA_BUILD_WORDS = T.words.cudaBuild, MAX_CUDA_BUILD = 8;
  function cudaOfTag(v) { return v.indexOf(".") >= 0 ? v : v.slice(0, -1) + "." + v.slice(-1); }
  function archOfCapability(major, minor) {
    var name = major === "8" && minor === "9" ? "ada" : major === "8" ? "ampere" : major === "9" ? "hopper" : major === "10" || major === "12" ? "blackwell" : "";
    for (var i = 0; i < GPU_ARCHS.length; i++) { if (GPU_ARCHS[i][0] === name) { return i; } }
    return -1;
  }
  X.cudaBuildLine = function (s, n, raw) {
    if (!containsAny(s, CUDA_BUILD_WORDS)) { return; }
    var m = RE.computeCap.exec(s);
    if (m) {
      var i = archOfCapability(m[1], m[2]);
      if (i >= 0 && (this.gpuArch.seen & (1 << i)) === 0) { this.gpuArch.seen |= 1 << i; mark(this.gpuArch.first, n, raw); }
    }
    if (this.cudaBuild >= MAX_CUDA_BUILD) { return; }
    if ((m = RE.cudaBuilt.exec(s))) { this.cudaBuild++; this.set("cuda.build", "version", cudaOfTag(firstGroup(m)), 2, n, raw, "build"); return; }
    if ((m = RE.cudaSaid.exec(s))) { this.cudaBuild++; this.set("cuda.build", "version", cudaOfTag(firstGroup(m)), 0, n, raw, SAID); }
  };
  // The custom all-reduce named, as customar.go reads it.
  var CUSTOM_AR_WORDS = T.words.customAR;
  X.customARLine = function (s, n, raw) {
    var c = this.car;
    if (c.named.set || !containsAny(s, CUSTOM_AR_WORDS) || !RE.customAR.test(s)) { return; }
    if (RE.customAROff.test(s) && !RE.customARWithout.test(s)) { return; }
    mark(c.named, n, raw);
    c.log = RE.customARLog.test(s);
  };
  X.customARFacts = function () { this.setEvent("allreduce.custom", "bool", "true", 1, this.car.named, this.car.log ? "log" : SAID); };

  // gpuLine reads what nvidia-smi -q and -L say of MIG and virtualization.
  X.gpuLine = function (s, n, raw) {
    var m;
    if (this.mig.next) {
      this.mig.next = false;
      if ((m = RE.migCurrent.exec(s))) { mark(this.mig.seen, n, raw); if (m[1] === "Enabled") { mark(this.mig.on, n, raw); } }
    }
    if (s === "MIG Mode") { this.mig.next = true; }
    if (s.indexOf("MIG ") === 0 && RE.migDevice.test(s)) { mark(this.mig.on, n, raw); }
    if (s.indexOf("|") === 0 && (s.indexOf("MIG devices") >= 0 || s.indexOf("MiB /") >= 0) && RE.migTable.test(s)) { mark(this.mig.on, n, raw); }
    if (s.indexOf("MIG-") >= 0 && RE.migVisible.test(s)) { mark(this.mig.on, n, raw); }
    if (s.indexOf("Virtualization Mode") === 0 && (m = RE.virtMode.exec(s))) {
      this.set("virtualized", "bool", String(m[1] !== "None"), 1, n, raw, "nvidia-smi");
    }
  };

  X.ncclLine = function (s, n, raw) {
    var m, c = this.nccl;
    if ((m = RE.ncclVersion.exec(s))) {
      if (s.indexOf("NCCL INFO") >= 0 || s.indexOf("NCCL WARN") >= 0) { this.set("nccl.version", "version", m[1], 2, n, raw, "NCCL"); }
      else if (single(s.slice(m.index + m[0].length), m[1])) { this.set("nccl.version", "version", m[1], 1, n, raw, "traceback"); }
    }
    if (s.indexOf("NCCL INFO") < 0 && s.indexOf("NCCL WARN") < 0) { return; }
    if ((m = RE.ncclDriver.exec(s))) { this.set("cuda.driver", "version", cudaInt(m[1]), 2, n, raw, "NCCL"); }
    if ((m = RE.ncclEnv.exec(s))) {
      var known = Object.prototype.hasOwnProperty.call(this.f, "env." + m[1]);
      if (known || this.envCount < MAX_ENV) {
        if (!known) { this.envCount++; }
        this.set("env." + m[1], "str", trimDot(m[2].trim()), 1, n, raw, "NCCL");
      }
    }
    if ((m = RE.channel.exec(s))) {
      mark(c.seen[{ P2P: 0, SHM: 1, NET: 2 }[m[1]]], n, raw); mark(c.firstChannel, n, raw);
      // The hosts that print channels tell whether NET joins GPUs of one host.
      if ((m = RE.ncclHost.exec(raw)) && c.hosts.length < 2 && (c.hosts.length === 0 || c.hosts[0] !== m[1])) { c.hosts.push(m[1]); }
    }
    if ((m = RE.nodes.exec(s)) && !c.nodesSeen) { c.nodes = parseInt(m[1], 10); c.nodesSeen = true; }
    if (RE.refused.test(s)) { mark(c.refused, n, raw); }
  };

  X.kernelLine = function (s, n, raw) {
    var m, self = this;
    if (s.indexOf("ACSCtl:") >= 0 && RE.acs.test(s)) {
      mark(this.acs.any, n, raw);
      if (RE.redirect.test(s)) { mark(this.acs.redirect, n, raw); }
    }
    if ((s.indexOf("AMD-Vi") >= 0 || s.indexOf("DMAR") >= 0) && (RE.amdFault.test(s) || RE.dmar.test(s))) {
      this.iommuFaults.n++; mark(this.iommuFaults.first, n, raw);
    }
    if ((m = RE.iommuOn.exec(s))) {
      this.set("iommu.enabled", "bool", "true", 1, n, raw, "dmesg");
      if (m[1]) { this.set("iommu.passthrough", "bool", String(m[1] === "Passthrough"), 2, n, raw, "dmesg"); }
    }
    if (s.indexOf("NVRM") >= 0) {
      if ((m = RE.xid.exec(s))) {
        this.xids.n++; mark(this.xids.first, n, raw);
        var id = parseInt(m[1], 10);
        if (id === 74 || (id >= 144 && id <= 150)) { mark(this.xidNVLink, n, raw); }
      }
      if ((m = RE.nvrm.exec(s))) { this.set("driver.version", "version", m[1], 1, n, raw, "dmesg"); }
    }
    // Only the NVSwitch driver prints an SXid: the host has NVSwitches.
    if (s.indexOf("SXid") >= 0 && RE.sxid.test(s)) { this.set("nvswitch.present", "bool", "true", 1, n, raw, "dmesg"); }
    if (s.indexOf("iommu") >= 0 || s.indexOf("BOOT_IMAGE=") === 0) {
      if ((m = RE.cmdline.exec(s))) {
        var a, re = global("iommuArg");
        while ((a = re.exec(m[1]))) { self.iommuArg(a[1], trimSet(a[2], "\"',").toLowerCase(), n, raw); }
      }
    }
    if (RE.wsl.test(s)) { this.set("wsl", "bool", "true", 1, n, raw, "host"); }
    if (RE.container.test(s)) { this.set("container", "bool", "true", 1, n, raw, "host"); }
    if (RE.slurm.test(s)) { this.set("slurm", "bool", "true", 1, n, raw, "host"); }
    if (s.indexOf("device_map") >= 0 && RE.modelSplit.test(s)) { this.set("model.split", "bool", "true", 1, n, raw, "program"); }
  };

  X.iommuArg = function (name, val, n, raw) {
    var src = "kernel command line";
    if ((name === "intel_iommu" && val === "on") || (name === "amd_iommu" && (val === "on" || val === "force_enable"))) {
      this.set("iommu.enabled", "bool", "true", 3, n, raw, src);
    } else if ((name === "intel_iommu" || name === "amd_iommu" || name === "iommu") && val === "off") {
      this.set("iommu.enabled", "bool", "false", 3, n, raw, src);
    } else if ((name === "iommu" && val === "pt") || (name === "iommu.passthrough" && (val === "1" || val === "y" || val === "on"))) {
      this.set("iommu.passthrough", "bool", "true", 3, n, raw, src);
    } else if ((name === "iommu" && val === "nopt") || (name === "iommu.passthrough" && (val === "0" || val === "n" || val === "off"))) {
      this.set("iommu.passthrough", "bool", "false", 3, n, raw, src);
    }
  };

  X.versionLine = function (s, n, raw) {
    var m;
    if (s.indexOf("Version") >= 0 || s.indexOf("version") >= 0) {
      if ((m = RE.driver.exec(s))) {
        if (m[1]) { this.set("cuda.driver", "version", cudaInt(m[2]), 1, n, raw, "nvbandwidth"); }
        else { this.set("driver.version", "version", m[2], 2, n, raw, "nvidia-smi"); }
      }
      if ((m = RE.smiCUDA.exec(s))) {
        this.set("cuda.driver", "version", m[1], 1, n, raw, "nvidia-smi");
        this.set("cuda.version", "version", m[1], 1, n, raw, "nvidia-smi");
      }
      if ((m = RE.envDriver.exec(s))) { this.set("driver.version", "version", m[1], 2, n, raw, "PyTorch collect_env"); }
      if ((m = RE.runtime.exec(s))) { this.set("cuda.version", "version", cudaInt(m[1]), 2, n, raw, "CUDA runtime"); }
    }
    if ((m = RE.nvcc.exec(s))) { this.set("cuda.version", "version", m[1], 3, n, raw, "nvcc"); }
    if ((m = RE.torch.exec(s))) { this.set("python.torch", "version", firstGroup(m), 1, n, raw, "PyTorch"); }
    if ((m = RE.tf.exec(s))) { this.set("python.tensorflow", "version", firstGroup(m), 1, n, raw, "TensorFlow"); }
    if ((m = RE.jax.exec(s))) { this.set("python.jax", "version", firstGroup(m), 1, n, raw, "JAX"); }
    if ((m = RE.jaxlib.exec(s))) { this.set("python.jaxlib", "version", firstGroup(m), 1, n, raw, "JAX"); }
    if ((m = RE.vllm.exec(s))) { this.set("python.vllm", "version", firstGroup(m), 1, n, raw, "vLLM"); }
    if ((m = RE.pipNCCL.exec(s))) { this.set("python.nccl", "version", m[1], 1, n, raw, "pip"); }
    if (!this.amdGPU.set && containsAny(s, T.words.amdGPU) && RE.amdGPU.test(s)) { mark(this.amdGPU, n, raw); }
    if (containsAny(s, CONSUMER_WORDS) && RE.consumer.test(s)) { mark(this.consumer, n, raw); }
    else if (RE.dataCentre.test(s)) { mark(this.dataCentre, n, raw); }
  };

  function startMatrix(s, n, raw) {
    if (s.indexOf("GPU0") !== 0) { return null; }
    var f = fields(s), k = 0;
    while (k < f.length && k < MAX_GPUS && f[k] === "GPU" + k) { k++; }
    if (k === 0 || (k < f.length && RE.gpuName.test(f[k]))) { return null; }
    var m = { n: k, mode: "", header: ev(), cells: grid(""), rowLine: [], rows: 0, topo: false, p2p: false };
    for (var i = 0; i < MAX_GPUS; i++) { m.rowLine.push(ev()); }
    mark(m.header, n, raw);
    return m;
  }

  X.matRow = function (s, n, raw) {
    var m = this.mat, f = fields(s);
    if (f.length === 0) { return false; }
    if (f[0].indexOf("NIC") === 0 || f[0].indexOf("mlx") === 0) { return true; }
    var g = RE.gpuName.exec(f[0]);
    if (!g || f.length < m.n + 1) { return false; }
    var i = parseInt(g[1], 10);
    if (i >= m.n) { return false; }
    for (var j = 0; j < m.n; j++) {
      var c = f[1 + j];
      m.cells[i][j] = c;
      if (c === "X") { continue; }
      if (RE.topoCell.test(c)) { m.topo = true; } else if (RE.p2pCell.test(c)) { m.p2p = true; }
    }
    mark(m.rowLine[i], n, raw);
    m.rows++;
    return true;
  };

  X.endMatrix = function () {
    var m = this.mat, i, j, c;
    this.mat = null;
    if (m.rows === 0 || m.topo === m.p2p) { return; }
    if (m.topo) {
      var src = "nvidia-smi topo -m", nv = ev(), sys = ev(), pairs = 0;
      this.setEvent("gpu.count", "num", String(m.n), 3, m.header, src);
      for (i = 0; i < m.n; i++) {
        for (j = 0; j < m.n; j++) {
          c = m.cells[i][j];
          if (c.indexOf("NV") === 0) { mark(nv, m.rowLine[i].line, m.rowLine[i].text); }
          if ((c === "SYS" || c === "SOC") && (i < j || m.cells[j][i] === "")) { pairs++; mark(sys, m.rowLine[i].line, m.rowLine[i].text); }
        }
      }
      for (i = 0; i < m.n; i++) {
        for (j = 0; j < m.n; j++) {
          c = m.cells[i][j];
          if (c.indexOf("NV") === 0 && isDigits(c.slice(2)) && parseInt(c.slice(2), 10) > 0) {
            this.link.nv[i][j] = parseInt(c.slice(2), 10); this.link.nvRow[i] = m.rowLine[i]; this.link.nvSet = true;
          }
        }
      }
      if (nv.set) { this.setEvent("nvlink.present", "bool", "true", 2, nv, src); }
      else if (m.n > 1) { this.setEvent("nvlink.present", "bool", "false", 2, m.header, src); }
      this.setEvent("topo.sys_pairs", "num", String(pairs), 2, sys.set ? sys : m.header, src);
      return;
    }
    if (trimSet(m.mode, "rw") !== "") { return; }
    var psrc = "nvidia-smi topo -p2p";
    this.setEvent("gpu.count", "num", String(m.n), 1, m.header, psrc);
    for (i = 0; i < m.n; i++) {
      for (j = 0; j < m.n; j++) {
        c = m.cells[i][j];
        if (i === j || c === "") { continue; }
        var ok = c === "OK";
        if (!ok && m.mode === "" && c !== "CNS" && c !== "GNS" && c !== "TNS") { continue; }
        this.addPair(i, j, ok, m.rowLine[i].line, m.rowLine[i].text, psrc);
      }
    }
  };

  var UNI_ON = 1, BI_ON = 3;
  X.bwLine = function (s, n, raw) {
    var t = this.bw, m;
    if (s.indexOf("GPU Bandwidth Latency Test") >= 0) { t.cur = -1; t.conn = false; return true; }
    if (s.indexOf("Device: ") === 0 && (m = RE.device.exec(s))) {
      var d = parseInt(m[1], 10);
      if (d + 1 > t.devices && d < MAX_GPUS) { t.devices = d + 1; }
      mark(t.devLine, n, raw);
      this.versionLine(s, n, raw);
      return true;
    }
    if (s.indexOf("P2P Connectivity Matrix") === 0) { t.cur = -1; t.conn = true; t.open = { set: true, line: n, text: raw }; return true; }
    if (s.indexOf("P2P=") === 0 && s.indexOf("Latency") >= 0) { t.cur = -1; t.conn = false; t.open = { set: true, line: n, text: raw }; return true; }
    if ((m = RE.bwTitle.exec(s))) {
      var k = (m[1] === "Bidirectional" ? 2 : 0) + (m[2] === "Enabled" ? 1 : 0);
      t.cur = k; t.conn = false; t.open = { set: true, line: n, text: raw };
      if (!t.mats[k]) { t.mats[k] = { v: grid(0), has: grid(false), line: [] }; for (var q = 0; q < MAX_GPUS; q++) { t.mats[k].line.push(ev()); } }
      mark(t.ran, n, raw);
      return true;
    }
    var f = fields(s);
    if (bwHeader(f)) {
      if (s.indexOf("CPU") === 0) { t.cur = -1; t.conn = false; }
      return true;
    }
    if (bwRow(f) && (t.cur >= 0 || t.conn)) {
      t.open = ev();
      var i = parseInt(f[0], 10);
      if (i >= MAX_GPUS) { return true; }
      var cells = f.slice(1);
      for (var j = 0; j < cells.length && j < MAX_GPUS; j++) {
        if (t.conn) {
          if (i !== j) { this.addPair(i, j, cells[j] === "1", n, raw, "p2pBandwidthLatencyTest"); }
          continue;
        }
        if (!isDecimal(cells[j]) && cells[j] !== "inf") { continue; }
        var v = cells[j] === "inf" ? Infinity : parseFloat(cells[j]), bm = t.mats[t.cur];
        t.figures = true;
        if (t.cur === 1) { this.linkFigure(i, j, v, n, raw); }
        if (!bm.has[i][j] || v < bm.v[i][j]) { bm.v[i][j] = v; bm.has[i][j] = true; }
        mark(bm.line[i], n, raw);
      }
      if (t.cur === UNI_ON || t.cur === BI_ON) { mark(t.onFirst, n, raw); }
      return true;
    }
    if (s === "" || s.indexOf("***NOTE") === 0 || s.indexOf("So you can see") === 0) { return true; }
    t.cur = -1; t.conn = false; t.open = ev();
    return false;
  };

  X.bwEnd = function () {
    var t = this.bw, src = "p2pBandwidthLatencyTest", slow = 0, compared = false, first = ev();
    this.setEvent("p2p.test.ran", "bool", "true", 2, t.ran, src);
    if (t.ran.set && !t.figures) { this.setEvent("hang.seen", "bool", "true", 1, t.open, src); }
    if (t.devices > 0) { this.setEvent("gpu.count", "num", String(t.devices), 2, t.devLine, src); }
    for (var i = 0; i < MAX_GPUS; i++) {
      for (var j = 0; j < MAX_GPUS; j++) {
        if (i === j || (this.pairs.seen[i][j] && this.pairs.blocked[i][j])) { continue; }
        var isSlow = false;
        [0, 2].forEach(function (k) {
          var off = t.mats[k], on = t.mats[k + 1];
          if (!off || !on || !off.has[i][j] || !on.has[i][j]) { return; }
          compared = true;
          if (on.v[i][j] <= off.v[i][j]) { isSlow = true; mark(first, on.line[i].line, on.line[i].text); }
        });
        if (isSlow) { slow++; }
      }
    }
    if (!compared) { return; }
    this.setEvent("p2p.test.slow_pairs", "num", String(slow), 1, first.set ? first : t.onFirst, src);
  };

  X.ncclFacts = function () {
    var c = this.nccl, p2p = c.seen[0], shm = c.seen[1], net = c.seen[2];
    if (!((c.nodesSeen && c.nodes === 1) || c.hosts.length === 1)) { net = ev(); }
    if (!p2p.set && !shm.set && !net.set) {
      if (c.refused.set) { this.setEvent("nccl.p2p_refused", "bool", "true", 1, c.refused, "NCCL"); }
      return;
    }
    if (p2p.set) { this.setEvent("nccl.p2p_used", "bool", "true", 1, p2p, "NCCL"); }
    else { this.setEvent("nccl.p2p_used", "bool", "false", 1, shm.set ? shm : net, "NCCL"); }
    if (net.set) { this.setEvent("nccl.transport", "str", "NET", 1, net, "NCCL"); }
    else if (shm.set) { this.setEvent("nccl.transport", "str", "SHM", 1, shm, "NCCL"); }
    else { this.setEvent("nccl.transport", "str", "P2P", 1, p2p, "NCCL"); }
    if (c.refused.set) { this.setEvent("nccl.p2p_refused", "bool", "true", 1, c.refused, "NCCL"); }
    else { this.setEvent("nccl.p2p_refused", "bool", "false", 1, c.firstChannel, "NCCL"); }
  };

  X.pairFacts = function () {
    var p = this.pairs, blocked = 0;
    if (!p.any) { return; }
    for (var a = 0; a < MAX_GPUS; a++) { for (var b = 0; b < MAX_GPUS; b++) { if (p.blocked[a][b]) { blocked++; } } }
    if (blocked > 0) {
      this.setEvent("p2p.all_pairs_ok", "bool", "false", 1, p.firstBlock, p.noSource);
      this.setEvent("p2p.blocked_pairs", "num", String(blocked), 1, p.firstBlock, p.noSource);
      return;
    }
    this.setEvent("p2p.all_pairs_ok", "bool", "true", 1, p.firstOK, p.okSource);
    this.setEvent("p2p.blocked_pairs", "num", "0", 1, p.firstOK, p.okSource);
  };

  // facts ends the input and returns the facts found, by line.
  X.facts = function () {
    if (this.mat) { this.endMatrix(); }
    if (this.bw) { this.bwEnd(); this.bw = null; }
    if (this.link.nvb || this.link.nvbHost) { this.nvbEnd(); }
    this.pairFacts();
    // A list that reaches GPU 1 counts its GPUs (paste.go).
    if (this.listed.most >= 1) { this.setEvent("gpu.count", "num", String(this.listed.most + 1), 1, this.listed.ev, "the GPUs the input lists"); }
    this.ncclFacts();
    this.symptomFacts();
    this.proseFacts();
    this.gpuArchFacts();
    this.customARFacts();
    this.linkFacts();
    this.storyFacts();
    this.impliedFacts();
    var s = this.simple;
    if (s.ran.set) { this.setEvent("p2p.test.ran", "bool", "true", 1, s.ran, "simpleP2P"); }
    if (s.verifyKO.set) { this.setEvent("p2p.test.data_ok", "bool", "false", 2, s.verifyKO, "simpleP2P"); }
    else { this.setEvent("p2p.test.data_ok", "bool", "true", 1, s.passed, "simpleP2P"); }
    this.setEvent("p2p.test.data_ok", "bool", "false", 0, this.sym.tensors.zeros, "PyTorch");
    if (!this.prose.dist) { this.setEvent("p2p.test.data_ok", "bool", "false", 0, this.sym.tensors.differs, "PyTorch"); }
    this.setEvent("p2p.test.data_ok", "bool", "false", 0, this.prose.wrong, SAID);
    this.setEvent("p2p.test.data_ok", "bool", "false", 0, this.prose.lossNaN, SAID);
    if (this.iommuFaults.n > 0) {
      this.setEvent("iommu.faults", "num", String(this.iommuFaults.n), 1, this.iommuFaults.first, "dmesg");
      this.setEvent("iommu.enabled", "bool", "true", 2, this.iommuFaults.first, "dmesg");
    }
    if (this.xids.n > 0) {
      this.setEvent("xid.count", "num", String(this.xids.n), 1, this.xids.first, "dmesg");
      this.setEvent("xid.nvlink", "bool", String(this.xidNVLink.set), 1, this.xidNVLink.set ? this.xidNVLink : this.xids.first, "dmesg");
    }
    this.setEvent("mig.enabled", "bool", String(this.mig.on.set), 1, this.mig.on.set ? this.mig.on : this.mig.seen, "nvidia-smi");
    this.setEvent("acs.redirect", "bool", String(this.acs.redirect.set), 1, this.acs.redirect.set ? this.acs.redirect : this.acs.any, "lspci");
    if (this.amdGPU.set) { this.setEvent("gpu.amd", "bool", "true", 1, this.amdGPU, "GPU name"); }
    this.setEvent("gpu.consumer", "bool", String(this.consumer.set), 1, this.consumer.set ? this.consumer : this.dataCentre, "GPU name");
    this.pathFacts();
    var f = this.f;
    return Object.keys(f).map(function (k) { return f[k]; }).sort(function (a, b) {
      return a.line - b.line || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    });
  };

  // extract reads a whole text.
  function extract(text) {
    var x = new Extractor(), lines = String(text).split("\n");
    if (lines.length && lines[lines.length - 1] === "") { lines.pop(); }
    for (var i = 0; i < lines.length; i++) { x.line(i + 1, lines[i]); }
    return x.facts();
  }

  // merge mirrors paste.Merge over p2pkbRules facts: the probe's win, and
  // each disagreement is listed. probe may be null.
  function merge(probe, pasted) {
    var R = window.p2pkbRules, f = {}, conflicts = [];
    pasted.forEach(function (p) {
      f[p.name] = R.fact(p.name, p.kind, p.value);
      // An NCCL_DEBUG=INFO log lists the NCCL_* variables set (paste.Facts).
      if (p.source === "NCCL") { R.listNCCLEnv(f); }
    });
    if (!probe) { return { facts: f, conflicts: conflicts }; }
    Object.keys(probe).forEach(function (k) { f[k] = probe[k]; });
    pasted.forEach(function (p) {
      var v = probe[p.name];
      if (!v && p.name === "nccl.version") { v = probe["python.nccl"]; }
      if (!v || !v.known) { return; }
      var text = v.kind === "bool" ? String(v.b) : String(v.s), same;
      if (v.kind === "version") { same = R.compareVersions(text, p.value) === 0; }
      else if (v.kind === "num") { same = parseFloat(text) === parseFloat(p.value); }
      else { same = text === p.value; }
      if (!same) { conflicts.push({ name: p.name, log: p.value, probe: text, line: p.line }); }
    });
    return { facts: f, conflicts: conflicts };
  }

  // symptoms mirrors the symptoms explain answers a paste with no error line
  // from (paste.Symptom): the facts of pasted that show something wrong by
  // themselves, their condition holding with the paste's facts, the most
  // telling first (the table's order, paste.SymptomRankIn: a change of
  // release said beside a hang ranks with version.regression), each as
  // {fact, cond, weak, explains, programFirst}.
  function symptoms(pasted) {
    var R = window.p2pkbRules, own = merge(null, pasted).facts, rank = {};
    T.symptoms.forEach(function (x, i) { rank[x[0]] = { i: i, cond: x[1], weak: x[2], saidOnly: x[3], explains: x[4], programFirst: x[5] }; });
    var hang = pasted.some(function (p) { return (p.name === "hang.seen" || p.name === "hang.said") && p.value === "true"; });
    function at(name) { return rank[name === "version.changed" && hang ? "version.regression" : name].i; }
    return pasted.filter(function (p) {
      var s = rank[p.name];
      if (s && s.saidOnly && p.source !== SAID) { return false; }
      try { return !!s && R.applies([], s.cond, own).truth === "applies"; } catch (e) { return false; }
    }).sort(function (a, b) { return at(a.name) - at(b.name); }).map(function (p) {
      var s = rank[p.name];
      return { fact: p, cond: s.cond, weak: s.weak, explains: s.explains, programFirst: s.programFirst };
    });
  }

  // spans are the [start, end) of every match of re in s, as Go's
  // FindAllStringIndex gives them.
  function spans(re, s) {
    var g = new RegExp(re.source, re.flags.indexOf("g") >= 0 ? re.flags : re.flags + "g"), out = [], m;
    while ((m = g.exec(s)) !== null) {
      out.push([m.index, m.index + m[0].length]);
      if (!m[0].length) { g.lastIndex++; }
    }
    return out;
  }
  // outcome mirrors paste.Outcome: the fact tells what a run did, not what
  // the machine is.
  function outcome(name) { return T.words.outcome.indexOf(name) >= 0; }
  // isSymptom mirrors paste.SymptomRank(name) >= 0: name is one of the
  // symptoms explain answers from.
  function isSymptom(name) { return T.symptoms.some(function (x) { return x[0] === name; }); }
  // beside mirrors paste.Beside: the symptom, told beside error lines that
  // entries name, answers before them.
  function beside(name) { return T.words.beside.indexOf(name) >= 0; }
  // pathFact mirrors paste.PathFact: fact name tells of the path between GPUs.
  function pathFact(name) { return T.words.path.indexOf(name) >= 0; }
  window.p2pkbPaste = { Extractor: Extractor, extract: extract, strip: strip, merge: merge, symptoms: symptoms, isSymptom: isSymptom, hangLine: hangLine, said: SAID, outcome: outcome,
    beside: beside, pathFact: pathFact };
})();
