package paste

import (
	"strconv"
	"strings"
)

// A P2P bandwidth figure is judged against what its link allows: NVLink as
// nvidia-smi topo -m counts the links of a pair (NV18), or PCIe as
// nvidia-smi -q gives each GPU's generation and width. The figures are
// p2pBandwidthLatencyTest's unidirectional P2P=Enabled matrix and
// nvbandwidth's device-to-device matrices.

// nvlinkGBs is what one NVLink carries each way, GB/s: 25 for NVLink 2, 3
// and 4 (V100, A100, H100: 300, 600, 900 GB/s both ways over 6, 12, 18
// links). NVLink 5 (B200) carries twice that, so a Blackwell pair is judged
// against half its link: on the safe side.
const nvlinkGBs = 25

// pcieLaneGBs is what a PCIe lane carries each way after its encoding, GB/s,
// by generation.
var pcieLaneGBs = [...]float64{1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}

// belowFraction: a figure under half of what its link allows is far below it
// (a healthy link gives 70-90%).
const belowFraction = 0.5

type link struct {
	nv    [maxGPUs][maxGPUs]int // NVLinks per pair, from topo -m
	nvRow [maxGPUs]event
	nvSet bool

	section  string // "PCIe Generation" or "Link Width" of nvidia-smi -q being read
	gen, wid int    // the smallest Max of any GPU
	genEv    event
	widEv    event

	fig    [maxGPUs][maxGPUs]float64 // the highest P2P figure per ordered pair, GB/s
	figRow [maxGPUs][maxGPUs]event
	figSet bool

	nvb      bool      // an nvbandwidth device-to-device matrix is being read
	nvbRows  int       // its rows read
	nvbCells []nvbCell // its cells, kept until it ends (nvbEnd)

	// nvbandwidth's copies between the host and each GPU, GB/s, the best of
	// either way: what the GPU's own PCIe link gives in the same run, which
	// a copy between two GPUs over PCIe should come near.
	host    [maxGPUs]float64
	hostRow [maxGPUs]event
	nvbHost bool // an nvbandwidth host copy matrix is being read
}

// nvbCell is a figure of an nvbandwidth device-to-device matrix, or its
// N/A: nvbandwidth measures only the pairs whose peer access it could
// enable and leaves the others N/A (testcases_ce.cpp, "if
// (!srcBuffer.enablePeerAcess(peerBuffer)) continue;").
type nvbCell struct {
	i, j int
	v    float64
	na   bool
	line int
	raw  string
}

var (
	reNVBTitle = pattern("nvbTitle", `^memcpy (?:CE|SM) GPU\(row\) (?:->|<-) GPU\(column\) bandwidth \(GB/s\)$`)
	// host_to_device and device_to_host: one row, a column per GPU.
	reNVBHost = pattern("nvbHost", `^memcpy (?:CE|SM) CPU\(row\) (?:->|<-) GPU\(column\) bandwidth \(GB/s\)$`)
)

// linkLine reads the lines that need the one before: nvidia-smi -q's PCIe
// sections and nvbandwidth's matrix rows. It reports whether it took the
// line.
func (x *Extractor) linkLine(s string, n int, raw string) bool {
	l := &x.link
	if l.nvb || l.nvbHost {
		f := strings.Fields(s)
		// The header numbers the columns; nvbandwidth prints each figure
		// with two decimals (output.cpp), so a row is never all integers.
		if isDigitFields(f) {
			return true
		}
		if nvbRow(f) {
			i, _ := strconv.Atoi(f[0])
			if l.nvbHost {
				for j, c := range f[1:] {
					if v, err := strconv.ParseFloat(c, 64); err == nil && i == 0 && j < maxGPUs && v > l.host[j] {
						l.host[j], l.hostRow[j] = v, event{line: n, text: raw, set: true}
					}
				}
				return true
			}
			l.nvbRows++
			for j, c := range f[1:] {
				if i != j {
					v, err := strconv.ParseFloat(c, 64)
					l.nvbCells = append(l.nvbCells, nvbCell{i: i, j: j, v: v, na: err != nil, line: n, raw: raw})
				}
			}
			return true
		}
		x.nvbEnd()
	}
	if l.section != "" {
		f := strings.Fields(s)
		if len(f) >= 3 && (f[0] == "Max" || f[0] == "Current") && f[1] == ":" {
			if f[0] == "Max" {
				w := strings.TrimSuffix(f[2], "x")
				v, err := strconv.Atoi(w)
				switch {
				case err != nil || !isDigits(w) || v <= 0:
				case l.section == "PCIe Generation" && v < len(pcieLaneGBs) && (l.gen == 0 || v < l.gen):
					l.gen, l.genEv = v, event{line: n, text: raw, set: true}
				case l.section == "Link Width" && (l.wid == 0 || v < l.wid):
					l.wid, l.widEv = v, event{line: n, text: raw, set: true}
				}
			}
			return true
		}
		if len(f) > 0 && (f[0] == "Device" || f[0] == "Host") {
			return true
		}
		l.section = ""
	}
	return false
}

// linkScan reads the lines that start these readers.
func (x *Extractor) linkScan(s string) {
	if s == "PCIe Generation" || s == "Link Width" {
		x.link.section = s
	}
	if strings.HasPrefix(s, "memcpy ") {
		x.link.nvb = reNVBTitle.MatchString(s)
		x.link.nvbHost = reNVBHost.MatchString(s)
	}
}

// nvbEnd ends an nvbandwidth matrix. A device-to-device matrix of one row
// is all_to_one's or one_to_all's, which print each GPU's total under the
// same title: not a pair's figure.
func (x *Extractor) nvbEnd() {
	l := &x.link
	if l.nvbRows >= 2 {
		for _, c := range l.nvbCells {
			x.pairs.add(c.i, c.j, !c.na, c.line, c.raw, "nvbandwidth")
			if !c.na {
				l.figure(c.i, c.j, c.v, c.line, c.raw)
			}
		}
	}
	l.nvb, l.nvbHost, l.nvbRows, l.nvbCells = false, false, 0, l.nvbCells[:0]
}

func (l *link) figure(i, j int, v float64, n int, raw string) {
	if i < 0 || j < 0 || i >= maxGPUs || j >= maxGPUs || i == j || v <= 0 {
		return
	}
	if v > l.fig[i][j] {
		l.fig[i][j], l.figRow[i][j] = v, event{line: n, text: raw, set: true}
	}
	l.figSet = true
}

// nvbRow is a row of an nvbandwidth matrix: a GPU's number, then a figure
// or N/A per column.
func nvbRow(f []string) bool {
	if len(f) < 2 || !isDigits(f[0]) {
		return false
	}
	for _, c := range f[1:] {
		if c != "N/A" && !isDecimal(c) {
			return false
		}
	}
	return true
}

func isDigitFields(f []string) bool {
	for _, c := range f {
		if !isDigits(c) {
			return false
		}
	}
	return len(f) > 0
}

// linkFacts judges each pair's best figure against its link.
func (x *Extractor) linkFacts() {
	l := &x.link
	if !l.figSet {
		return
	}
	pcie := 0.0
	if l.gen > 0 && l.wid > 0 {
		pcie = pcieLaneGBs[l.gen] * float64(l.wid)
	}
	below, least := 0, 0.0
	var first, leastEv event
	leastSrc := ""
	for i := 0; i < maxGPUs; i++ {
		for j := 0; j < maxGPUs; j++ {
			v := l.fig[i][j]
			// A pair without P2P copies through the host, whatever the
			// matrix's title says: its figure is not P2P's.
			if v == 0 || x.pairs.blocked[i][j] {
				continue
			}
			allows, ev, src := pcie, l.widEv, "nvidia-smi -q (PCIe Gen"+strconv.Itoa(l.gen)+" x"+strconv.Itoa(l.wid)+")"
			if l.nvSet && l.nv[i][j] > 0 {
				allows, ev, src = float64(l.nv[i][j]*nvlinkGBs), l.nvRow[i], "nvidia-smi topo -m (NV"+strconv.Itoa(l.nv[i][j])+", 25 GB/s a link)"
			}
			if allows == 0 && l.host[i] > 0 && l.host[j] > 0 {
				k := i
				if l.host[j] < l.host[i] {
					k = j
				}
				allows, ev, src = l.host[k], l.hostRow[k], "nvbandwidth's copies between the host and GPU "+strconv.Itoa(k)+" in the same run"
			}
			if allows == 0 {
				continue
			}
			if least == 0 || allows < least {
				least, leastEv, leastSrc = allows, ev, src
			}
			if v < allows*belowFraction {
				below++
				first.mark(l.figRow[i][j].line, l.figRow[i][j].text)
			}
		}
	}
	if least == 0 {
		return
	}
	x.setEvent("p2p.link_gbs", "num", strconv.FormatFloat(least, 'f', -1, 64), 1, leastEv, leastSrc)
	if !first.set {
		for i := 0; !first.set && i < maxGPUs; i++ {
			for j := 0; !first.set && j < maxGPUs; j++ {
				first = l.figRow[i][j]
			}
		}
	}
	x.setEvent("p2p.bw_below_link", "num", strconv.Itoa(below), 1, first, "P2P bandwidth against the link")
}
