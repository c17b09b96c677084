// p2pkb fleet in the browser: reads one p2p-probe report per node from
// chosen files, a folder or a tar archive, and folds them into the view
// internal/fleet gives `p2pkb fleet --json`: verdicts, failed and slow
// pairs, figures below their peers, versions that differ, and the entries
// whose conditions hold on some nodes only. Nothing leaves the browser.
(function () {
  "use strict";
  var MAX_REPORT = 1 << 20;        // facts.MaxSize: a larger file is no report
  var MAX_ARCHIVE = 1 << 30;       // an archive is read whole: refuse past 1 GiB unpacked
  var VERDICTS = ["unreadable", "no_nvml", "failed", "hung", "slow", "blocked", "untested", "ok"];
  var SPREADS = ["driver", "cuda", "cuda_toolkit", "nccl", "torch", "kernel", "os", "gpu", "iommu", "acs_redirect",
    "NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_IGNORE_DISABLED_P2P"];

  function worse(a, b) { return VERDICTS.indexOf(b) < VERDICTS.indexOf(a) ? b : a; }
  function str(v) { return typeof v === "string" ? v : ""; }
  function num(v) { return typeof v === "number" && isFinite(v) ? v : 0; }
  function arr(v) { return Array.isArray(v) ? v : []; }
  function obj(v) { return v !== null && typeof v === "object" && !Array.isArray(v) ? v : {}; }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }

  // nodeName mirrors fleet.NodeName.
  function nodeName(path) {
    var base = path.replace(/\\/g, "/").split("/").pop();
    [".json", ".probe", ".out"].forEach(function (ext) {
      if (base.length >= ext.length && base.slice(-ext.length) === ext) { base = base.slice(0, -ext.length); }
    });
    return base;
  }

  // check refuses what is not a report, with the words facts.Read uses for
  // the common cases; the browser reads only the fields the view needs.
  function check(r) {
    if (r === null || typeof r !== "object" || Array.isArray(r)) { return "not a p2p-probe report: not a JSON object"; }
    if (obj(r.probe).name !== "p2p-probe" || typeof r.schema_version !== "number") {
      return "not a p2p-probe report: it has no probe.name \"p2p-probe\" and schema_version";
    }
    if (r.schema_version !== 1) {
      return "p2p-probe report of schema version " + r.schema_version + "; this p2pkb reads version 1";
    }
    var lists = { gpus: r.gpus, pairs: r.pairs };
    for (var k in lists) {
      if (lists[k] !== undefined && lists[k] !== null && !Array.isArray(lists[k])) { return "not a valid p2p-probe report: " + k + " is not a list"; }
    }
    return "";
  }

  // summarize mirrors fleet.summarize.
  function summarize(name, r, judge) {
    var n = { name: name, verdict: "ok", settings: {}, problems: [], figures: [], links: [], entries: [], err: "" };
    function set(k, v) { if (typeof v === "string" && v !== "") { n.settings[k] = v; } }
    var drv = obj(r.driver), host = obj(r.host), sw = obj(r.software), env = obj(sw.env);
    set("driver", str(drv.version));
    set("cuda", str(drv.cuda));
    set("cuda_toolkit", str(drv.cuda_toolkit));
    set("kernel", str(host.kernel));
    set("os", str(host.os));
    arr(sw.python).forEach(function (p) {
      p = obj(p);
      if (str(p.name).indexOf("nvidia-nccl") === 0) { set("nccl", str(p.version)); }
      if (p.name === "torch") { set("torch", str(p.version)); }
    });
    ["NCCL_P2P_DISABLE", "NCCL_P2P_LEVEL", "NCCL_IGNORE_DISABLED_P2P"].forEach(function (k) { set(k, str(env[k])); });
    var iommu = obj(sw.iommu);
    if (typeof iommu.enabled === "boolean") { set("iommu", String(iommu.enabled)); }
    var acs = arr(sw.acs), redirect = false;
    acs.forEach(function (b) { b = obj(b); redirect = redirect || !!b.request_redirect || !!b.completion_redirect; });
    if (acs.length > 0) { set("acs_redirect", String(redirect)); }
    var names = [];
    arr(r.gpus).forEach(function (g) {
      var nm = str(obj(g).name);
      if (nm !== "" && names.indexOf(nm) < 0) { names.push(nm); }
    });
    names.sort(cmp);
    set("gpu", names.join(", "));

    if (!obj(r.nvml).available) { n.verdict = "no_nvml"; }
    if (arr(obj(r.summary).blocked_pairs).length > 0) { n.verdict = worse(n.verdict, "blocked"); }
    arr(r.gpus).forEach(function (g) {
      g = obj(g);
      if (arr(g.nvlinks).length > 0) { n.links.push({ gpu: "GPU" + num(g.index), group: str(g.name), active: num(g.nvlinks_active) }); }
    });
    var t = r.test;
    if (!t || typeof t !== "object" || !t.ran) {
      n.verdict = worse(n.verdict, "untested");
    } else {
      var conn = {}, devs = {};
      arr(r.pairs).forEach(function (p) { p = obj(p); conn[num(p.from) + ">" + num(p.to)] = str(p.connection); });
      arr(t.devices).forEach(function (d) { d = obj(d); if (!(num(d.ordinal) in devs)) { devs[num(d.ordinal)] = str(d.name); } });
      arr(t.pairs).forEach(function (p) {
        p = obj(p);
        var pair = "GPU" + num(p.from) + "->GPU" + num(p.to), status = str(p.status);
        var v = { failed: "failed", timeout: "hung", slow: "slow" }[status];
        if (v) {
          n.verdict = worse(n.verdict, v);
          var pr = { node: name, pair: pair, status: status };
          if (str(p.reason) !== "") { pr.reason = str(p.reason); }
          n.problems.push(pr);
        }
        var bw = obj(p.bandwidth);
        if (num(bw.p2p_on) <= 0) { return; }
        var group = ((devs[num(p.from)] || "") + " " + (conn[num(p.from) + ">" + num(p.to)] || "")).trim();
        n.figures.push({ pair: pair, group: group, bw: num(bw.p2p_on), lat: num(obj(p.latency_us).p2p_on) });
      });
      if (obj(t.summary).data_ok === false) { n.verdict = worse(n.verdict, "failed"); }
    }
    if (judge) { n.entries = judge(r); }
    return n;
  }

  // judge returns a function giving the indexes of the entries whose
  // conditions hold on a report. Nodes of a fleet are much alike, so the
  // answer is kept for each distinct set of facts.
  function judger(entries) {
    var R = window.p2pkbRules, seen = {};
    return function (r) {
      var f = R.fromReport(r), key = JSON.stringify(f);
      if (seen[key]) { return seen[key]; }
      var out = [];
      entries.forEach(function (e, i) {
        var v;
        try { v = R.applies(e.versions || [], e.when || "", f); } catch (err) { return; }
        if (v.truth === "applies") { out.push(i); }
      });
      seen[key] = out;
      return out;
    };
  }

  function medians(m) {
    var out = {};
    Object.keys(m).forEach(function (k) {
      var s = m[k].slice().sort(function (a, b) { return a - b; }), h = s.length >> 1;
      out[k] = s.length % 2 === 1 ? s[h] : (s[h - 1] + s[h]) / 2;
    });
    return out;
  }

  // fold mirrors fleet.fold: reports is a list of {path, text} or
  // {path, error}; entries the judged entries ({id, signature, versions,
  // when}); o the thresholds.
  function fold(reports, entries, o) {
    o = o || {};
    var slowFraction = o.slowFraction > 0 && o.slowFraction < 1 ? o.slowFraction : 0.2;
    var latencyFactor = o.latencyFactor > 1 ? o.latencyFactor : 2;
    var judge = entries && entries.length ? judger(entries) : null;
    var nodes = reports.map(function (rp) {
      var name = nodeName(rp.path);
      if (rp.error) { return { name: name, path: rp.path, verdict: "unreadable", err: rp.path + ": " + rp.error }; }
      var r, why;
      try { r = JSON.parse(rp.text); } catch (e) { why = "not a p2p-probe report: " + e.message; }
      if (!why) { why = check(r); }
      if (why) { return { name: name, path: rp.path, verdict: "unreadable", err: rp.path + ": " + why }; }
      var n = summarize(name, r, judge);
      n.path = rp.path;
      return n;
    });
    // dedupe, as Go: by path, the first of a name counts.
    nodes.sort(function (a, b) { return cmp(a.path, b.path); });
    var first = {};
    nodes = nodes.map(function (n) {
      if (Object.prototype.hasOwnProperty.call(first, n.name)) {
        return { name: n.path, path: n.path, verdict: "unreadable",
          err: n.path + ": a second report for node " + n.name + " (the first is " + first[n.name] + "); a node's name comes from its file's name" };
      }
      first[n.name] = n.path;
      return n;
    });
    nodes.sort(function (a, b) { return cmp(a.name, b.name); });

    var v = { nodes: nodes.length, verdicts: [], problems: [], outliers: [], versions: [], entries: [], entries_on_every_node: [], unreadable: [], groups: [] };
    nodes.forEach(function (n) {
      if (n.err) { v.unreadable.push({ node: n.name, error: n.err }); }
      (n.problems || []).forEach(function (p) { v.problems.push(p); });
    });
    var bw = {}, lat = {}, links = {};
    function add(m, k, x) { (m[k] = m[k] || []).push(x); }
    nodes.forEach(function (n) {
      (n.figures || []).forEach(function (f) { add(bw, f.group, f.bw); if (f.lat > 0) { add(lat, f.group, f.lat); } });
      (n.links || []).forEach(function (l) { add(links, l.group, l.active); });
    });
    var mBW = medians(bw), mLat = medians(lat), mLinks = medians(links);
    Object.keys(bw).sort(cmp).forEach(function (g) {
      var grp = { name: g, pairs: bw[g].length };
      if (mBW[g]) { grp.median_p2p_gbps = mBW[g]; }
      if (mLat[g]) { grp.median_latency_us = mLat[g]; }
      v.groups.push(grp);
    });
    var outlying = {};
    nodes.forEach(function (n) {
      (n.figures || []).forEach(function (f) {
        if (bw[f.group].length >= 3 && f.bw < (1 - slowFraction) * mBW[f.group]) {
          v.outliers.push({ node: n.name, pair: f.pair, group: f.group, figure: "p2p_gbps", value: f.bw, median: mBW[f.group] });
          outlying[n.name] = true;
        }
        if (lat[f.group] && lat[f.group].length >= 3 && f.lat > latencyFactor * mLat[f.group]) {
          v.outliers.push({ node: n.name, pair: f.pair, group: f.group, figure: "latency_us", value: f.lat, median: mLat[f.group] });
          outlying[n.name] = true;
        }
      });
      (n.links || []).forEach(function (l) {
        if (links[l.group].length >= 3 && l.active < mLinks[l.group]) {
          v.outliers.push({ node: n.name, pair: l.gpu, group: l.group, figure: "nvlinks_active", value: l.active, median: mLinks[l.group] });
          outlying[n.name] = true;
        }
      });
    });
    var by = {};
    nodes.forEach(function (n) {
      var verdict = outlying[n.name] ? worse(n.verdict, "slow") : n.verdict;
      add(by, verdict, n.name);
    });
    VERDICTS.forEach(function (verdict) { if (by[verdict]) { v.verdicts.push({ verdict: verdict, nodes: by[verdict] }); } });

    SPREADS.forEach(function (name) {
      var values = {}, keys = [];
      nodes.forEach(function (n) {
        if (n.err) { return; }
        var val = Object.prototype.hasOwnProperty.call(n.settings, name) ? n.settings[name] : "unknown";
        if (!values[val]) { values[val] = []; keys.push(val); }
        values[val].push(n.name);
      });
      if (keys.length < 2) { return; }
      var s = { name: name, values: keys.map(function (k) { return { value: k, nodes: values[k] }; }) };
      s.values.sort(function (a, b) { return b.nodes.length - a.nodes.length || cmp(a.value, b.value); });
      v.versions.push(s);
    });

    if (judge) {
      var on = entries.map(function () { return []; }), read = 0;
      nodes.forEach(function (n) {
        if (!n.err) { read++; }
        (n.entries || []).forEach(function (i) { on[i].push(n.name); });
      });
      on.forEach(function (ns, i) {
        if (ns.length === 0) { return; }
        if (ns.length === read && read > 1) { v.entries_on_every_node.push(entries[i].id); return; }
        v.entries.push({ id: entries[i].id, signature: entries[i].signature, nodes: ns });
      });
      // A stable sort by the number of nodes, most first, as Go.
      v.entries = v.entries.map(function (e, i) { return [e, i]; })
        .sort(function (a, b) { return b[0].nodes.length - a[0].nodes.length || a[1] - b[1]; })
        .map(function (x) { return x[0]; });
    }
    return v;
  }

  // Reading files: reports, and tar archives (gzip-compressed or not) of them.
  function readTar(buf, archive, out) {
    var b = new Uint8Array(buf), dec = new TextDecoder(), off = 0;
    function field(at, len) {
      var s = b.subarray(off + at, off + at + len), end = s.indexOf(0);
      return dec.decode(end < 0 ? s : s.subarray(0, end));
    }
    while (off + 512 <= b.length) {
      var name = field(0, 100);
      if (name === "") { break; } // the two zero blocks that end an archive
      var prefix = field(345, 155), size = parseInt(field(124, 12).trim() || "0", 8), type = field(156, 1);
      if (prefix) { name = prefix + "/" + name; }
      if (!isFinite(size) || size < 0 || off + 512 + size > b.length) {
        out.push({ path: archive, error: "a tar archive cut short or damaged at " + JSON.stringify(name) });
        return;
      }
      if ((type === "0" || type === "") && /\.json$/.test(name)) {
        var path = archive + ":" + name;
        if (size > MAX_REPORT) { out.push({ path: path, error: "larger than " + (MAX_REPORT >> 10) + " KB: not a p2p-probe report" }); }
        else { out.push({ path: path, text: dec.decode(b.subarray(off + 512, off + 512 + size)) }); }
      }
      off += 512 + Math.ceil(size / 512) * 512;
    }
  }

  function gunzip(file) {
    if (typeof DecompressionStream === "undefined") { return Promise.reject(new Error("this browser cannot unpack .gz: unpack the archive first")); }
    var reader = file.stream().pipeThrough(new DecompressionStream("gzip")).getReader(), chunks = [], total = 0;
    function pump() {
      return reader.read().then(function (x) {
        if (x.done) {
          var all = new Uint8Array(total), at = 0;
          chunks.forEach(function (c) { all.set(c, at); at += c.length; });
          return all.buffer;
        }
        total += x.value.length;
        if (total > MAX_ARCHIVE) { reader.cancel(); throw new Error("unpacks to more than 1 GiB: split the archive"); }
        chunks.push(x.value);
        return pump();
      });
    }
    return pump();
  }

  // read turns chosen File objects into {path, text|error}.
  function read(files) {
    var out = [];
    return files.reduce(function (p, file) {
      return p.then(function () {
        var path = file.webkitRelativePath || file.name;
        if (/\.(tar\.gz|tgz)$/.test(path)) {
          return gunzip(file).then(function (buf) { readTar(buf, path, out); }, function (e) { out.push({ path: path, error: e.message }); });
        }
        if (/\.tar$/.test(path)) {
          return file.arrayBuffer().then(function (buf) { readTar(buf, path, out); });
        }
        if (!/\.json$/.test(path)) { return null; }
        if (file.size > MAX_REPORT) { out.push({ path: path, error: "larger than " + (MAX_REPORT >> 10) + " KB: not a p2p-probe report" }); return null; }
        return file.text().then(function (t) { out.push({ path: path, text: t }); });
      });
    }, Promise.resolve()).then(function () { return out; });
  }

  window.p2pkbFleet = { fold: fold, read: read, nodeName: nodeName };

  // The page: a file and a folder chooser, and the view drawn as text.
  var root = document.getElementById("fleet");
  if (!root) { return; }
  // The page's words, from data-w-* attributes: data-w-no-reports is words.no_reports.
  var words = {};
  Object.keys(root.dataset).forEach(function (k) {
    if (/^w[A-Z]/.test(k)) { words[k.slice(1).replace(/[A-Z]/g, function (c) { return "_" + c.toLowerCase(); }).slice(1)] = root.dataset[k]; }
  });
  var entries = JSON.parse(document.getElementById("fleet-entries").textContent);
  var status = document.getElementById("fleet-status"), out = document.getElementById("fleet-view");

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined) { e.textContent = text; }
    if (cls) { e.className = cls; }
    return e;
  }
  function list(ns) {
    return ns.length <= 8 ? ns.join(", ") : ns.slice(0, 8).join(", ") + " " + words.more.replace("%d", ns.length - 8);
  }
  function section(title) {
    var s = el("section"); s.appendChild(el("h2", title)); out.appendChild(s); return s;
  }
  function draw(v) {
    out.textContent = "";
    var head = el("p", "", "fleet-counts");
    head.textContent = words.nodes.replace("%d", v.nodes) + ": " + v.verdicts.map(function (x) { return x.nodes.length + " " + words["v_" + x.verdict]; }).join(", ");
    out.appendChild(head);
    var ul = el("ul", undefined, "fleet-verdicts");
    v.verdicts.forEach(function (x) {
      if (x.verdict === "ok") { return; }
      var li = el("li"); li.setAttribute("data-verdict", x.verdict);
      li.appendChild(el("strong", words["v_" + x.verdict] + ": ")); li.appendChild(document.createTextNode(list(x.nodes)));
      ul.appendChild(li);
    });
    if (ul.childNodes.length) { out.appendChild(ul); }
    if (v.problems.length) {
      var s1 = section(words.problems), u1 = el("ul");
      v.problems.forEach(function (p) { u1.appendChild(el("li", p.node + "  " + p.pair + "  " + words["v_" + ({ failed: "failed", timeout: "hung" }[p.status] || "slow")] + (p.reason ? ": " + p.reason : ""))); });
      s1.appendChild(u1);
    }
    if (v.outliers.length) {
      var s2 = section(words.outliers), u2 = el("ul");
      v.outliers.forEach(function (o) {
        var fig = o.figure === "p2p_gbps" ? o.value.toFixed(1) + " GB/s, " + words.median + " " + o.median.toFixed(1) + " GB/s"
          : o.figure === "latency_us" ? o.value.toFixed(2) + " µs, " + words.median + " " + o.median.toFixed(2) + " µs"
            : o.value + " " + words.links + ", " + words.median + " " + o.median;
        u2.appendChild(el("li", o.node + "  " + o.pair + "  " + o.group + ": " + fig));
      });
      s2.appendChild(u2);
    }
    if (v.versions.length) {
      var s3 = section(words.versions), u3 = el("ul");
      v.versions.forEach(function (s) {
        u3.appendChild(el("li", s.name + ": " + s.values.map(function (x, i) { return x.value + " (" + (i === 0 ? words.nodes.replace("%d", x.nodes.length) : list(x.nodes)) + ")"; }).join("; ")));
      });
      s3.appendChild(u3);
    }
    if (v.entries.length) {
      var s4 = section(words.entries), u4 = el("ul");
      v.entries.forEach(function (e) {
        var li = el("li"), a = el("a", e.id);
        a.href = entries.filter(function (x) { return x.id === e.id; })[0].url;
        li.appendChild(a); li.appendChild(document.createTextNode(": ")); li.appendChild(el("code", e.signature, "sig"));
        li.appendChild(el("div", list(e.nodes)));
        u4.appendChild(li);
      });
      s4.appendChild(u4);
    }
    if (v.unreadable.length) {
      var s5 = section(words.unread), u5 = el("ul");
      v.unreadable.forEach(function (u) { u5.appendChild(el("li", u.error)); });
      s5.appendChild(u5);
    }
    if (!v.problems.length && !v.outliers.length && !v.versions.length && !v.entries.length && !v.unreadable.length) {
      out.appendChild(el("p", words.none));
    }
  }
  // rules.js judges the entries; it loads once reports are chosen, so the
  // page itself stays light.
  var rulesLoaded = null;
  function loadRules() {
    if (window.p2pkbRules) { return Promise.resolve(); }
    if (!rulesLoaded) {
      // rules.js reads the table the build writes beside it: load both, in order.
      var load = function (src) {
        return new Promise(function (resolve, reject) {
          var s = document.createElement("script");
          s.src = src;
          s.onload = resolve;
          s.onerror = function () { reject(new Error("could not load " + src)); };
          document.head.appendChild(s);
        });
      };
      rulesLoaded = load(root.getAttribute("data-rules-table")).then(function () { return load(root.getAttribute("data-rules")); });
    }
    return rulesLoaded;
  }
  function choose(input) {
    var files = Array.prototype.slice.call(input.files || []);
    if (!files.length) { return; }
    status.textContent = words.reading;
    Promise.all([read(files), loadRules()]).then(function (got) {
      var reports = got[0];
      if (!reports.length) { status.textContent = words.no_reports; out.textContent = ""; return; }
      var v = fold(reports, entries, {});
      status.textContent = "";
      draw(v);
    }).catch(function (e) { status.textContent = e.message; });
  }
  root.querySelectorAll("input[type=file]").forEach(function (input) {
    input.addEventListener("change", function () { choose(input); });
  });
})();
