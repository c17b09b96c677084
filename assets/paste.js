// p2pkb paste facts in the browser: internal/paste ported line for line.
// Pasted text (nvidia-smi topo, the CUDA P2P samples, NCCL_DEBUG=INFO,
// lspci, dmesg, tracebacks and banners) becomes the facts p2p-probe gives,
// each with the line it came from. internal/paste/testdata/cases.json holds
// the cases both sides run. Pasted text is only read, never shown as markup.
(function () {
  "use strict";
  var MAX_TEXT = 300, MAX_LINE = 1024, MAX_GPUS = 64, MAX_ENV = 64;

  var PREFIXES = /^(?:\[(?:rank|default)?\d+\]:|\[\d+,\d+\]<std(?:out|err)>:|\d+: |\([A-Za-z]*\s*pid=\d+[^)]*\)|>+|\[\s*\d+\.\d+\]|\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}\]|\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]+ [\w.\-\[\]]+:|[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [^\]\s]+\]|[\w.-]+:\d+:\d+ \[\d+\])/;
  var ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;

  var RE = {
    p2pMode: /-p2p ([rwnap]+)\b/,
    bwStart: /P2P \(Peer-to-Peer\) GPU Bandwidth Latency Test|^P2P Connectivity Matrix|^(?:Unidirectional|Bidirectional) P2P=(?:Enabled|Disabled) Bandwidth|^P2P=(?:Enabled|Disabled) Latency/,
    device: /^Device:? (\d+)[:,] (.+?)(?:, pciBusID|\s+\(|$)/,
    canAccess: /Device=(\d+) (CAN|CANNOT) Access Peer Device=(\d+)/,
    peerAccess: /Peer access from (.+?) \(GPU(\d+)\) -> (.+?) \(GPU(\d+)\) : (Yes|No)/,
    devCount: /CUDA-capable device count: (\d+)/,
    ncclVersion: /NCCL version:? (\d+\.\d+\.\d+)/,
    ncclDriver: /NCCL INFO cudaDriverVersion (\d+)/,
    ncclEnv: /\b(NCCL_[A-Z0-9_]+) set by environment to (.*)$/,
    channel: /Channel \d+(?:\/\d+)? : \d+\[[0-9a-fx]+\] -> \d+\[[0-9a-fx]+\](?: \[(?:send|receive)\])? via (P2P|SHM|NET)\//,
    ncclHost: /([\w.-]+):\d+:\d+ \[\d+\] NCCL /,
    nodes: /NCCL INFO comm 0x[0-9a-f]+ rank \d+ nRanks \d+ nNodes (\d+)/,
    refused: /P2P is disabled between (?:NVLINK )?connected GPUs|Could not enable P2P between/,
    acs: /ACSCtl:\s/,
    redirect: /ReqRedir\+|CmpltRedir\+/,
    amdFault: /AMD-Vi: Event logged \[IO_PAGE_FAULT/,
    dmar: /DMAR: ?\[DMA (?:Read|Write)/,
    iommuOn: /DMAR: IOMMU enabled|AMD-Vi: Found IOMMU|Adding to iommu group|iommu: Default domain type: (Translated|Passthrough)/,
    xid: /NVRM: Xid \([^)]*\): (\d+)/,
    nvrm: /NVRM: loading NVIDIA UNIX .*?Kernel Module(?: for \S+)?\s+(\d+\.\d+(?:\.\d+)?)/,
    cmdline: /(?:^|Kernel command line: |Command line: )(BOOT_IMAGE=.*|.*\b(?:intel_iommu|amd_iommu|iommu)(?:\.passthrough)?=.*)/,
    iommuArg: /(?:^|\s)(intel_iommu|amd_iommu|iommu|iommu\.passthrough)=(\S+)/g,
    driver: /(CUDA )?Driver Version"?\s*:\s*"?(\d+(?:\.\d+)*)/,
    smiCUDA: /CUDA Version\s*:\s*(\d+\.\d+)/,
    envDriver: /Nvidia driver version\s*: (\d+\.\d+(?:\.\d+)?)/,
    nvcc: /Cuda compilation tools, release (\d+\.\d+), V/,
    runtime: /CUDA runtime version"?\s*:?\s*"?(\d+(?:\.\d+)*)/i,
    torch: /PyTorch version\s*: (\d\S*)|\btorch==(\d\S*)|^torch (\d+\.\d+\S*) cuda /,
    tf: /TensorFlow version:? (\d\S*)|\btensorflow(?:-gpu)?==(\d\S*)/i,
    jax: /^jax:\s+(\d\S*)|\bjax==(\d\S*)/,
    jaxlib: /^jaxlib:\s+(\d\S*)|\bjaxlib==(\d\S*)/,
    vllm: /vLLM Version\s*: v?(\d\S*)|\bvllm==(\d\S*)|vLLM API server version v?(\d\S*)|LLM engine \(v(\d[^)\s]*)\)/,
    pipNCCL: /\bnvidia-nccl-cu\d+==(\d\S*)/,
    consumer: /\bGeForce\b|\bTITAN (?:RTX|V|Xp?)\b/,
    dataCentre: /\bTesla [A-Z]?\d+|\bNVIDIA (?:[ABHLV]\d+[A-Za-z]?\b|G[HB]200\b|RTX (?:A\d+|PRO|\d+ Ada)\b|Quadro\b)/,
    wsl: /microsoft-standard-WSL2|\/usr\/lib\/wsl\/lib|\bWSL2\b/,
    container: /\/\.dockerenv|\bdocker run\b|nvidia-container-cli|\bpodman run\b|\b[Aa]pptainer\b|\b[Ss]ingularity>|\benroot\b|\bpyxis\b/,
    migCurrent: /^Current\s*:\s*(Enabled|Disabled)/,
    migDevice: /^MIG \d+g\.\d+gb\s+Device\s+\d+:/,
    virtMode: /^Virtualization Mode\s*:\s*(Pass-Through|VGPU|None)\b/,
    slurm: /\bSLURM_(?:JOB_ID|PROCID|LOCALID|STEP_ID|NODELIST)\b|^srun: |^slurmstepd: |\bsalloc: /,
    gpuName: /^GPU(\d+)$/,
    topoCell: /^(?:NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$/,
    p2pCell: /^(?:OK|CNS|GNS|TNS|NS|DR|U)$/,
    bwTitle: /^(Unidirectional|Bidirectional) P2P=(Enabled|Disabled) Bandwidth/,
    bwHeader: /^(?:D\\D|GPU|CPU)(?:\s+\d+)+$/,
    bwRow: /^(\d+)((?:\s+(?:\d+(?:\.\d+)?|inf|nan|-))+)$/
  };

  var encoder = new TextEncoder(), decoder = new TextDecoder();
  // cut keeps MAX_TEXT bytes of UTF-8, as Go does.
  function cut(s) {
    s = s.replace(/\r+$/, "");
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
  function fields(s) { s = s.trim(); return s === "" ? [] : s.split(/\s+/); }
  function ev() { return { set: false, line: 0, text: "" }; }
  function mark(e, n, text) { if (!e.set) { e.set = true; e.line = n; e.text = text; } }
  function grid(v) { var g = []; for (var i = 0; i < MAX_GPUS; i++) { g.push(new Array(MAX_GPUS).fill(v)); } return g; }
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
    this.acs = { any: ev(), redirect: ev() }; this.consumer = ev(); this.dataCentre = ev();
    this.simple = { seen: false, verifyKO: ev(), passed: ev(), ran: ev() };
    this.mig = { next: false, on: ev(), seen: ev() };
    this.envCount = 0;
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

  X.line = function (n, raw) {
    raw = head(raw);
    var s = strip(raw);
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
      this.bw = { cur: -1, conn: false, mats: [null, null, null, null], ran: ev(), onFirst: ev(), devices: 0, devLine: ev() };
      this.bwLine(s, n, raw);
      return;
    }
    if (s.indexOf("NCCL") >= 0) { this.ncclLine(s, n, raw); }
    if (s.indexOf("Device") >= 0 && (m = RE.canAccess.exec(s))) {
      this.addPair(parseInt(m[1], 10), parseInt(m[3], 10), m[2] === "CAN", n, raw, "p2pBandwidthLatencyTest");
    }
    if (s.indexOf("Peer access from") >= 0 && (m = RE.peerAccess.exec(s))) {
      this.addPair(parseInt(m[2], 10), parseInt(m[4], 10), m[5] === "Yes", n, raw, "simpleP2P");
      this.simple.seen = true;
    }
    if ((m = RE.devCount.exec(s))) { this.set("gpu.count", "num", trimNum(m[1]), 2, n, raw, "simpleP2P"); this.simple.seen = true; }
    if (s.indexOf("Verification error @ element") === 0) { mark(this.simple.verifyKO, n, raw); mark(this.simple.ran, n, raw); }
    if (this.simple.seen) {
      if (s.indexOf("Test passed") === 0) { mark(this.simple.passed, n, raw); }
      else if (s.indexOf("Test failed") === 0) { mark(this.simple.verifyKO, n, raw); }
      else if (s.indexOf("cudaMemcpyPeer / cudaMemcpy between") === 0 || s.indexOf("Run kernel on GPU") === 0) { mark(this.simple.ran, n, raw); }
    }
    this.kernelLine(s, n, raw);
    this.versionLine(s, n, raw);
  };

  // gpuLine reads what nvidia-smi -q and -L say of MIG and virtualization.
  X.gpuLine = function (s, n, raw) {
    var m;
    if (this.mig.next) {
      this.mig.next = false;
      if ((m = RE.migCurrent.exec(s))) { mark(this.mig.seen, n, raw); if (m[1] === "Enabled") { mark(this.mig.on, n, raw); } }
    }
    if (s === "MIG Mode") { this.mig.next = true; }
    if (s.indexOf("MIG ") === 0 && RE.migDevice.test(s)) { mark(this.mig.on, n, raw); }
    if (s.indexOf("Virtualization Mode") === 0 && (m = RE.virtMode.exec(s))) {
      this.set("virtualized", "bool", String(m[1] !== "None"), 1, n, raw, "nvidia-smi");
    }
  };

  X.ncclLine = function (s, n, raw) {
    var m, c = this.nccl;
    if ((m = RE.ncclVersion.exec(s))) {
      this.set("nccl.version", "version", m[1], 1, n, raw, /NCCL (?:INFO|WARN)/.test(s) ? "NCCL" : "traceback");
    }
    if (s.indexOf("NCCL INFO") < 0 && s.indexOf("NCCL WARN") < 0) { return; }
    if ((m = RE.ncclHost.exec(raw)) && c.hosts.length < 2 && (c.hosts.length === 0 || c.hosts[0] !== m[1])) { c.hosts.push(m[1]); }
    if ((m = RE.ncclDriver.exec(s))) { this.set("cuda.driver", "version", cudaInt(m[1]), 2, n, raw, "NCCL"); }
    if ((m = RE.ncclEnv.exec(s))) {
      var known = Object.prototype.hasOwnProperty.call(this.f, "env." + m[1]);
      if (known || this.envCount < MAX_ENV) {
        if (!known) { this.envCount++; }
        this.set("env." + m[1], "str", m[2].trim().replace(/\.$/, ""), 1, n, raw, "NCCL");
      }
    }
    if ((m = RE.channel.exec(s))) { mark(c.seen[{ P2P: 0, SHM: 1, NET: 2 }[m[1]]], n, raw); mark(c.firstChannel, n, raw); }
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
    if (s.indexOf("iommu") >= 0 || s.indexOf("BOOT_IMAGE=") === 0) {
      if ((m = RE.cmdline.exec(s))) {
        var a, re = new RegExp(RE.iommuArg.source, "g");
        while ((a = re.exec(m[1]))) { self.iommuArg(a[1], a[2].replace(/^["',]+|["',]+$/g, "").toLowerCase(), n, raw); }
      }
    }
    if (RE.wsl.test(s)) { this.set("wsl", "bool", "true", 1, n, raw, "host"); }
    if (RE.container.test(s)) { this.set("container", "bool", "true", 1, n, raw, "host"); }
    if (RE.slurm.test(s)) { this.set("slurm", "bool", "true", 1, n, raw, "host"); }
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
    if (RE.consumer.test(s)) { mark(this.consumer, n, raw); }
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
      if (nv.set) { this.setEvent("nvlink.present", "bool", "true", 2, nv, src); }
      else if (m.n > 1) { this.setEvent("nvlink.present", "bool", "false", 2, m.header, src); }
      this.setEvent("topo.sys_pairs", "num", String(pairs), 2, sys.set ? sys : m.header, src);
      return;
    }
    if (m.mode.replace(/[rw]/g, "") !== "") { return; }
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
    if (s.indexOf("P2P Connectivity Matrix") === 0) { t.cur = -1; t.conn = true; return true; }
    if (s.indexOf("P2P=") === 0 && s.indexOf("Latency") >= 0) { t.cur = -1; t.conn = false; return true; }
    if ((m = RE.bwTitle.exec(s))) {
      var k = (m[1] === "Bidirectional" ? 2 : 0) + (m[2] === "Enabled" ? 1 : 0);
      t.cur = k; t.conn = false;
      if (!t.mats[k]) { t.mats[k] = { v: grid(0), has: grid(false), line: [] }; for (var q = 0; q < MAX_GPUS; q++) { t.mats[k].line.push(ev()); } }
      mark(t.ran, n, raw);
      return true;
    }
    if (RE.bwHeader.test(s)) {
      if (s.indexOf("CPU") === 0) { t.cur = -1; t.conn = false; }
      return true;
    }
    if ((m = RE.bwRow.exec(s)) && (t.cur >= 0 || t.conn)) {
      var i = parseInt(m[1], 10);
      if (i >= MAX_GPUS) { return true; }
      var cells = fields(m[2]);
      for (var j = 0; j < cells.length && j < MAX_GPUS; j++) {
        if (t.conn) {
          if (i !== j) { this.addPair(i, j, cells[j] === "1", n, raw, "p2pBandwidthLatencyTest"); }
          continue;
        }
        if (!/^\d+(?:\.\d+)?$/.test(cells[j]) && cells[j] !== "inf") { continue; }
        var v = cells[j] === "inf" ? Infinity : parseFloat(cells[j]), bm = t.mats[t.cur];
        if (!bm.has[i][j] || v < bm.v[i][j]) { bm.v[i][j] = v; bm.has[i][j] = true; }
        mark(bm.line[i], n, raw);
      }
      if (t.cur === UNI_ON || t.cur === BI_ON) { mark(t.onFirst, n, raw); }
      return true;
    }
    if (s === "" || s.indexOf("***NOTE") === 0 || s.indexOf("So you can see") === 0) { return true; }
    t.cur = -1; t.conn = false;
    return false;
  };

  X.bwEnd = function () {
    var t = this.bw, src = "p2pBandwidthLatencyTest", slow = 0, compared = false, first = ev();
    this.setEvent("p2p.test.ran", "bool", "true", 2, t.ran, src);
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
    this.pairFacts();
    this.ncclFacts();
    var s = this.simple;
    if (s.ran.set) { this.setEvent("p2p.test.ran", "bool", "true", 1, s.ran, "simpleP2P"); }
    if (s.verifyKO.set) { this.setEvent("p2p.test.data_ok", "bool", "false", 2, s.verifyKO, "simpleP2P"); }
    else { this.setEvent("p2p.test.data_ok", "bool", "true", 1, s.passed, "simpleP2P"); }
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
    this.setEvent("gpu.consumer", "bool", String(this.consumer.set), 1, this.consumer.set ? this.consumer : this.dataCentre, "GPU name");
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

  window.p2pkbPaste = { Extractor: Extractor, extract: extract, strip: strip, merge: merge };
})();
