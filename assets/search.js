// p2pkb search in the browser: the same analysis as internal/search
// (analyze.go), the client index loaded shard by shard with <script> so it
// works from file://, and the search page. Every string from the index or
// the query reaches the page as text, never as HTML.
(function () {
  "use strict";

  // The stop words and the new-issue link's rules come from Go, which the
  // build writes to search.table.js: each is written once.
  var T = window.p2pkbSearchTable;
  if (!T) { throw new Error("search.js needs assets/search.table.js, loaded before it"); }
  var STOP = {};
  T.stopWords.forEach(function (w) { STOP[w] = true; });
  var HAN = /^\p{Script=Han}/u, HAN_ANY = /\p{Script=Han}/u, HAN_ALL = /\p{Script=Han}/gu, WORD = /^[\p{L}\p{N}_.]/u;
  var isHan = function (c) { return HAN.test(c); };
  var isWord = function (c) { return WORD.test(c) && !HAN.test(c); };

  // analyze mirrors search.Analyze: terms with their UTF-16 ranges.
  function analyze(text) {
    var out = [], cps = Array.from(text), offs = [], o = 0, i, j;
    for (i = 0; i < cps.length; i++) { offs.push(o); o += cps[i].length; }
    offs.push(o);
    for (i = 0; i < cps.length;) {
      if (isHan(cps[i])) {
        for (j = i; j < cps.length && isHan(cps[j]); j++) { /* the run */ }
        if (j - i === 1) { out.push({ term: cps[i], start: offs[i], end: offs[j] }); }
        for (var k = i; k + 1 < j; k++) { out.push({ term: cps[k] + cps[k + 1], start: offs[k], end: offs[k + 2] }); }
        i = j;
      } else if (isWord(cps[i])) {
        for (j = i; j < cps.length && isWord(cps[j]); j++) { /* the run */ }
        var a = i, b = j;
        while (a < b && (cps[a] === "." || cps[a] === "_")) { a++; }
        while (b > a && (cps[b - 1] === "." || cps[b - 1] === "_")) { b--; }
        i = j;
        if (a === b) { continue; }
        addWord(out, cps.slice(a, b).join(""), offs[a], offs[b]);
      } else {
        i++;
      }
    }
    return out;
  }

  function addWord(out, word, start, end) {
    var seen = {};
    var add = function (t) {
      if (seen[t] || STOP[t] || Array.from(t).length < 2) { return; }
      seen[t] = true;
      out.push({ term: t, start: start, end: end });
    };
    add(lower(word));
    var parts = word.replace(/([a-z])([A-Z])/g, "$1.$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1.$2").split(/[._]+/).filter(function (p) { return p !== ""; });
    if (parts.length > 1) { parts.forEach(function (p) { add(lower(p)); }); }
  }

  // lower lower-cases each character alone, as Go's strings.ToLower does:
  // toLowerCase alone turns a final capital sigma into ς and İ into two
  // characters, and the terms would differ from the index's.
  function lower(w) {
    if (!/[\u0130\u03a3]/.test(w)) { return w.toLowerCase(); }
    return Array.from(w, function (c) { return c === "\u0130" ? "i" : c.toLowerCase(); }).join("");
  }

  function terms(text) {
    var seen = {}, out = [];
    analyze(text).forEach(function (t) { if (!seen[t.term]) { seen[t.term] = true; out.push(t.term); } });
    return out;
  }

  // hash is FNV-1a over UTF-8, as search.Hash.
  function hash(s) {
    var bytes = new TextEncoder().encode(s), h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; i++) { h ^= bytes[i]; h = Math.imul(h, 0x01000193) >>> 0; }
    return h >>> 0;
  }

  function prefix(t) { return Array.from(t).slice(0, 2).join(""); }

  // withinOne tells whether a and b differ by at most one edit.
  function withinOne(a, b) {
    if (a === b) { return true; }
    var la = a.length, lb = b.length;
    if (Math.abs(la - lb) > 1) { return false; }
    var i = 0, j = 0, edits = 0;
    while (i < la && j < lb) {
      if (a[i] === b[j]) { i++; j++; continue; }
      if (++edits > 1) { return false; }
      if (la > lb) { i++; } else if (lb > la) { j++; } else { i++; j++; }
    }
    return edits + (la - i) + (lb - j) <= 1;
  }

  var root = (document.body && document.body.dataset.root) || "";
  var store = {}, waiting = {};

  // load adds search/<lang>/<name>.js once and resolves with its data.
  function load(lang, name) {
    var key = lang + "/" + name;
    if (store[key] !== undefined) { return Promise.resolve(store[key]); }
    if (!waiting[key]) {
      waiting[key] = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = root + "search/" + key + ".js";
        s.async = true;
        s.onload = function () { resolve(store[key]); };
        s.onerror = function () { reject(new Error("cannot load the search index (" + key + ")")); };
        document.head.appendChild(s);
      });
    }
    return waiting[key];
  }

  function add(lang, name, data) { store[lang + "/" + name] = data; }

  // A KB pattern is RE2 in Go and runs here on JavaScript's backtracking
  // engine, where a pattern such as "from .+ -> .+ : No" over a long line
  // takes time cubic in the line. So a pattern sees a line WINDOW
  // characters at a time: a longer line is cut into windows that overlap by
  // half, each on a line of its own, which finds every match of up to
  // WINDOW / 2 characters (a signature is one message) and bounds the work
  // of each window. ^ and $ match at lines, as when each line was tried.
  var WINDOW = 512;
  function windowed(text) {
    var lines = text.split("\n"), out = [];
    for (var i = 0; i < lines.length; i++) {
      var l = lines[i];
      if (l.length <= WINDOW) { out.push(l); continue; }
      for (var at = 0; at < l.length; at += WINDOW / 2) {
        out.push(l.slice(at, at + WINDOW));
        if (at + WINDOW >= l.length) { break; }
      }
    }
    return out.join("\n");
  }
  function matchPattern(src, text) {
    var re;
    try { re = new RegExp(src, "m"); } catch (e) { return ""; }
    var m = re.exec(text);
    return m ? m[0] : "";
  }

  // matchPatterns runs patterns (rows [doc, source, weight]) over text and
  // calls found(row, match) for each that matches. It works in slices of
  // SLICE ms, the page running between them, and resolves when done.
  var SLICE = 25;
  function matchPatterns(patterns, text, found) {
    var w = windowed(text), i = 0;
    return new Promise(function (resolve) {
      (function slice() {
        var until = performance.now() + SLICE;
        while (i < patterns.length && performance.now() < until) {
          var m = matchPattern(patterns[i][1], w);
          if (m) { found(patterns[i], m); }
          i++;
        }
        if (i < patterns.length) { setTimeout(slice, 0); } else { resolve(); }
      })();
    });
  }

  // linesMatched lists the lines of q, from 1, that pattern src matches
  // alone (search.linesMatched), each line seen a window at a time.
  function linesMatched(src, q) {
    var out = [], re;
    try { re = new RegExp(src, "m"); } catch (e) { return out; }
    q.split("\n").forEach(function (l, i) { if (re.test(windowed(l))) { out.push(i + 1); } });
    return out;
  }

  // lineOf is the number, from 1, of the first line of q holding match (search.lineOf).
  function lineOf(q, match) {
    var lines = q.split("\n");
    for (var i = 0; i < lines.length; i++) { if (lines[i].indexOf(match) >= 0) { return i + 1; } }
    return 0;
  }

  // patternScore mirrors search.patternScore: a pattern match above every
  // word match, an entry that names the line's layer above one that names
  // only the error inside it, a longer match first, then more reports, then
  // more confidence.
  function patternScore(m, r) {
    return 1000 + Array.from(m).length + (r.generic ? 0 : 131072) + (isResult(m) ? 0 : 262144) + 0.5 * r.reports / (r.reports + 1) + r.confidence / 1e6;
  }

  // causeOrder mirrors search.Before, the one order of the causes of a line:
  // by the facts, then the most specific explanation (not a wrapper, not generic, the
  // longer match), then the reports the entries cite, then confidence, then id.
  function causeOrder(a, b) {
    return a.tier - b.tier || (a.wrapper ? 1 : 0) - (b.wrapper ? 1 : 0) || (a.generic ? 1 : 0) - (b.generic ? 1 : 0) || b.len - a.len || b.reports - a.reports ||
      b.confidence - a.confidence || (a.result.id < b.result.id ? -1 : a.result.id > b.result.id ? 1 : 0);
  }

  // search ranks the documents of lang for q with the client index.
  function searchIndex(q, lang, limit) {
    q = q.slice(0, 65536);
    var all = terms(q), qterms = all;
    // A long query is a pasted log: its numbers rank nothing (search.queryTerms).
    if (qterms.length > 4) { qterms = qterms.filter(function (t) { return !/^[0-9]+$/.test(t); }); }
    qterms = qterms.slice(0, 64);
    return load(lang, "meta").then(function (meta) {
      var scores = {}, matches = {}, rank = {}, shared = {}, patternOf = {};
      var shardOf = function (t) { return "t" + (hash(t) % meta.shards); };
      // addTerm adds term t's weights, marks its documents in hit and
      // returns its idf, 0 when no document holds it (search.scorer.add).
      var addTerm = function (shard, t, factor, hit) {
        var p = shard.p[t];
        if (!p) { return 0; }
        var df = (shard.df && shard.df[t]) || p.length / 2, idf = Math.log(1 + (meta.n - df + 0.5) / (df + 0.5)), doc = 0;
        for (var i = 0; i < p.length; i += 2) {
          doc = i === 0 ? p[0] : doc + p[i];
          scores[doc] = (scores[doc] || 0) + factor * idf * p[i + 1] / meta.scale;
          hit[doc] = true;
        }
        return idf;
      };
      var patterns = meta.always.slice(), hits = qterms.map(function () { return {}; }), idfs = [];
      // A pattern hangs on one term of its own (search.anchorTerm), which a
      // pasted log may hold past the terms that rank: the shard of every
      // term of the text is read for its patterns, each shard once.
      var ranking = qterms.map(shardOf), extra = [];
      all.forEach(function (t) {
        var s = shardOf(t);
        if (!/^[0-9]+$/.test(t) && ranking.indexOf(s) < 0 && extra.indexOf(s) < 0) { extra.push(s); }
      });
      return Promise.all(ranking.concat(extra).map(function (s) { return load(lang, s); })).then(function (shards) {
        var misses = [];
        shards.forEach(function (shard, i) {
          (shard.r || []).forEach(function (r) { patterns.push(r); });
          if (i >= qterms.length) { return; }
          idfs[i] = addTerm(shard, qterms[i], 1, hits[i]);
          if (!idfs[i] && qterms.length <= meta.fuzzyTerms && Array.from(qterms[i]).length >= meta.fuzzy && !HAN.test(qterms[i])) {
            misses.push(i);
          }
        });
        // One typo: look the term up among known terms of the same prefix.
        return Promise.all(misses.map(function (i) {
          var t = qterms[i];
          return load(lang, "v" + (hash(prefix(t)) % meta.vshards)).then(function (vocab) {
            var near = vocab.filter(function (v) { return withinOne(t, v); });
            return Promise.all(near.map(function (v) {
              return load(lang, shardOf(v)).then(function (shard) { idfs[i] = Math.max(idfs[i], addTerm(shard, v, 0.3, hits[i])); });
            }));
          });
        }));
      }).then(function () {
        // Coverage, as search.coverage: a typed query ranks the pages that
        // hold its rarer words above those that hold only its common ones.
        var all = idfs.reduce(function (a, b) { return a + b; }, 0);
        // The share of the query's words each document holds, a word no
        // document holds counting as the rarest (search.Result.Shared).
        var unknown = Math.log(1 + (meta.n + 0.5) / 0.5), words = 0;
        idfs.forEach(function (w) { words += w || unknown; });
        Object.keys(scores).forEach(function (d) {
          var have = 0;
          hits.forEach(function (h, i) { if (h[d]) { have += idfs[i]; } });
          shared[d] = words > 0 ? Math.round(have / words * 1000) / 1000 : 0;
        });
        if (qterms.length >= 2 && qterms.length <= meta.fuzzyTerms && all > 0) {
          Object.keys(scores).forEach(function (d) {
            var have = 0;
            hits.forEach(function (h, i) { if (h[d]) { have += idfs[i]; } });
            scores[d] *= (have / all) * (have / all);
          });
        }
        // A pattern row is [document, pattern, reports, generic, confidence] (search.patternRow).
        return matchPatterns(patterns, q, function (r, m) {
          matches[r[0]] = m; patternOf[r[0]] = r[1];
          rank[r[0]] = { reports: r[2] || 0, generic: r[3] >= 1, confidence: r[4] || 0 };
          scores[r[0]] = patternScore(m, rank[r[0]]);
        });
      }).then(function () {
        var ranked = Object.keys(scores).map(Number).sort(function (a, b) { return scores[b] - scores[a] || a - b; }).slice(0, limit);
        var multiline = q.trim().indexOf("\n") >= 0;
        return Promise.all(ranked.map(function (d) { return load(lang, "d" + Math.floor(d / meta.chunk)); })).then(function (chunks) {
          return ranked.map(function (d, i) {
            var r = rowResult(chunks[i][d % meta.chunk]);
            r.score = scores[d]; r.match = matches[d] || ""; r.shared = shared[d] || 0;
            if (r.match && multiline) { r.line = lineOf(q, r.match); r.lines = linesMatched(patternOf[d], q); }
            return r;
          });
        });
      });
    });
  }

  // rowResult is a document's row of the client index (search/<lang>/d<N>.js) as a result.
  function rowResult(row) {
    var r = { id: row[0], kind: row[1], title: row[2], path: row[3], code: row[4], gist: row[5] || "", best: row[6] || "",
      versions: row[7] || [], applies_when: row[8] || "", score: 0, match: "", shared: 0 };
    if (r.kind === "entry") { r.reports = row[9] || 0; r.generic = row[10] >= 1; r.shape = row[10] === 2; r.confidence = row[11] || 0; r.apis = (row[12] || "").split(" ").filter(Boolean); r.program_side = row[13] === 1; }
    return r;
  }

  // search uses p2pkb serve's API when the page came from it, else the client index.
  var apiState = null;
  function search(q, lang, limit) {
    limit = limit || 20;
    if (!/^https?:$/.test(location.protocol) || apiState === false) { return searchIndex(q, lang, limit); }
    var url = root + "api/search?q=" + encodeURIComponent(q) + "&lang=" + encodeURIComponent(lang) + "&limit=" + limit;
    return fetch(url, { headers: { Accept: "application/json" } }).then(function (r) {
      if (!r.ok || !/json/.test(r.headers.get("Content-Type") || "")) { throw new Error("no API"); }
      apiState = true;
      return r.json();
    }).then(function (res) { return res.results; }).catch(function () {
      apiState = false;
      return searchIndex(q, lang, limit);
    });
  }

  // mark appends text to el with the words that match the query in <mark>.
  function mark(el, text, qterms) {
    var want = {}, last = 0;
    qterms.forEach(function (t) { want[t] = true; });
    var ranges = analyze(text).filter(function (t) { return want[t.term]; });
    ranges.sort(function (a, b) { return a.start - b.start; });
    ranges.forEach(function (r) {
      if (r.start < last) { return; }
      el.appendChild(document.createTextNode(text.slice(last, r.start)));
      var m = document.createElement("mark");
      m.textContent = text.slice(r.start, r.end);
      el.appendChild(m);
      last = r.end;
    });
    el.appendChild(document.createTextNode(text.slice(last)));
  }

  // matchLine shows what the entry's pattern matched: for a pasted log, the
  // line of the log it is on, cut around the match, with its number.
  function matchLine(r, q) {
    var p = document.createElement("p"), text = r.match, at = 0;
    p.className = "match";
    if (r.line) {
      var line = q.split("\n")[r.line - 1];
      at = line.indexOf(r.match);
      var from = Math.max(0, at - 60), to = Math.min(line.length, at + r.match.length + 60);
      text = (from > 0 ? "…" : "") + line.slice(from, to) + (to < line.length ? "…" : "");
      at = at - from + (from > 0 ? 1 : 0);
      var n = document.createElement("span");
      n.className = "label";
      n.textContent = (document.getElementById("search-results").dataset.line || "line %d").replace("%d", r.line) + " ";
      p.appendChild(n);
    }
    var code = document.createElement("code");
    code.appendChild(document.createTextNode(text.slice(0, at)));
    var m = document.createElement("mark");
    m.textContent = r.match;
    code.appendChild(m);
    code.appendChild(document.createTextNode(text.slice(at + r.match.length)));
    p.appendChild(code);
    return p;
  }

  function render(list, results, q) {
    var qterms = terms(q);
    list.textContent = "";
    results.forEach(function (r) {
      var li = document.createElement("li");
      li.dataset.resultId = r.id;
      li.dataset.kind = r.kind;
      if (r.kind === "entry") {
        li.dataset.entryVersions = JSON.stringify(r.versions || []);
        if (r.applies_when) { li.dataset.appliesWhen = r.applies_when; }
      }
      var a = document.createElement("a");
      a.href = root + r.path + "index.html";
      mark(a, r.title, qterms);
      li.appendChild(a);
      var meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = (r.code ? r.code + " · " : "") + (list.dataset["kind" + (r.kind === "entry" ? "Entry" : "Article")] || r.kind);
      li.appendChild(meta);
      if (r.match) { li.appendChild(matchLine(r, q)); }
      [["gist", r.gist, ""], ["best", r.best, list.dataset.best]].forEach(function (s) {
        if (!s[1]) { return; }
        var p = document.createElement("p");
        p.className = "snippet " + s[0];
        if (s[2]) {
          var label = document.createElement("span");
          label.className = "label";
          label.textContent = s[2] + (/[\u3000-\u303f\uff00-\uffef]$/.test(s[2]) ? "" : " ");
          p.appendChild(label);
        }
        mark(p, s[1], qterms);
        li.appendChild(p);
      });
      list.appendChild(li);
    });
  }

  // factsIn lists the facts a parsed condition reads, in order of first use
  // (rules.js holds it, for rules.Holding as well).
  function factsIn(e, out) { return window.p2pkbRules.factsIn(e, out); }

  // causeGroups mirrors report.message: the entries whose patterns match the
  // same line of q are the causes of that line's message, ranked by the
  // facts (a p2p-probe report's, or null), then as search.Before ranks them
  // (causeOrder).
  function causeGroups(results, q, facts) {
    var lines = q.split("\n"), groups = [], byLine = {};
    results.forEach(function (r) {
      if (r.kind !== "entry" || !r.match) { return; }
      var n = -1;
      for (var i = 0; i < lines.length; i++) { if (lines[i].indexOf(r.match) >= 0) { n = i; break; } }
      if (!byLine[n]) { byLine[n] = { line: n + 1, text: (n >= 0 ? lines[n] : r.match).trim(), causes: [] }; groups.push(byLine[n]); }
      var v = judge(r, facts, false);
      byLine[n].causes.push({ result: r, truth: v.truth, reasons: v.reasons, condition: r.applies_when || "", len: Array.from(r.match).length,
        generic: !!r.generic, wrapper: isResult(r.match), reports: r.reports || 0, confidence: r.confidence || 0, tier: v.tier });
    });
    groups.forEach(function (g) {
      g.causes.sort(causeOrder);
      conclude(g, facts);
    });
    return groups;
  }

  // judge is how the facts (or null) judge entry r as a cause: its truth,
  // the reasons, and its tier (0 holds, 1 not known, 2 ruled out), as
  // diagnose's tierOf; conditional says whether it counts as having a
  // condition whatever it has (the causes of a symptom do).
  function judge(r, facts, conditional) {
    var rules = window.p2pkbRules, v = { truth: "unknown", reasons: [] };
    if (facts && rules) {
      try { v = rules.applies(r.versions || [], r.applies_when || "", facts); } catch (e) { v = { truth: "unknown", reasons: [e.message] }; }
    }
    conditional = conditional || !!(r.applies_when || "").trim() || (r.versions || []).some(function (x) { return /[<>=]/.test(x); });
    return { truth: v.truth, reasons: v.reasons || [], tier: v.truth === "does_not_apply" ? 2 : v.truth === "applies" && conditional ? 0 : 1 };
  }

  // verdictOf is the verdict of causes in their order, as diagnose's
  // conclude gives it: the first applies, every one is ruled out, or neither.
  function verdictOf(causes) {
    return causes[0].tier === 0 ? "applies" : causes.every(function (c) { return c.tier === 2; }) ? "ruled_out" : "unknown";
  }

  // conclude gives group g, its causes in order, its verdict and what would
  // tell its causes apart, as diagnose's conclude.
  function conclude(g, facts) {
    var rules = window.p2pkbRules;
    g.verdict = verdictOf(g.causes);
    if (g.verdict !== "unknown" || !rules) { return; }
    // What would tell them apart: the unknown facts their conditions read, most used first.
    var uses = {}, order = [];
    g.causes.forEach(function (c) {
      if (c.truth === "does_not_apply") { return; }
      var names = [];
      try { names = factsIn(rules.parse(c.condition), []); } catch (e) { names = []; }
      names.forEach(function (n) {
        if (facts && rules.known(facts, n)) { return; }
        if (!uses[n]) { order.push(n); uses[n] = 0; }
        uses[n]++;
      });
    });
    order = order.map(function (n, i) { return { n: n, i: i }; }).sort(function (a, b) { return uses[b.n] - uses[a.n] || a.i - b.i; }).map(function (x) { return x.n; });
    if (!order.length) { return; }
    var paste = [];
    order.forEach(function (n) { var p = rules.pasteFor(n); if (p && paste.indexOf(p) < 0) { paste.push(p); } });
    g.tellApart = { facts: order, names: order.map(function (n) { return rules.displayName(n); }),
      run: order.some(function (n) { return /^p2p\.test\./.test(n); }) ? "p2p-probe --test" : "p2p-probe", paste: paste };
  }

  // el makes an element with a class and text, as text.
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = String(text); }
    return e;
  }

  // renderCauses shows each pasted message that has several known causes,
  // or whose every cause is ruled out, with its causes in order.
  // causeItem is one cause of a list: a link to its entry, marked by mark,
  // and with facts, its verdict and the reasons for it. data-truth, not
  // data-applies: "hide what does not apply" must not hide what was ruled out.
  function causeItem(section, r, truth, reasons, facts, mark) {
    var labels = { applies: "lApplies", does_not_apply: "lDoesNotApply", unknown: "lUnknown" };
    var li = el("li");
    li.dataset.causeId = r.id;
    li.dataset.truth = truth;
    if (mark) { li.appendChild(document.createTextNode(mark)); }
    var a = el("a", "", r.title + " (" + r.id + ")");
    a.href = root + r.path + "index.html";
    li.appendChild(a);
    if (facts) {
      li.appendChild(el("span", "verdict cause-verdict verdict-" + truth, (section.dataset[labels[truth]] || labels[truth]) + (reasons.length ? ": " + reasons.map(function (x) { return window.p2pkbRules.reasonIn(x, document.body.dataset.lang); }).join("; ") : "")));
    }
    return li;
  }
  function renderCauses(section, groups, facts) {
    var t = function (k) { return section.dataset[k] || k; };
    section.textContent = "";
    // Beside what the paste shows, every line is boxed, so that the boxes
    // read in explain's order (a line of one cause after the symptoms).
    var boxed = groups.some(function (g) { return g.symptom; });
    groups.forEach(function (g) {
      if (g.causes.length < 2 && g.verdict !== "ruled_out" && !g.symptom && !boxed) { return; }
      var box = el("div", g.symptom ? "causes symptom" : "causes");
      box.dataset.line = g.line;
      if (g.symptom) { box.dataset.symptom = "true"; }
      box.dataset.verdict = g.verdict;
      var head = el("p", "causes-head", t("line").replace("%d", g.line) + ": ");
      head.appendChild(el("code", "", g.text));
      box.appendChild(head);
      // Who printed the line and the error inside it, as explain says.
      var rd = readLine(g.text.slice(0, 1000));
      if (rd && rd.error) {
        box.dataset.layer = rd.layer.id;
        box.dataset.inner = rd.error.name;
        box.appendChild(el("p", "layered", t("layered").replace("%s", rd.layer.name + (rd.where ? " (" + rd.where + ")" : "")).replace("%s", errorName(rd.error))));
      }
      var ruledOut = g.verdict === "ruled_out";
      // One cause needs no count, as explain says none (a symptom's box may have one).
      if (ruledOut || g.causes.length > 1) { box.appendChild(el("p", "", (ruledOut ? t("ruledOut") : t("n")).replace("%d", g.causes.length))); }
      var ol = el(ruledOut ? "ul" : "ol", "cause-list");
      g.causes.forEach(function (c) {
        ol.appendChild(causeItem(section, c.result, c.truth, c.reasons, facts, ruledOut ? "✗ " : ""));
      });
      box.appendChild(ol);
      if (ruledOut) {
        box.appendChild(el("p", "", t("collect")));
        var next = el("ol", "collect-next");
        var items = ["collectSameMachine"];
        if (!facts || !Object.prototype.hasOwnProperty.call(facts, "p2p.test.ran")) { items.push("collectTest"); }
        items.push("collectLog", "collectNew");
        items.forEach(function (k) { next.appendChild(el("li", "", t(k))); });
        box.appendChild(next);
      } else if (g.tellApart) {
        box.appendChild(el("p", "tell-apart", t("tellApart").replace("%s", g.tellApart.names.join(", ")).replace("%s", g.tellApart.run).replace("%s", g.tellApart.paste.join(", "))));
      }
      section.appendChild(box);
    });
    section.hidden = !section.firstChild;
  }

  // The error vocabulary and the layers' line shapes (assets/errvocab.js,
  // made from internal/errvocab): readLine mirrors errvocab.Read.
  var vocab = null;
  // normText mirrors errvocab's norm: a message as people quote it (any
  // case, spaces collapsed, no final full stop or plural s).
  function normText(t) {
    return t.toLowerCase().split(/\s+/).filter(Boolean).join(" ").replace(/[. ]+$/, "").replace(/s$/, "");
  }
  function shortText(t) {
    var i = t.indexOf(" (run with");
    if (i < 0) { i = t.indexOf(" - please"); }
    return i > 0 ? t.slice(0, i) : t;
  }
  function errVocab() {
    if (vocab || !window.p2pkbErrors) { return vocab; }
    var d = window.p2pkbErrors, v = { byName: {}, byCode: {}, byText: {}, byNorm: {}, returns: d.returns || {}, plain: d.plain || [] };
    d.errors.forEach(function (r) {
      var e = { family: r[0], code: r[1], name: r[2], text: r[3] };
      if (!Object.prototype.hasOwnProperty.call(v.byName, e.name)) { v.byName[e.name] = e; }
      (v.byCode[e.family] = v.byCode[e.family] || {})[e.code] = e;
      var t = v.byText[e.family] = v.byText[e.family] || {}, n = v.byNorm[e.family] = v.byNorm[e.family] || {};
      [e.text, shortText(e.text)].forEach(function (x) {
        if (!Object.prototype.hasOwnProperty.call(t, x)) { t[x] = e; }
        if (!Object.prototype.hasOwnProperty.call(n, normText(x))) { n[normText(x)] = e; }
      });
    });
    v.shapes = d.shapes.map(function (s) { return { layer: s.layer, triggers: s.triggers, re: new RegExp(s.re), families: s.families || [], byFile: s.by_file || null, need_err: !!s.need_err }; });
    vocab = v;
    return v;
  }
  // isResult mirrors errvocab.Result: text is an NCCL result's name or
  // message alone, what a wrapper prints of an error it does not name.
  function isResult(text) {
    var v = errVocab(), own = Object.prototype.hasOwnProperty, t = text.trim(), e = null;
    if (!v) { return false; }
    if (own.call(v.byName, t)) { e = v.byName[t]; return e.family === "nccl" && e.code !== 0; }
    // PyTorch's "NCCL error in: file:line, <result>": the result there is NCCL's.
    var m = /^NCCL error in: \S+:\d+, (.+)$/.exec(t);
    if (m) { e = own.call(v.byText.nccl || {}, m[1]) ? v.byText.nccl[m[1]] : null; return !!e && e.code !== 0; }
    e = own.call(v.byText.nccl || {}, t) ? v.byText.nccl[t] : null;
    return !!e && e.code !== 0 && !own.call(v.byText.cuda_runtime || {}, t) && !own.call(v.byText.cuda_driver || {}, t);
  }
  // apiKind mirrors errvocab.APIKind: the kind of a CUDA call (ipc, vmm, peer) or "".
  function apiKind(name) {
    if (name === "CUDA IPC" || /^cu(da)?Ipc/.test(name)) { return "ipc"; }
    if (/PeerAccess|P2PAttribute/.test(name) || /^cu(da)?MemcpyPeer/.test(name)) { return "peer"; }
    if (/^cuMulticast/.test(name)) { return "vmm"; }
    if (/^cuMem/.test(name) && !/^cuMem(cpy|set|Alloc|Free|GetInfo)/.test(name)) { return "vmm"; }
    return "";
  }
  // byText mirrors errvocab.ByText.
  function byText(v, text, families) {
    text = text.trim();
    var own = Object.prototype.hasOwnProperty, i, f;
    for (i = 0; i < families.length; i++) { f = v.byText[families[i]] || {}; if (own.call(f, text)) { return f[text]; } }
    for (i = 0; i < families.length; i++) {
      var best = null, bestLen = 0;
      f = v.byText[families[i]] || {};
      Object.keys(f).forEach(function (t) {
        if (t.length > bestLen && t.length >= 8 && t.length <= text.length && text.slice(0, t.length).toLowerCase() === t.toLowerCase() &&
          !/[A-Za-z]/.test(text.charAt(t.length))) { best = f[t]; bestLen = t.length; }
      });
      if (best) { return best; }
    }
    var n = normText(text);
    for (i = 0; i < families.length; i++) {
      f = v.byNorm[families[i]] || {};
      if (n.length >= 8 && own.call(f, n)) { return f[n]; }
    }
    return null;
  }
  var NAME_RE = /\b(?:cudaError[A-Z]\w*|CUDA_ERROR_[A-Z_]+|nccl(?:UnhandledCudaError|SystemError|InternalError|InvalidArgument|InvalidUsage|RemoteError))\b/;
  // inner mirrors errvocab's inner.
  function inner(v, s, name, code, text, rest) {
    var e, i;
    if (name && v.byName[name]) { return v.byName[name]; }
    if (code && !text) {
      for (i = 0; i < s.families.length; i++) { e = (v.byCode[s.families[i]] || {})[parseInt(code, 10)]; if (e) { return e; } }
    }
    if (text && (e = byText(v, text, s.families))) { return e; }
    rest = rest || text;
    if (!rest) { return null; }
    var n = NAME_RE.exec(rest);
    if (n && v.byName[n[0]]) { return v.byName[n[0]]; }
    for (i = 0; i < rest.length; i++) {
      var j;
      if (rest[i] === ":") { j = i + 1; } else if (rest.indexOf("error ", i) === i) { j = i + 6; } else { continue; }
      var after = rest.slice(j).replace(/^ +/, ""), k = after.indexOf(" ");
      if (k > 0 && /^[0-9]+$/.test(after.slice(0, k))) { after = after.slice(k + 1); }
      if ((e = byText(v, after, s.families))) { return e; }
    }
    return null;
  }
  // readLine mirrors errvocab.Read: the layer that printed line and the error inside it, or null.
  function readLine(line) {
    var v = errVocab();
    if (!v) { return null; }
    for (var i = 0; i < v.shapes.length; i++) {
      var s = v.shapes[i];
      if (!s.triggers.some(function (t) { return line.indexOf(t) >= 0; })) { continue; }
      var m = s.re.exec(line);
      if (!m) { continue; }
      var g = m.groups || {}, r = { layer: s.layer, where: g.where || g.where2 || "", error: null, shape: m[0] };
      if (s.byFile) { Object.keys(s.byFile).forEach(function (k) { if (r.where.indexOf(k) >= 0) { r.layer = s.byFile[k]; } }); }
      r.error = inner(v, s, g.name || "", g.code || g.code2 || "", g.text || g.text2 || "", g.rest || g.rest2 || "");
      if (!r.error && s.need_err) { continue; }
      var rest = g.rest || "";
      if (!r.error && r.layer.id === "nccl" && rest && rest.indexOf("failed") < 0 && rest.indexOf("rror") < 0) { continue; }
      return r;
    }
    return null;
  }
  // same mirrors errvocab.Same: the error's names in the runtime and the driver.
  function same(e) {
    var v = errVocab(), out = [e.name], other = { cuda_runtime: "cuda_driver", cuda_driver: "cuda_runtime" }[e.family];
    if (e.family === "xid") { out.push("Xid " + e.code); return out; }
    if (!other) { return out; }
    var o = (v.byCode[other] || {})[e.code];
    if (o && o.text === e.text) { out.push(o.name); } else if ((o = (v.byText[other] || {})[e.text])) { out.push(o.name); }
    return out;
  }

  // composedLines mirrors report's composed messages: each line of q that
  // no result's pattern names (report.namesOnlyInner) but whose layer and inner error are known,
  // once per layer and error, with the causes of its parts: the layer's
  // entries of the error, then the error's own, then the same error met in
  // other layers, then the layer's entries of the error it returns for it
  // (report.partCauses), ordered as partOrder says.
  function composedLines(results, q, lang) {
    var seen = {}, out = [];
    q.split("\n").forEach(function (line, i) {
      if (out.length >= 20) { return; }
      var r = readLine(line.slice(0, 1000));
      if (!r || !r.error) { return; }
      // An entry names the line unless only entries of the error inside match it (report.namesOnlyInner).
      var plain = errVocab().plain.indexOf(r.layer.id) >= 0;
      if (results.some(function (x) { return x.match && (x.lines ? x.lines.indexOf(i + 1) >= 0 : line.indexOf(x.match) >= 0) && (plain || !x.generic); })) { return; }
      var key = r.layer.id + "\u0000" + r.error.family + "\u0000" + r.error.name;
      if (seen[key]) { return; }
      seen[key] = true;
      out.push({ line: i + 1, text: line.trim(), reading: r });
    });
    return Promise.all(out.map(function (c) {
      var e = c.reading.error, names = same(e), ret = (errVocab().returns[c.reading.layer.id] || {})[e.family];
      var wrapped = ret && errVocab().byName[ret];
      return Promise.all([search([e.text].concat(names).join("\n"), lang, 50), wrapped ? search(wrapped.name + "\n" + wrapped.text, lang, 50) : Promise.resolve([])]).then(function (rs) {
        var byId = {}, causes = [], kind = apiKind(c.reading.where);
        var put = function (r, group, via) {
          if (r.kind !== "entry" || byId[r.id]) { return; }
          byId[r.id] = true;
          causes.push({ result: r, truth: "unknown", reasons: [], condition: r.applies_when || "", len: Array.from(r.match || "").length,
            generic: !!r.generic, wrapper: isResult(r.match || ""), reports: r.reports || 0, confidence: r.confidence || 0, tier: 1, group: group, via: via,
            api: !!kind && (r.apis || []).indexOf(kind) >= 0 });
        };
        var dom = c.reading.layer.domain + "/";
        rs[0].forEach(function (r) {
          var named = names.indexOf(r.code) >= 0, matched = !!r.match;
          if (!named && !matched) { return; }
          if (r.id.indexOf(dom) === 0) { put(r, 0, "layer"); }
        });
        rs[1].forEach(function (r) { if (r.match) { put(r, 3, "layer"); } });
        rs[0].forEach(function (r) {
          var named = names.indexOf(r.code) >= 0, matched = !!r.match;
          if ((named || matched) && r.generic) { put(r, 1, "inner_error"); }
        });
        rs[0].forEach(function (r) { if (names.indexOf(r.code) >= 0 || r.match) { put(r, 2, "inner_error"); } });
        causes.sort(partOrder);
        c.causes = causes;
        return c;
      });
    }));
  }

  // partOrder orders a composed message's causes as report.sortParts does
  // after the facts: the layer's own entries, then those that name the kind
  // of call that failed (before a generic entry, which names none), then by
  // group, then causeOrder.
  function partOrder(a, b) {
    return (a.group === 0 ? 0 : 1) - (b.group === 0 ? 0 : 1) || (b.api ? 1 : 0) - (a.api ? 1 : 0) || a.group - b.group || causeOrder(a, b);
  }

  // errorName is an error as report.innerName writes it.
  function errorName(e) { return e.name + " (" + e.code + ", '" + e.text + "')"; }

  // renderComposed adds a box for each composed message, saying what it is
  // made of. Its parts are judged by the facts (a p2p-probe report's and the
  // paste's, or null) and ordered by them first, then as partOrder says.
  function renderComposed(section, composed, facts) {
    var t = function (k) { return section.dataset[k] || k; };
    Array.prototype.forEach.call(section.querySelectorAll(".causes.composed"), function (b) { b.remove(); });
    composed.forEach(function (c) {
      var box = el("div", "causes composed"), r = c.reading, e = r.error;
      c.causes.forEach(function (x) { var v = judge(x.result, facts, false); x.truth = v.truth; x.reasons = v.reasons; x.tier = v.tier; });
      c.causes.sort(function (a, b) { return a.tier - b.tier || partOrder(a, b); });
      if (c.causes.length) {
        box.dataset.verdict = verdictOf(c.causes);
      }
      box.dataset.line = c.line;
      box.dataset.composed = "true";
      box.dataset.layer = r.layer.id;
      box.dataset.inner = e.name;
      var head = el("p", "causes-head", t("line").replace("%d", c.line) + ": ");
      head.appendChild(el("code", "", c.text));
      box.appendChild(head);
      var layer = r.layer.name + (r.where ? " (" + r.where + ")" : "");
      box.appendChild(el("p", "composed-note", t("composed").replace("%s", layer).replace("%s", errorName(e))));
      if (!c.causes.length) {
        box.appendChild(el("p", "", t("composedNone")));
        var next = el("ol", "collect-next");
        ["collectLog", "collectTest", "collectNew"].forEach(function (k) { next.appendChild(el("li", "", t(k))); });
        box.appendChild(next);
      } else {
        var ol = el("ol", "cause-list");
        c.causes.forEach(function (x) {
          var li = el("li");
          li.dataset.causeId = x.result.id;
          li.dataset.via = x.via;
          li.dataset.truth = x.truth;
          var a = el("a", "", x.result.title + " (" + x.result.id + ")");
          a.href = root + x.result.path + "index.html";
          li.appendChild(a);
          li.appendChild(el("span", "via", " · " + t(x.via === "layer" ? "viaLayer" : "viaInner")));
          ol.appendChild(li);
        });
        box.appendChild(ol);
      }
      section.appendChild(box);
    });
    section.hidden = !section.firstChild;
  }

  // The answer to a paste with no error line, as explain gives it
  // (internal/diagnose/symptoms.go): each symptom the paste shows
  // (paste.js's symptoms, the most telling first) is a message at its line,
  // whose causes are the entries whose condition reads that fact and holds
  // with the paste's facts but not without it. meta.js lists the entries
  // with a condition in the order search.SymptomBefore ranks them; the facts
  // rank them first (judge).
  // symptomLines resolves to those messages with their entries, unjudged;
  // known says the paste holds a known note: then only the symptoms that
  // are not weak answer.
  function symptomLines(q, lang, known) {
    var P = window.p2pkbPaste, R = window.p2pkbRules;
    if (!P || !R) { return Promise.resolve([]); }
    var pasted = P.extract(q), own = P.merge(null, pasted).facts;
    var holds = function (cond, f) {
      try { return R.applies([], cond, f).truth === "applies"; } catch (e) { return false; }
    };
    // Whether the paste shows the path between GPUs (diagnose's pathShown),
    // and whether a fact read from it does, beyond its words.
    var pathFacts = pasted.some(function (p) { return P.pathFact(p.name); });
    var path = wordsQuery(q).link || pathFacts;
    return load(lang, "meta").then(function (meta) {
      var out = [];
      P.symptoms(pasted).forEach(function (sym) {
        var p = sym.fact;
        if (known && sym.weak) { return; }
        // A symptom that tells the cause of the others (paste.Explains)
        // goes without them all, as explain's does.
        var without = {};
        Object.keys(own).forEach(function (k) { if (k !== p.name && !(sym.explains && P.isSymptom(k))) { without[k] = own[k]; } });
        // The rows come in search.SymptomBefore's order; the most specific
        // (the condition reading more of the paste's facts) go first, as
        // its Reads does.
        // A release's known bug that waits only on a version the paste does
        // not state follows them, as what to check next (versionOpen).
        var docs = [], open = [];
        (meta.symptoms || []).forEach(function (row, i) {
          var names = [];
          try { names = factsIn(R.parse(row[1]), []); } catch (e) { return; }
          if (names.indexOf(p.name) < 0 || holds(row[1], without)) { return; }
          var reads = readsShown(row[1], names, own);
          if (holds(row[1], own)) {
            docs.push({ doc: row[0], reads: reads, i: i, side: row[2] === 1, version: byVersion(row[1], names, own, holds) });
          } else if (versionOpen(row[1], names, own)) {
            open.push({ doc: row[0], reads: reads, i: i, side: row[2] === 1 });
          }
        });
        // A hang, or a run said to be slow, in a paste that shows nothing
        // of the path (paste.ProgramFirst, in the table): the program's side
        // first (diagnose's symptoms). A run said to be slow stays so unless
        // a fact read from the paste shows the path; words are not enough.
        var sided = sym.programFirst && (!path || p.name === "perf.slow" && !pathFacts);
        docs = byReadsDocs(docs, sided);
        if (docs.length) { out.push({ fact: p.name, line: p.line, text: p.text.trim(), docs: docs.concat(byReadsDocs(open, sided)), own: own }); }
      });
      return Promise.all(out.map(function (m) {
        return Promise.all(m.docs.map(function (d) { return load(lang, "d" + Math.floor(d / meta.chunk)).then(function (c) { return rowResult(c[d % meta.chunk]); }); }))
          .then(function (rs) { m.results = rs; return m; });
      }));
    });
  }
  // The hang's explanations, as explain gives them (diagnose's hangFirst):
  // when every error line of the paste says only that something hung
  // (paste.js's hangLine: a watchdog's timeout, a barrier's), the entries
  // whose condition reads a hang fact and holds with the facts the software
  // printed (not those of the description), but neither without the hang
  // nor with the hang alone, come first in each such line's causes, if they
  // hold by the facts. hangExplains resolves to
  // those entries, unjudged, in meta.js's order with those reading more of
  // the paste's facts first (search.SymptomBefore), with the paste's facts
  // and meta.js's notes.
  var HANG_FACTS = ["hang.seen", "nccl.stopped_after_init"];
  // readsShown mirrors diagnose's readsShown: the facts of names, read by
  // cond, that own shows; where cond holds, only those of the part of it
  // that holds (rules.Holding).
  function readsShown(cond, names, own) {
    var R = window.p2pkbRules;
    try { var h = R.holding(R.parse(cond || ""), own); if (h) { names = h; } } catch (e) { /* names as read */ }
    return names.filter(function (n, j) { return names.indexOf(n) === j && shows(own, n, cond); }).length;
  }
  // shows mirrors rules.Facts.Shows: fact n is known, and not a yes-or-no
  // fact that is false.
  function shows(own, n, cond) {
    var v = Object.prototype.hasOwnProperty.call(own, n) ? own[n] : null;
    return !!v && v.known !== false && (!(v.kind === "bool" && v.b === false) || String(cond || "").indexOf("!" + n) >= 0);
  }
  // byReadsDocs orders meta.js rows that answer a symptom as
  // diagnose's symptoms does: those that hold by a version the paste
  // states first (byVersion), then as search.SymptomBefore does: those
  // reading more of the paste's facts first, then meta.js's order.
  // With sided, of those reading as much, the entries on the program's
  // side come before the others.
  function byReadsDocs(ds, sided) {
    return ds.sort(function (a, b) { return (b.version ? 1 : 0) - (a.version ? 1 : 0) || b.reads - a.reads || (sided ? (b.side ? 1 : 0) - (a.side ? 1 : 0) : 0) || a.i - b.i; }).map(function (d) { return d.doc; });
  }
  // byVersion mirrors diagnose's byVersion: cond, which reads names, holds
  // with own only because of a version own states.
  function byVersion(cond, names, own, holds) {
    var R = window.p2pkbRules, without = {}, stated = false;
    Object.keys(own).forEach(function (k) {
      if (names.indexOf(k) >= 0 && R.versionFact(k)) { stated = true; } else { without[k] = own[k]; }
    });
    return stated && holds(cond, own) && !holds(cond, without);
  }
  // versionOpen mirrors diagnose's versionOpen and waitsOnVersion: condition
  // cond, which reads names, is neither true nor false with the paste's facts
  // own, and every fact it reads that own lacks is a version or what a run
  // did (paste.Outcome), at least one a version.
  function versionOpen(cond, names, own) {
    var P = window.p2pkbPaste, R = window.p2pkbRules, version = false;
    try { if (R.applies([], cond, own).truth !== "unknown") { return false; } } catch (e) { return false; }
    for (var i = 0; i < names.length; i++) {
      if (Object.prototype.hasOwnProperty.call(own, names[i])) { continue; }
      if (!R.versionFact(names[i]) && !P.outcome(names[i])) { return false; }
      version = version || R.versionFact(names[i]);
    }
    return version;
  }
  function hangExplains(q, lang) {
    var P = window.p2pkbPaste, R = window.p2pkbRules;
    if (!P || !R || !P.hangLine) { return Promise.resolve(null); }
    // The facts the software printed: a person's words do not move ahead of the program's line.
    var pasted = P.extract(q), withWords = P.merge(null, pasted).facts;
    var own = P.merge(null, pasted.filter(function (p) { return p.source !== P.said; })).facts, without = {}, alone = {};
    Object.keys(own).forEach(function (k) { if (HANG_FACTS.indexOf(k) >= 0) { alone[k] = own[k]; } else { without[k] = own[k]; } });
    if (!Object.keys(alone).length) { return Promise.resolve(null); }
    var holds = function (cond, f) {
      try { return R.applies([], cond, f).truth === "applies"; } catch (e) { return false; }
    };
    return load(lang, "meta").then(function (meta) {
      var docs = [], open = [];
      (meta.symptoms || []).forEach(function (row, i) {
        var names = [];
        try { names = factsIn(R.parse(row[1]), []); } catch (e) { return; }
        if (!names.some(function (n) { return HANG_FACTS.indexOf(n) >= 0; }) || holds(row[1], without)) { return; }
        var reads = readsShown(row[1], names, own);
        if (holds(row[1], own) && !holds(row[1], alone)) {
          docs.push({ doc: row[0], reads: reads, i: i });
        } else if (versionOpen(row[1], names, own)) {
          open.push({ doc: row[0], reads: reads, i: i });
        }
      });
      docs = byReadsDocs(docs);
      var notes = {}, all = docs.concat(byReadsDocs(open));
      (meta.notes || []).forEach(function (id) { notes[id] = true; });
      return Promise.all(all.map(function (d) { return load(lang, "d" + Math.floor(d / meta.chunk)).then(function (c) { return rowResult(c[d % meta.chunk]); }); }))
        .then(function (rs) { return { own: own, withWords: withWords, results: rs.slice(0, docs.length), open: rs.slice(docs.length), notes: notes }; });
    });
  }
  // hangFirst puts the hang's explanations that hold by the facts (the
  // panel's, else the paste's own) first in the causes of each group of a
  // line that says only that something hung, when every error line does
  // (a group whose causes are all notes is no error line; a composed line is
  // one, and no hang line).
  function hangFirst(groups, hang, composed, facts) {
    var P = window.p2pkbPaste;
    if (!hang || composed.length) { return groups; }
    var errs = groups.filter(function (g) { return !g.causes.every(function (c) { return hang.notes[c.result.id]; }); });
    if (!errs.length || !errs.every(function (g) { return P.hangLine(g.text.slice(0, 1000)); })) { return groups; }
    var f = facts || hang.own;
    var judged = function (rs) {
      return rs.map(function (r) {
        var v = judge(r, f, true);
        return { result: r, truth: v.truth, reasons: v.reasons, condition: r.applies_when || "", tier: v.tier };
      });
    };
    // The explanations that hold go ahead of the line's causes; a
    // release's known hang not ruled out follows them (versionOpen).
    var ahead = judged(hang.results).filter(function (c) { return c.tier === 0; });
    var after = judged(hang.open);
    // byReads (diagnose): the line's own causes, at each tier, by how many
    // of the paste's facts, the description's too, their conditions read.
    var own = hang.withWords, R = window.p2pkbRules;
    var reads = function (c) {
      var names = [];
      try { names = factsIn(R.parse(c.condition || ""), []); } catch (e) { return 0; }
      return readsShown(c.condition, names, own);
    };
    errs.forEach(function (g) {
      g.causes = g.causes.slice().sort(function (a, b) { return a.tier - b.tier || reads(b) - reads(a); });
      var absent = function (c) { return !g.causes.some(function (x) { return x.result.id === c.result.id; }); };
      g.causes = ahead.filter(absent).concat(g.causes);
      g.causes = g.causes.concat(after.filter(absent));
      conclude(g, f);
    });
    return groups;
  }

  // symptomGroups judges the causes of each symptom by the facts (the
  // panel's, else the paste's own, as explain judges by both) as causes of a
  // message shown whatever their number.
  function symptomGroups(lines, facts) {
    return lines.map(function (m) {
      var f = facts || m.own, g = { line: m.line, text: m.text, symptom: true };
      g.causes = m.results.map(function (r) {
        var v = judge(r, f, true);
        return { result: r, truth: v.truth, reasons: v.reasons, condition: r.applies_when || "", tier: v.tier };
      });
      g.causes.sort(function (a, b) { return a.tier - b.tier; });
      conclude(g, f);
      return g;
    });
  }

  // The answer to a paste in which nothing is recognized: the entries
  // closest to its prose, as explain gives them (internal/search/words.go,
  // internal/diagnose/words.go), with the limits Go writes to the table.
  var W = T.words;
  // search.notProse: a program's lines that read as words (collect_env, INFO).
  var NOT_PROSE = new RegExp(W.notProse);
  var TABLE_ROW = /^\s*(?:#?\s*[\p{L}\p{N}][\p{L}\p{N}_ .,#\/()-]{0,60}?(?:\s+[:=]\s|:\s*\S*\s*$)|"[^"]*"\s*:)/u;
  var FIGURE = /^\p{N}[\p{N}.,%\/:-]*$/u, LOWER = /^(?:\p{Ll}+|\p{Script=Han}+)$/u, LETTER = /^\p{L}$/u, DIGIT = /^\p{Nd}$/u;
  var utf8Len = function (s) { return new TextEncoder().encode(s).length; };
  function proseWord(t) {
    var cps = Array.from(t);
    if (cps.length < 2) { return false; }
    for (var i = 0; i < cps.length; i++) {
      if (LETTER.test(cps[i])) { continue; }
      if (i === 0 || !(DIGIT.test(cps[i]) || "_-'./".indexOf(cps[i]) >= 0)) { return false; }
    }
    return true;
  }
  // prose mirrors search.Prose: a line of words, not a program's table; a
  // sentence that quotes a command in backticks is prose when its words
  // outside the quotes are.
  function prose(line) {
    if (proseLine(line)) { return true; }
    return (line.match(/`/g) || []).length >= 2 && utf8Len(line) <= W.maxProseLine && proseLine(line.replace(/`[^`]*`/g, " ").split(/\s+/).filter(Boolean).join(" "));
  }
  function proseLine(line) {
    if (utf8Len(line) > W.maxProseLine || TABLE_ROW.test(line) || /\t| {3}/.test(line.trim()) || NOT_PROSE.test(line)) { return false; }
    var words = 0, lower = 0, tokens = 0;
    // A line with Han characters is also cut at punctuation (search.proseTokens).
    line.split(HAN_ANY.test(line) ? HAN_CUT : /\s+/).forEach(function (t) {
      t = t.replace(/^[("'[{<*`]+/, "").replace(/[.,;:!?)"'\\\]}>*`]+$/, "");
      if (!t || FIGURE.test(t)) { return; }
      // A run of Han characters counts as the words of two characters it holds.
      var n = Math.max(1, Math.floor(Array.from(t).filter(function (c) { return HAN.test(c); }).length / 2));
      tokens += n;
      if (proseWord(t)) { words += n; if (LOWER.test(t)) { lower += n; } }
    });
    return words >= W.proseWords && lower >= 2 && 4 * words >= 3 * tokens;
  }
  // wordsQuery mirrors diagnose's wordsQuery: the paste's distinct prose
  // lines from the first, until they hold the words a search ranks by.
  var LOG_LINE = new RegExp(W.logLine), PERSON = new RegExp(W.person.replace(/^\(\?i\)/, ""), "i");
  var HAN_CUT = new RegExp("[\\s" + W.hanCut.replace(/[\]\\^\-\[]/g, "\\$&") + "]+", "u");
  // LINK mirrors search.LinkWords: words of the path between GPUs.
  var LINK = new RegExp(W.linkWords.replace(/^\(\?i\)/, ""), "i");
  // VERSION_SAID mirrors search.DropVersionWord: "version" before a number.
  var VERSION_SAID = new RegExp(W.versionSaid.replace(/^\(\?i\)/, ""), "gi");
  // told mirrors search.Told: a sentence a person wrote, not a program's line.
  function told(l) {
    var P = window.p2pkbPaste, t = l.trim();
    return !!P && P.strip(l) === t && !LOG_LINE.test(t);
  }
  function wordsQuery(text) {
    var lines = text.split("\n"), taken = {}, seen = {}, toldSeen = {}, nterms = 0, ntold = 0, person = false, out = [], bytes = 0, used = 0, full = false, partial = false;
    var read = 0, link = false;
    if (lines.length && lines[lines.length - 1] === "") { lines.pop(); }
    for (var i = 0; i < lines.length && !partial; i++) {
      var l = lines[i].replace(/\r$/, "");
      // Any line of the head, prose or not, may speak of the path (diagnose's wordsQuery.link).
      read += utf8Len(l) + 1;
      if (!link && read <= W.scanBytes && LINK.test(l)) { link = true; }
      if (full) { if (!taken["~" + l] && /\p{L}/u.test(l)) { partial = true; } continue; }
      if (taken["~" + l] || !prose(l)) { continue; }
      taken["~" + l] = true;
      l = l.replace(VERSION_SAID, "$1");
      var room = W.maxBytes - bytes - 1, b = utf8Len(l);
      if (b > room) { full = partial = true; continue; }
      var byPerson = told(l);
      person = person || byPerson && PERSON.test(l);
      terms(l).forEach(function (t) {
        if (/^[0-9]+$/.test(t) || nterms >= W.maxTerms) { return; }
        if (!seen[t]) { seen[t] = true; nterms++; }
        if (byPerson && !toldSeen[t]) { toldSeen[t] = true; ntold++; }
      });
      out.push(l);
      bytes += b + (out.length > 1 ? 1 : 0);
      used = i + 1;
      if (nterms >= W.maxTerms) { full = true; }
    }
    return { query: out.join("\n"), terms: nterms, told: person ? ntold : 0, lines: used, of: lines.length, partial: partial, link: link };
  }
  // wordsLang is the language whose pages rank text's words (search.WordsLang):
  // W.hanLang when text holds at least as many Han characters as other words.
  function wordsLang(text) {
    var han = (text.match(HAN_ALL) || []).length;
    if (!han) { return W.lang; }
    var other = terms(text).filter(function (t) { return !HAN_ANY.test(t) && !/^[0-9]+$/.test(t); }).length;
    return han >= other ? W.hanLang : W.lang;
  }
  // closestByWords resolves to the entries closest to q's prose (search.Index.Closest), or null.
  // Prose is ranked by the words of its own language's pages whatever the
  // reader's (search.WordsLang), and its entries shown in lang: an entry's
  // title, its signature, is the same in each.
  function closestByWords(q, lang) {
    var w = wordsQuery(q);
    if (!w.query) { return Promise.resolve(null); }
    var by = wordsLang(w.query);
    return search(w.query, by, W.results).then(function (res) {
      // From the first entry that reaches the floors (search.Index.Closest).
      var floor = w.terms >= W.longWords ? W.minSharedLong : W.minShared, entries = res.filter(function (r) { return r.kind === "entry"; }), i = 0;
      while (i < entries.length && (entries[i].score < W.minScore || (entries[i].shared || 0) < floor)) { i++; }
      var from = entries.slice(i);
      if (!from.length) { return null; }
      if (by !== lang) {
        from = from.map(function (r) { var x = Object.assign({}, r); x.path = lang + r.path.slice(by.length); return x; });
      }
      w.entries = from.slice(0, W.closest);
      // The rest, where renderByWords finds the closest entry on the program's side.
      w.from = from;
      return w;
    });
  }
  // renderByWords shows the closest entries in a box marked as such, never
  // as a recognized message, each judged by the facts as explain judges it.
  function renderByWords(section, w, facts, known) {
    var t = function (k) { return section.dataset[k] || k; };
    // Beside recognized lines, only the entries that are not already a
    // cause, after the results: the recognized answer comes first. Before
    // a consumer GPU's causes (w.before, diagnose's gpuOnly), all of them,
    // first.
    var where = w.beside && !w.before ? document.getElementById("search-beside") : section;
    Array.prototype.forEach.call(where.querySelectorAll(".causes.by-words"), function (b) { b.remove(); });
    var skip = function (r) { return w.beside && !w.before && known[r.id]; };
    var entries = w.entries.filter(function (r) { return !skip(r); });
    if (!entries.length) { return; }
    // When none of them is on the program's side and the words speak of no
    // path, the closest entry that is joins them, and comes first below
    // (diagnose's byWords).
    var link = LINK.test(w.query);
    if (!link && !entries.some(function (r) { return r.program_side; })) {
      var extra = (w.from || []).filter(function (r) { return r.program_side && !skip(r); })[0];
      if (extra) { entries = entries.concat([extra]); }
    }
    var box = el("div", "causes by-words");
    box.dataset.byWords = "true";
    if (w.beside) { box.dataset.beside = "true"; }
    if (w.before) { box.dataset.before = "true"; }
    var key = w.before ? "beforeWords" : w.beside ? "besideWords" : "byWords";
    box.appendChild(el("p", "causes-head", w.partial ? t(key + "Part").replace("%d", w.lines).replace("%d", w.of).replace("%d", w.terms) : t(key)));
    var causes = entries.map(function (r, i) {
      var v = judge(r, facts, false);
      return { r: r, i: i, truth: v.truth, reasons: v.reasons, tier: v.tier };
    });
    // The facts first, the words' order within each tier; then, for words
    // that speak of no path between GPUs, the entries on the program's side
    // first, before those that hold by what the machine is, the ruled-out
    // last (diagnose's byWords), said when that moved one before a closer
    // one (its Words.ProgramFirst).
    causes.sort(function (a, b) { return a.tier - b.tier || a.i - b.i; });
    if (!link) {
      var order = causes.map(function (c) { return c.r.id; }).join(" ");
      causes.sort(function (a, b) {
        return (a.tier === 2 ? 1 : 0) - (b.tier === 2 ? 1 : 0) || (b.r.program_side ? 1 : 0) - (a.r.program_side ? 1 : 0) || a.tier - b.tier || a.i - b.i;
      });
      if (causes.map(function (c) { return c.r.id; }).join(" ") !== order) {
        box.dataset.programFirst = "true";
        box.appendChild(el("p", "causes-note", t("programFirst")));
      }
    }
    box.dataset.verdict = verdictOf(causes);
    var ol = el("ol", "cause-list");
    causes.forEach(function (c) {
      ol.appendChild(causeItem(section, c.r, c.truth, c.reasons, facts, ""));
    });
    box.appendChild(ol);
    if (w.before) { where.insertBefore(box, where.firstChild); } else { where.appendChild(box); }
    where.hidden = false;
  }

  // rankCauses puts each message's causes in the result list in their order.
  function rankCauses(results, groups) {
    var pos = {};
    groups.forEach(function (g, i) { g.causes.forEach(function (c, j) { if (!pos[c.result.id]) { pos[c.result.id] = [i, j]; } }); });
    var matched = results.filter(function (r) { return pos[r.id]; }).sort(function (a, b) {
      return pos[a.id][0] - pos[b.id][0] || pos[a.id][1] - pos[b.id][1];
    });
    return matched.concat(results.filter(function (r) { return !pos[r.id]; }));
  }

  // The "Report this error" link, as internal/issue makes it: the pasted
  // text trimmed to the lines that look like errors, within a URL length the
  // tracker accepts, and the facts only when the person has agreed.
  var ISSUE = T.issue, WORDS = ISSUE.words, ERRORISH = new RegExp(ISSUE.errorish, "i");
  var clip = function (s, n) { var cps = Array.from(s); return cps.length <= n ? s : cps.slice(0, n - 1).join("") + "…"; };
  function issueLines(text) {
    var all = [], errs = [], seen = {};
    text.split("\n").forEach(function (l) {
      var full = l.replace(/\r$/, "").trim();
      l = clip(full, ISSUE.lineRunes);
      if (!l || seen["~" + l]) { return; }
      seen["~" + l] = true;
      all.push(l);
      if (ERRORISH.test(full)) { errs.push(l); }
    });
    if (!errs.length) { errs = all; }
    return { lines: errs.slice(0, ISSUE.maxLines), more: Math.max(0, errs.length - ISSUE.maxLines) };
  }
  function issueURL(repo, text, facts) {
    var t = issueLines(text), lines = t.lines, more = t.more;
    var title = WORDS.title + (lines.length ? ": " + clip(lines[0], ISSUE.titleRunes) : "");
    for (;;) {
      var body = WORDS.lines +
        lines.map(function (l) { return l.split("```").join("'''") + "\n"; }).join("") + WORDS.linesEnd +
        (more > 0 ? WORDS.more.replace("%d", more) : "") +
        (facts && facts.length ? WORDS.facts + facts.map(function (f) { return WORDS.fact + f + "\n"; }).join("") : "");
      var u = repo.replace(/\/+$/, "") + "/issues/new?title=" + encodeURIComponent(title) + "&body=" + encodeURIComponent(body);
      if (u.length <= ISSUE.maxURL || lines.length <= 1) { return u; }
      lines = lines.slice(0, -1);
      more++;
    }
  }

  // factLines are the machine's known facts as "name: value" lines for a
  // report (rules.js makes each fact {known, kind, b, n, s}).
  function factLines(facts) {
    var out = [];
    Object.keys(facts || {}).sort().forEach(function (k) {
      var f = facts[k];
      if (!f || !f.known) { return; }
      var v = f.kind === "bool" ? String(!!f.b) : f.kind === "num" ? String(f.n) : String(f.s || "");
      if (v) { out.push(k + ": " + v); }
    });
    return out;
  }

  // reportBox offers "Report this error" when nothing was found: the link is
  // made anew whenever the consent box or the machine's facts change.
  function reportBox(q) {
    var box = document.getElementById("search-report");
    if (!box) { return; }
    var link = box.querySelector("a"), consent = box.querySelector("input"), note = box.querySelector(".report-facts");
    var update = function () {
      var facts = factLines(machineFacts());
      note.hidden = !facts.length;
      link.href = issueURL(box.dataset.repo, q, consent.checked ? facts : []);
    };
    consent.addEventListener("change", update);
    document.addEventListener("p2pkb-machine", update);
    update();
    box.hidden = false;
  }

  function machineFacts() {
    return window.p2pkbMachine && window.p2pkbMachine.facts ? window.p2pkbMachine.facts() : null;
  }

  // A query holds at most MAX_QUERY bytes, as on the server
  // (search.MaxQueryBytes): one in the address that is longer is refused
  // with a message, never searched in part (site.js stops the forms).
  var MAX_QUERY = 64 << 10;
  function tooLong(q) {
    return q.length > MAX_QUERY || q.length * 3 > MAX_QUERY && new TextEncoder().encode(q).length > MAX_QUERY;
  }

  function page() {
    var list = document.getElementById("search-results");
    if (!list) { return; }
    var lang = document.body.dataset.lang, input = document.getElementById("search-page-q");
    var status = document.getElementById("search-status"), hint = document.getElementById("search-hint");
    var q = new URLSearchParams(location.search).get("q") || "";
    if (tooLong(q)) { status.textContent = document.body.dataset.queryTooLong; document.body.dataset.searchDone = "refused"; return; }
    input.value = q;
    // The box keeps a pasted log's lines; Enter searches, Shift+Enter starts a line.
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); input.form.requestSubmit(); }
    });
    if (!q.trim()) { input.focus(); return; }
    status.textContent = status.dataset.searching;
    var causes = document.getElementById("search-causes"), shown = null, composed = [], closest = null, symptoms = [], hang = null, noteIds = {};
    var showCauses = function () {
      if (!shown || !causes) { return; }
      var facts = machineFacts(), groups = symptomGroups(symptoms, facts).concat(hangFirst(causeGroups(shown, q, facts), hang, composed, facts));
      // A line a healthy run prints too whose every cause the facts rule
      // out tells nothing (diagnose's silent).
      groups = groups.filter(function (g) {
        return g.symptom || g.verdict !== "ruled_out" || !g.causes.every(function (c) { return noteIds[c.result.id]; });
      });
      renderCauses(causes, groups, facts);
      renderComposed(causes, composed, facts);
      if (closest) {
        // Beside recognized lines, the entries already a cause are left out.
        var known = {};
        shown.forEach(function (r) { if (r.kind === "entry" && r.match) { known[r.id] = true; } });
        groups.forEach(function (g) { g.causes.forEach(function (c) { known[c.result.id] = true; }); });
        composed.forEach(function (c) { c.causes.forEach(function (x) { known[x.result.id] = true; }); });
        renderByWords(causes, closest, facts, known);
        if (closest.before) {
          // The closest entries lead the result list as they lead the causes.
          groups = [{ causes: closest.entries.map(function (r) { return { result: r }; }) }].concat(groups);
        }
      }
      return groups;
    };
    document.addEventListener("p2pkb-machine", function () {
      if (!shown) { return; }
      // Move the result items rather than draw them again: they carry the machine's marks.
      var items = {};
      Array.prototype.forEach.call(list.children, function (li) { items[li.dataset.resultId] = li; });
      rankCauses(shown, showCauses()).forEach(function (r) { if (items[r.id]) { list.appendChild(items[r.id]); } });
    });
    search(q, lang).then(function (results) {
      return composedLines(results, q, lang).then(function (c) { composed = c; return results; });
    }).then(function (results) {
      // No error line: what the paste shows, as explain answers (a known
      // note leaves only the symptoms that say more than it).
      return load(lang, "meta").then(function (meta) {
        var notes = {}, matched = results.filter(function (r) { return r.kind === "entry" && r.match; });
        (meta.notes || []).forEach(function (id) { notes[id] = true; });
        noteIds = notes;
        // Composed lines that no cause answers, and lines that only an
        // entry of their shape answers, leave the paste's symptoms to answer
        // first, as explain does (diagnose's allBare).
        if (composed.some(function (c) { return c.causes.length > 0; })) { return results; }
        // Error lines: those that say only that something hung are answered
        // with what explains the hang first (hangFirst).
        // A version said to work set against one said to fail, or a riser
        // said to carry a card, names their cause too: its entries come
        // first (diagnose's storyBeside, paste.Beside).
        if (matched.some(function (r) { return !notes[r.id] && !r.shape; })) {
          return hangExplains(q, lang).then(function (h) {
            hang = h;
            return symptomLines(q, lang, matched.some(function (r) { return notes[r.id]; }));
          }).then(function (s) {
            symptoms = s.filter(function (m) { return window.p2pkbPaste.beside(m.fact); });
            return results;
          });
        }
        return symptomLines(q, lang, matched.some(function (r) { return notes[r.id]; })).then(function (s) { symptoms = s; return results; });
      });
    }).then(function (results) {
      // No line recognized: the entries closest to the paste's words, as
      // explain answers; beside recognized lines, those closest to a
      // description long enough to tell a story (search.LongWords).
      var recognized = results.some(function (r) { return r.match; }) || composed.length > 0 || symptoms.length > 0;
      // Only a consumer GPU named, with a description that speaks of no
      // path between GPUs: its closest entries first (diagnose's gpuOnly).
      var wq = wordsQuery(q), gpuOnly = symptoms.length > 0 && symptoms.every(function (m) { return m.fact === "gpu.consumer"; }) && !LINK.test(wq.query);
      // Recognized lines that no cause answers (an error no entry names,
      // inside a layer none names either) leave the words to answer when
      // other lines hold words, as in explain (diagnose's anyCause and
      // errorLine): an error line alone is answered by what it is made of.
      var causeless = !results.some(function (r) { return r.kind === "entry" && r.match && !r.shape; }) && !symptoms.length &&
        composed.every(function (c) { return !c.causes.length; }) &&
        wq.query.split("\n").some(function (l) {
          var r = readLine(l.slice(0, 1000));
          // A program's own check alone is answered by its shape's entry (diagnose's shapeLine).
          return l !== "" && !(r && r.error) && !results.some(function (x) { return x.shape && x.match && l.indexOf(x.match) >= 0; });
        });
      if (recognized && wq.told < W.longWords && !gpuOnly && !causeless) { return results; }
      return closestByWords(q, lang).then(function (w) { if (w) { w.beside = recognized; w.before = gpuOnly; } closest = w; return results; });
    }).then(function (results) {
      shown = results;
      results = rankCauses(results, showCauses());
      render(list, results, q);
      status.textContent = results.length ? status.dataset.found.replace("%d", results.length) : "";
      hint.hidden = results.length > 0;
      // Nothing found, or a pasted message that no entry's signature matches: the KB lacks it.
      if (!results.length || terms(q).length > 4 && !results.some(function (r) { return r.match; }) && !symptoms.length || composed.length) { reportBox(q); }
      // A pasted log also carries facts: they judge the results where no probe report does.
      if (window.p2pkbMachine) { window.p2pkbMachine.paste(q); }
      document.body.dataset.searchDone = "true";
    }, function (err) {
      status.textContent = err.message;
      document.body.dataset.searchDone = "error";
    });
    // Keyboard: arrows move through the results, Escape returns to the box.
    document.addEventListener("keydown", function (ev) {
      var links = Array.prototype.slice.call(list.querySelectorAll("a"));
      var i = links.indexOf(document.activeElement);
      var onLastLine = document.activeElement === input && input.value.indexOf("\n", input.selectionEnd) < 0;
      if (ev.key === "ArrowDown" && (onLastLine || i >= 0)) {
        if (links[i + 1]) { links[i + 1].focus(); ev.preventDefault(); }
      } else if (ev.key === "ArrowUp" && i >= 0) {
        (i === 0 ? input : links[i - 1]).focus();
        ev.preventDefault();
      } else if (ev.key === "Escape" && i >= 0) {
        input.focus();
      }
    });
  }

  window.p2pkbSearch = { add: add, analyze: analyze, terms: terms, hash: hash, search: search, searchIndex: searchIndex, causeGroups: causeGroups, issueLines: issueLines, readLine: readLine,
    prose: prose, wordsLang: wordsLang, wordsQuery: wordsQuery, closestByWords: closestByWords, symptomLines: symptomLines, isResult: isResult };
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", page); } else { page(); }
})();
