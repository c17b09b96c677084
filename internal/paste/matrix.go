package paste

import (
	"math"
	"strconv"
	"strings"
)

// matrix is a GPU-by-GPU table of nvidia-smi topo: -m (NV18, PIX, SYS, ...)
// or -p2p (OK, CNS, NS, ...), told apart by its cells.
type matrix struct {
	n         int // GPU columns
	mode      string
	header    event
	cells     [maxGPUs][maxGPUs]string
	rowLine   [maxGPUs]event
	rows      int
	topo, p2p bool
}

var (
	reGPUName  = pattern("gpuName", `^GPU(\d+)$`)
	reTopoCell = pattern("topoCell", `^(?:NV\d+|PIX|PXB|PHB|NODE|SYS|SOC)$`)
	reP2PCell  = pattern("p2pCell", `^(?:OK|CNS|GNS|TNS|NS|DR|U)$`)
)

// startMatrix reads a header row "GPU0 GPU1 ... [NIC0 ...] [CPU Affinity ...]".
func startMatrix(s string, n int, raw string) *matrix {
	if !strings.HasPrefix(s, "GPU0") {
		return nil
	}
	f := strings.Fields(s)
	k := 0
	for k < len(f) && k < maxGPUs && f[k] == "GPU"+strconv.Itoa(k) {
		k++
	}
	if k == 0 || k < len(f) && reGPUName.MatchString(f[k]) {
		return nil
	}
	m := &matrix{n: k}
	m.header.mark(n, raw)
	return m
}

// row reads "GPUi cell cell ..."; false ends the matrix.
func (m *matrix) row(s string, n int, raw string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	if strings.HasPrefix(f[0], "NIC") || strings.HasPrefix(f[0], "mlx") {
		return true
	}
	g := reGPUName.FindStringSubmatch(f[0])
	if g == nil || len(f) < m.n+1 {
		return false
	}
	i, _ := strconv.Atoi(g[1])
	if i >= m.n {
		return false
	}
	for j := 0; j < m.n; j++ {
		c := f[1+j]
		m.cells[i][j] = c
		switch {
		case c == "X":
		case reTopoCell.MatchString(c):
			m.topo = true
		case reP2PCell.MatchString(c):
			m.p2p = true
		}
	}
	m.rowLine[i].mark(n, raw)
	m.rows++
	return true
}

func (x *Extractor) endMatrix() {
	m := x.mat
	x.mat = nil
	if m.rows == 0 || m.topo == m.p2p {
		return
	}
	if m.topo {
		const src = "nvidia-smi topo -m"
		x.setEvent("gpu.count", "num", strconv.Itoa(m.n), 3, m.header, src)
		nv, sys := event{}, event{}
		pairs := 0
		for i := 0; i < m.n; i++ {
			for j := 0; j < m.n; j++ {
				c := m.cells[i][j]
				if strings.HasPrefix(c, "NV") {
					nv.mark(m.rowLine[i].line, m.rowLine[i].text)
				}
				// A pair counts once, from whichever of its two cells was read
				// (a partial paste may lack the lower rows).
				if (c == "SYS" || c == "SOC") && (i < j || m.cells[j][i] == "") {
					pairs++
					sys.mark(m.rowLine[i].line, m.rowLine[i].text)
				}
			}
		}
		for i := 0; i < m.n; i++ {
			for j := 0; j < m.n; j++ {
				if c := m.cells[i][j]; strings.HasPrefix(c, "NV") {
					if k, err := strconv.Atoi(c[2:]); err == nil && isDigits(c[2:]) && k > 0 {
						x.link.nv[i][j], x.link.nvRow[i], x.link.nvSet = k, m.rowLine[i], true
					}
				}
			}
		}
		if nv.set {
			x.setEvent("nvlink.present", "bool", "true", 2, nv, src)
		} else if m.n > 1 {
			x.setEvent("nvlink.present", "bool", "false", 2, m.header, src)
		}
		if !sys.set {
			sys = m.header
		}
		x.setEvent("topo.sys_pairs", "num", strconv.Itoa(pairs), 2, sys, src)
		return
	}
	// -p2p: read and write tell whether P2P works; prop (p), atomics (a) and
	// nvlink (n) say NS on machines whose P2P works, so they do not count.
	// Without the command line the mode is unknown: OK and the chipset,
	// GPU and topology refusals still mean what they say.
	if strings.Trim(m.mode, "rw") != "" {
		return
	}
	const src = "nvidia-smi topo -p2p"
	x.setEvent("gpu.count", "num", strconv.Itoa(m.n), 1, m.header, src)
	for i := 0; i < m.n; i++ {
		for j := 0; j < m.n; j++ {
			c := m.cells[i][j]
			if i == j || c == "" {
				continue
			}
			ok := c == "OK"
			if !ok && m.mode == "" && c != "CNS" && c != "GNS" && c != "TNS" {
				continue
			}
			x.pairs.add(i, j, ok, m.rowLine[i].line, m.rowLine[i].text, src)
		}
	}
}

// bwTest is the output of the CUDA sample p2pBandwidthLatencyTest: the
// connectivity matrix, then bandwidth and latency matrices with P2P
// disabled and enabled.
type bwTest struct {
	cur     int // matrix being read, -1 none
	want    bool
	conn    bool // the connectivity matrix is being read
	mats    [4]*bwMatrix
	ran     event // the first bandwidth matrix
	onFirst event // the first row of a P2P-enabled one
	devices int   // GPUs the Device: lines list
	devLine event
	open    event // a matrix title no row has followed yet: the test stopped there, if the input ends
	figures bool  // some bandwidth or latency figure was read
}

// bandwidth matrices: unidirectional off/on, bidirectional off/on.
const (
	uniOff = iota
	uniOn
	biOff
	biOn
)

type bwMatrix struct {
	v    [maxGPUs][maxGPUs]float64
	has  [maxGPUs][maxGPUs]bool
	line [maxGPUs]event
}

var (
	reBWTitle = pattern("bwTitle", `^(Unidirectional|Bidirectional) P2P=(Enabled|Disabled) Bandwidth`)
)

// line reads a line of the test; false hands it back to the other readers.
func (t *bwTest) line(x *Extractor, s string, n int, raw string) bool {
	switch {
	case strings.Contains(s, "GPU Bandwidth Latency Test"):
		t.cur, t.conn = -1, false
		return true
	case strings.HasPrefix(s, "Device: "):
		if m := reDevice.FindStringSubmatch(s); m != nil {
			i, _ := strconv.Atoi(m[1])
			if i+1 > t.devices && i < maxGPUs {
				t.devices = i + 1
			}
			t.devLine.mark(n, raw)
			x.versionLine(s, n, raw)
			return true
		}
	case strings.HasPrefix(s, "P2P Connectivity Matrix"):
		t.cur, t.conn = -1, true
		t.open = event{line: n, text: raw, set: true}
		return true
	case strings.HasPrefix(s, "P2P=") && strings.Contains(s, "Latency"):
		t.cur, t.conn = -1, false
		t.open = event{line: n, text: raw, set: true}
		return true
	}
	if m := reBWTitle.FindStringSubmatch(s); m != nil {
		k := 0
		if m[1] == "Bidirectional" {
			k = 2
		}
		if m[2] == "Enabled" {
			k++
		}
		// Newer versions print an enabled matrix for P2P writes and one for
		// P2P reads: both fill the same slot, and the lower figure stays.
		t.cur, t.conn = k, false
		t.open = event{line: n, text: raw, set: true}
		if t.mats[k] == nil {
			t.mats[k] = &bwMatrix{}
		}
		t.ran.mark(n, raw)
		return true
	}
	f := strings.Fields(s)
	if bwHeader(f) {
		if strings.HasPrefix(s, "CPU") {
			t.cur, t.conn = -1, false
		}
		return true
	}
	if bwRow(f) && (t.cur >= 0 || t.conn) {
		t.open = event{}
		i, _ := strconv.Atoi(f[0])
		if i >= maxGPUs {
			return true
		}
		for j, c := range f[1:] {
			if j >= maxGPUs {
				break
			}
			if t.conn {
				if i != j {
					x.pairs.add(i, j, c == "1", n, raw, "p2pBandwidthLatencyTest")
				}
				continue
			}
			v, err := strconv.ParseFloat(c, 64)
			if err != nil || math.IsNaN(v) {
				continue
			}
			t.figures = true
			bm := t.mats[t.cur]
			if t.cur == uniOn {
				x.link.figure(i, j, v, n, raw)
			}
			// Of two enabled matrices (writes, reads), keep the lower figure.
			if !bm.has[i][j] || v < bm.v[i][j] {
				bm.v[i][j], bm.has[i][j] = v, true
			}
			bm.line[i].mark(n, raw)
		}
		if t.cur == uniOn || t.cur == biOn {
			t.onFirst.mark(n, raw)
		}
		return true
	}
	if s == "" || strings.HasPrefix(s, "***NOTE") || strings.HasPrefix(s, "So you can see") {
		return true
	}
	t.cur, t.conn, t.open = -1, false, event{}
	return false
}

// end counts the ordered pairs whose P2P-enabled bandwidth is not above the
// disabled one, in either direction mode.
func (t *bwTest) end(x *Extractor) {
	const src = "p2pBandwidthLatencyTest"
	x.setEvent("p2p.test.ran", "bool", "true", 2, t.ran, src)
	// The input ends under the title of the first bandwidth matrix, with no
	// figure printed: the test stopped at its first copy between GPUs
	// (pytorch/pytorch#1637, NVIDIA/nccl#199: it hung there). A paste cut
	// by hand keeps the figures it was pasted for.
	if t.ran.set && !t.figures {
		x.setEvent("hang.seen", "bool", "true", 1, t.open, src)
	}
	if t.devices > 0 {
		x.setEvent("gpu.count", "num", strconv.Itoa(t.devices), 2, t.devLine, src)
	}
	slow, compared := 0, false
	var first event
	for i := 0; i < maxGPUs; i++ {
		for j := 0; j < maxGPUs; j++ {
			if i == j || x.pairs.seen[i][j] && x.pairs.blocked[i][j] {
				continue
			}
			isSlow := false
			for _, k := range []int{uniOff, biOff} {
				off, on := t.mats[k], t.mats[k+1]
				if off == nil || on == nil || !off.has[i][j] || !on.has[i][j] {
					continue
				}
				compared = true
				if on.v[i][j] <= off.v[i][j] {
					isSlow = true
					first.mark(on.line[i].line, on.line[i].text)
				}
			}
			if isSlow {
				slow++
			}
		}
	}
	if !compared {
		return
	}
	if !first.set {
		first = t.onFirst
	}
	x.setEvent("p2p.test.slow_pairs", "num", strconv.Itoa(slow), 1, first, src)
}

// bwHeader says whether the fields are a matrix's header: "D\D 0 1",
// "GPU 0 1" or "CPU 0 1". Fields, not a pattern: a repeated group is what
// makes a backtracking engine slow.
func bwHeader(f []string) bool {
	if len(f) < 2 || f[0] != `D\D` && f[0] != "GPU" && f[0] != "CPU" {
		return false
	}
	for _, c := range f[1:] {
		if !isDigits(c) {
			return false
		}
	}
	return true
}

// bwRow says whether the fields are a matrix's row: a GPU's number, then a
// figure (12.34, inf, nan) or "-" per column.
func bwRow(f []string) bool {
	if len(f) < 2 || !isDigits(f[0]) {
		return false
	}
	for _, c := range f[1:] {
		if c != "inf" && c != "nan" && c != "-" && !isDecimal(c) {
			return false
		}
	}
	return true
}

func isDigits(s string) bool { return s != "" && digits(s, 0) == len(s) }

// isDecimal is \d+(\.\d+)?.
func isDecimal(s string) bool {
	i := digits(s, 0)
	if i < 0 || i == len(s) {
		return i == len(s)
	}
	return s[i] == '.' && digits(s, i+1) == len(s)
}
