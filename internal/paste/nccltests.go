package paste

import (
	"strconv"
	"strings"
)

// nccl-tests' bandwidth judged against the GPUs' link: the highest busbw of
// the result table (all_reduce_perf and the other _perf tools), against
// what one GPU's link carries each way, as the paste shows it: every pair
// NV# in nvidia-smi topo -m, the GPU's name in the "#  Rank" lines (or in
// nvidia-smi -L, -q or its table), or the PCIe generation and width of
// nvidia-smi -q. A busbw near that figure is what the hardware gives, not a
// fault (NVLink's 450, 600 or 900 GB/s are both directions' line rate; NCCL
// reaches about 80% of one direction, more with NVLink SHARP); one far
// below it, on one host, is a slow path (P2P off, shared memory, ACS).

// The reader gives the share of the link the peak busbw reached
// (nccl.tests.busbw_pct); the entries' conditions draw the lines: a ring on
// NVLink reaches 75-85% (NVIDIA/nccl#1455: 365-370 of 450 GB/s on H100;
// NVIDIA/nccl#258: 120-130 of 150 GB/s on V100), and a quarter or less is
// PCIe-class traffic on NVLink GPUs, or host staging on PCIe.

// busbwPeakBytes: a table whose largest size is under 64 MiB does not reach
// peak bandwidth on any link (NCCL's own advice is to run to 1 GiB or
// more), so it is not judged against the link.
const busbwPeakBytes = 64 << 20

var (
	// "#  Rank  0 Group  0 Pid  65234 on      gpu49 device  0 [0x0a] NVIDIA H200"
	// (nccl-tests src/util.cu; older versions print no Group).
	reTestRank = pattern("testRank", `^#?\s{0,8}Rank\s{1,4}\d{1,6}\s{1,4}(?:Group\s{1,4}\d{1,6}\s{1,4})?Pid\s{1,8}\d{1,10}\s{1,4}on\s{1,64}(\S{1,256})\s{1,4}device\s{1,4}\d{1,4}\s{1,4}\[[0-9a-fA-Fx:.]{1,20}\]\s{1,4}(\S.{0,200})$`)
	// A GPU's name as nvidia-smi prints it: -L, -q, and its table.
	reSMIName = pattern("smiName", `^GPU \d{1,3}: (\S.{0,120}?) \(UUID|^Product Name\s{0,40}: (\S.{0,120})$|^\|\s{1,8}\d{1,3}\s{1,8}((?:NVIDIA|Tesla|Quadro) \S.{0,60}?)\s{2,40}(?:On|Off)\s{1,8}\|`)
)

// testGPUWords are in every line busbwScan acts on; the prefilter wakes it
// with them (testRank, gpuNameLine).
var testGPUWords = []string{"UUID", "Product Name", "NVIDIA ", "Tesla ", "Quadro "}

// busbw is the state of the reader.
type busbw struct {
	cols   []int // the busbw columns of a row, from the header
	size   int   // the column of the size in bytes
	width  int   // fields of a row
	peak   float64
	peakEv event
	most   float64 // the largest size read, bytes
	mostEv event

	hosts  []string // the hosts of the Rank lines, two at most
	ranks  int
	name   string // the first GPU name read
	nameEv event
}

// busbwLine reads stripped line s: the table's header, its rows, and the
// lines that say where the test ran.
func (x *Extractor) busbwLine(s string, n int, raw string) {
	if strings.Contains(s, "busbw") && strings.Contains(s, "algbw") {
		x.busbwHeader(strings.Fields(strings.TrimPrefix(s, "#")))
		return
	}
	if len(x.sym.busbw.cols) > 0 && containsAny(s, ncclTestTypes...) {
		x.busbwRow(strings.Fields(s), n, raw)
		return
	}
	x.busbwScan(s, n, raw)
}

// busbwHeader reads the table's header without its "#": the fields of
// "size count type redop root time algbw busbw #wrong time algbw busbw
// #wrong" (older versions: "bytes N type op time algbw busbw res ..."),
// which give where the size and busbw columns are in a row.
func (x *Extractor) busbwHeader(f []string) {
	b := &x.sym.busbw
	b.cols = b.cols[:0]
	b.size = -1
	for i, c := range f {
		switch {
		case c == "busbw":
			b.cols = append(b.cols, i)
		case (c == "size" || c == "bytes") && b.size < 0:
			b.size = i
		}
	}
	b.width = len(f)
	if b.size != 0 {
		b.cols = b.cols[:0] // not nccl-tests' table: its rows start with the size
	}
}

// busbwRow reads a row of the table.
func (x *Extractor) busbwRow(f []string, n int, raw string) {
	b := &x.sym.busbw
	// A row cut short (a paste that ends mid-row) still gives the columns it has.
	if len(b.cols) == 0 || len(f) > b.width+2 || len(f) <= b.cols[0] || !isDigits(f[b.size]) {
		return
	}
	size, err := strconv.ParseFloat(f[b.size], 64)
	if err != nil {
		return
	}
	if size >= b.most {
		b.most, b.mostEv = size, event{line: n, text: raw, set: true}
	}
	for _, c := range b.cols {
		if c >= len(f) {
			break
		}
		v, err := strconv.ParseFloat(f[c], 64)
		if err != nil || !isDecimal(f[c]) {
			continue
		}
		if v > b.peak || !b.peakEv.set {
			b.peak, b.peakEv = v, event{line: n, text: raw, set: true}
		}
	}
}

// busbwScan reads the lines that name where the test ran.
func (x *Extractor) busbwScan(s string, n int, raw string) {
	b := &x.sym.busbw
	if strings.Contains(s, "Rank ") {
		if m := reTestRank.FindStringSubmatch(s); m != nil {
			b.ranks++
			if len(b.hosts) < 2 && (len(b.hosts) == 0 || b.hosts[0] != m[1]) {
				b.hosts = append(b.hosts, m[1])
			}
			if !b.nameEv.set {
				b.name, b.nameEv = strings.TrimSpace(m[2]), event{line: n, text: raw, set: true}
			}
			return
		}
	}
	if !b.nameEv.set && containsAny(s, testGPUWords...) {
		if m := reSMIName.FindStringSubmatch(s); m != nil {
			b.name, b.nameEv = strings.TrimSpace(first(m)), event{line: n, text: raw, set: true}
		}
	}
}

// gpuLink is what a GPU model's link carries each way.
type gpuLink struct {
	gbs    float64 // GB/s each way
	nvlink bool
	what   string // how a fact's source says it
}

// perLink is what one NVLink of a GPU carries each way, GB/s: 25 for
// NVLink 2 to 4, 50 for NVLink 5 (Blackwell), and 14.0625 for the bridges
// of GA102 cards (RTX 3090, RTX A6000, A40: 112.5 GB/s both ways over 4).
func perLink(name string) float64 {
	switch {
	case containsAny(name, "B200", "B300", "B100"):
		return 50
	case containsAny(name, "3090", "A6000", " A40"):
		return 14.0625
	}
	return 25
}

// modelLink is the link of a GPU by its name, from NVIDIA's data sheets:
// SXM parts by their NVLinks, PCIe cards by their slot; ok is false for a
// name it does not know.
func modelLink(name string) (gpuLink, bool) {
	u := strings.ToUpper(name)
	pcie := func(gen int) (gpuLink, bool) {
		return gpuLink{pcieLaneGBs[gen] * 16, false, "PCIe Gen" + strconv.Itoa(gen) + " x16"}, true
	}
	nv := func(links int, per float64) (gpuLink, bool) {
		return gpuLink{float64(links) * per, true, strconv.Itoa(links) + " NVLinks"}, true
	}
	isPCIe := strings.Contains(u, "PCIE") || strings.Contains(u, " NVL")
	switch {
	case containsAny(u, "B200", "B300", "B100"):
		return nv(18, 50)
	case containsAny(u, "H100", "H200", "H20", "H800") && isPCIe:
		return pcie(5)
	case strings.Contains(u, "H800"):
		return nv(8, 25)
	case containsAny(u, "H100", "H200", "GH200") || hasWord(u, "H20"):
		return nv(18, 25)
	case containsAny(u, "A100", "A800") && strings.Contains(u, "SXM"):
		if strings.Contains(u, "A800") {
			return nv(8, 25)
		}
		return nv(12, 25)
	case containsAny(u, "A100", "A800") && isPCIe:
		return pcie(4)
	case strings.Contains(u, "V100") && strings.Contains(u, "SXM"):
		return nv(6, 25)
	case containsAny(u, "V100", "P100", "2080") && !strings.Contains(u, "SXM"), hasWord(u, "T4"), hasWord(u, "P40"):
		return pcie(3)
	case containsAny(u, "5090", "RTX PRO"):
		return pcie(5)
	case containsAny(u, "4090", "3090", "A6000", "6000 ADA", "L40"), hasWord(u, "A40"), hasWord(u, "A30"), hasWord(u, "A10"), hasWord(u, "L4"):
		return pcie(4)
	}
	return gpuLink{}, false
}

// hasWord says whether w is in s between non-alphanumeric characters.
func hasWord(s, w string) bool {
	for i := strings.Index(s, w); i >= 0; {
		end := i + len(w)
		if (i == 0 || !isAlnum(s[i-1])) && (end == len(s) || !isAlnum(s[end])) {
			return true
		}
		j := strings.Index(s[i+1:], w)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// busbwLink is the link the table is judged against: every GPU pair NVLinked
// in topo -m, else the GPU's model, else nvidia-smi -q's PCIe.
func (x *Extractor) busbwLink() (gpuLink, event, bool) {
	b := &x.sym.busbw
	l := &x.link
	if g, ok := x.facts["gpu.count"]; ok && l.nvSet && g.Source == "nvidia-smi topo -m" {
		gpus, _ := strconv.Atoi(g.Value)
		least := 0
		var ev event
		for i := 0; i < gpus && i < maxGPUs; i++ {
			sum, most := 0, 0
			for j := 0; j < gpus && j < maxGPUs; j++ {
				if i == j {
					continue
				}
				if l.nv[i][j] == 0 {
					least = -1 // a pair without NVLink: a ring crosses PCIe
					break
				}
				sum += l.nv[i][j]
				most = max(most, l.nv[i][j])
			}
			if least < 0 {
				break
			}
			// Through NVSwitch every pair shows all of a GPU's links (NV18);
			// joined directly, a GPU's links are spread over its peers.
			links := sum
			if sum > 18 {
				links = most
			}
			if least == 0 || links < least {
				least, ev = links, l.nvRow[i]
			}
		}
		if least > 0 && gpus > 1 {
			per := perLink(b.name)
			return gpuLink{float64(least) * per, true, "nvidia-smi topo -m (" + strconv.Itoa(least) + " NVLinks a GPU, " + strconv.FormatFloat(per, 'f', -1, 64) + " GB/s each)"}, ev, true
		}
	}
	if b.nameEv.set {
		if m, ok := modelLink(b.name); ok {
			m.what = "GPU name (" + b.name + ": " + m.what + ")"
			return m, b.nameEv, true
		}
	}
	if l.gen > 0 && l.wid > 0 {
		return gpuLink{pcieLaneGBs[l.gen] * float64(l.wid), false, "nvidia-smi -q (PCIe Gen" + strconv.Itoa(l.gen) + " x" + strconv.Itoa(l.wid) + ")"}, l.widEv, true
	}
	return gpuLink{}, event{}, false
}

// busbwFacts judges the table once the input ends.
func (x *Extractor) busbwFacts() {
	b := &x.sym.busbw
	t := &x.sym.ncclTests
	if !b.peakEv.set || b.ranks == 1 || t.wrong > 0 || t.oob.set && t.oobN != "0" {
		return // no table; one GPU, whose figures use no link; or a test that failed its check
	}
	const src = "nccl-tests"
	x.setEvent("nccl.tests.busbw_peak", "num", strconv.FormatFloat(b.peak, 'f', -1, 64), 1, b.peakEv, src)
	if len(b.hosts) > 1 {
		return // across hosts the network, not NVLink or PCIe, limits it
	}
	if b.most < busbwPeakBytes {
		x.setEvent("nccl.tests.small_sizes", "bool", "true", 1, b.mostEv, src)
		return
	}
	l, ev, ok := x.busbwLink()
	if !ok || l.gbs <= 0 {
		return
	}
	x.setEvent("nccl.tests.link_gbs", "num", strconv.FormatFloat(l.gbs, 'f', -1, 64), 1, ev, l.what)
	x.setEvent("nccl.tests.nvlink", "bool", strconv.FormatBool(l.nvlink), 1, ev, l.what)
	pct := int(b.peak/l.gbs*100 + 0.5)
	x.setEvent("nccl.tests.busbw_pct", "num", strconv.Itoa(pct), 1, b.peakEv, "nccl-tests busbw against the link")
}
