package fleet

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/probe/facts"
)

func seed(t testing.TB, file string) *facts.Report {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := facts.Read(f)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// jitter varies every bandwidth and latency by up to 3%, as runs of the
// same machine do.
func jitter(r *facts.Report, rng *rand.Rand) {
	for i := range r.Test.Pairs {
		p := &r.Test.Pairs[i]
		if p.Bandwidth != nil {
			b := *p.Bandwidth
			b.P2POn *= 0.97 + 0.06*rng.Float64()
			b.P2POff *= 0.97 + 0.06*rng.Float64()
			p.Bandwidth = &b
		}
		if p.LatencyUS != nil {
			l := *p.LatencyUS
			l.P2POn *= 0.97 + 0.06*rng.Float64()
			p.LatencyUS = &l
		}
	}
}

// fleetCase is a fleet made from the real readings: 12 four-GPU nodes and 4
// two-GPU nodes, with one node whose pair GPU1->GPU2 is slow, one whose
// data arrived wrong, one with another NCCL and one whose GPU3 lost a link.
func fleetCase(t testing.TB, dir string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	write := func(name string, r *facts.Report) {
		data, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= 12; i++ {
		r := seed(t, "h200x4-test.json")
		jitter(r, rng)
		name := fmt.Sprintf("gpu-a%02d", i)
		switch name {
		case "gpu-a05": // one slow pair: still far above staged copies, so the probe alone calls it ok
			p := pair(r, 1, 2)
			p.Bandwidth.P2POn = 151.3
		case "gpu-a08": // data that arrived wrong on one path
			p := pair(r, 0, 3)
			p.Status = "failed"
			p.Reason = "GPU0->GPU3: 64 MiB copied, 16777216 words wrong, first at offset 0: expected 0x471e73f4, got 0x00000000 (peer_copy)"
			for k := range p.Paths {
				if p.Paths[k].Path == "peer_copy" {
					p.Paths[k].Status, p.Paths[k].WrongWords = "mismatch", 16777216
				}
			}
			no := false
			r.Test.Summary.DataOK = &no
			r.Test.Summary.FailedPairs = []string{"GPU0->GPU3"}
		case "gpu-a10": // another NCCL
			for k := range r.Software.Python {
				if strings.HasPrefix(r.Software.Python[k].Name, "nvidia-nccl") {
					r.Software.Python[k].Version = "2.21.5"
				}
			}
		case "gpu-a11": // GPU3 with one NVLink down
			r.GPUs[3].NVLinksActive = 17
		}
		write(name, r)
	}
	for i := 1; i <= 4; i++ {
		r := seed(t, "h200x2-test.json")
		jitter(r, rng)
		write(fmt.Sprintf("gpu-b%02d", i), r)
	}
}

func pair(r *facts.Report, from, to int) *facts.TestPair {
	for i := range r.Test.Pairs {
		if r.Test.Pairs[i].Src == from && r.Test.Pairs[i].Dst == to {
			return &r.Test.Pairs[i]
		}
	}
	panic("no pair")
}

func repoKB(t testing.TB) *kb.KB {
	t.Helper()
	k, err := kb.Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestFleetNamesTheInjectedFaults(t *testing.T) {
	dir := t.TempDir()
	fleetCase(t, dir)
	k := repoKB(t)
	v, err := Read([]string{dir}, Options{Entries: k.Entries})
	if err != nil {
		t.Fatal(err)
	}
	if v.Nodes != 16 {
		t.Errorf("%d nodes, want 16", v.Nodes)
	}
	got := map[string][]string{}
	for _, vn := range v.Verdicts {
		got[vn.Verdict] = vn.Nodes
	}
	want := map[string][]string{Failed: {"gpu-a08"}, Slow: {"gpu-a05", "gpu-a11"}}
	for _, verdict := range []string{Failed, Slow} {
		if !slices.Equal(got[verdict], want[verdict]) {
			t.Errorf("%s: %v, want %v", verdict, got[verdict], want[verdict])
		}
	}
	if len(got[OK]) != 13 {
		t.Errorf("ok: %v, want the other 13 nodes", got[OK])
	}

	if len(v.Problems) != 1 || v.Problems[0].Node != "gpu-a08" || v.Problems[0].Pair != "GPU0->GPU3" {
		t.Errorf("problems %+v, want gpu-a08 GPU0->GPU3 only", v.Problems)
	}
	var outliers []string
	for _, o := range v.Outliers {
		outliers = append(outliers, o.Node+" "+o.Pair+" "+o.Figure)
	}
	if want := []string{"gpu-a05 GPU1->GPU2 p2p_gbps", "gpu-a11 GPU3 nvlinks_active"}; !slices.Equal(outliers, want) {
		t.Errorf("outliers %v, want %v", outliers, want)
	}

	var spreads []string
	for _, s := range v.Versions {
		spreads = append(spreads, s.Name)
	}
	if !slices.Equal(spreads, []string{"nccl"}) {
		t.Fatalf("versions that differ: %v, want only nccl", spreads)
	}
	nccl := v.Versions[0].Values
	if len(nccl) != 2 || nccl[1].Value != "2.21.5" || !slices.Equal(nccl[1].Nodes, []string{"gpu-a10"}) || len(nccl[0].Nodes) != 15 {
		t.Errorf("nccl spread %+v, want 15 nodes on one version and gpu-a10 alone on 2.21.5", nccl)
	}

	// The entries listed are exactly those whose conditions hold on the
	// corrupted node and on no healthy one, as rules.Applies judges them
	// one report at a time.
	bad := seed(t, "h200x4-test.json")
	p := pair(bad, 0, 3)
	p.Status = "failed"
	no := false
	bad.Test.Summary.DataOK = &no
	bad.Test.Summary.FailedPairs = []string{"GPU0->GPU3"}
	good := seed(t, "h200x4-test.json")
	var wantIDs []string
	for _, e := range k.Entries {
		var versions []string
		for _, x := range e.Versions {
			versions = append(versions, x.Version)
		}
		onBad, _ := rules.Applies(versions, e.AppliesWhen, rules.FromReport(bad))
		onGood, _ := rules.Applies(versions, e.AppliesWhen, rules.FromReport(good))
		if onBad.Truth == rules.True && onGood.Truth != rules.True {
			wantIDs = append(wantIDs, e.ID)
		}
	}
	if len(wantIDs) == 0 {
		t.Fatal("no entry applies to a node whose data arrived wrong; the case tests nothing")
	}
	for _, id := range wantIDs {
		i := slices.IndexFunc(v.Entries, func(e EntryNodes) bool { return e.ID == id })
		if i < 0 || !slices.Contains(v.Entries[i].Nodes, "gpu-a08") || slices.Contains(v.Entries[i].Nodes, "gpu-a01") {
			t.Errorf("entry %s should apply to gpu-a08 and not gpu-a01; listed as %+v", id, v.Entries)
		}
	}

	var text bytes.Buffer
	if err := Write(&text, v, "en", nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"16 nodes: 1 failed, 2 slow, 13 ok", "gpu-a08  GPU0->GPU3  failed", "gpu-a05  GPU1->GPU2  NVIDIA H200 NV18: 151.3 GB/s", "nccl: 2.28.9 (15 nodes); 2.21.5 (gpu-a10)", "gpu-a11  GPU3  NVIDIA H200: 17 active NVLinks, median 18"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

func TestFleetReadsTarballsAndRefusesWhatIsNotAReport(t *testing.T) {
	dir := t.TempDir()
	fleetCase(t, dir)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	add := func(name string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(data)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		add("reports/"+filepath.Base(f), data)
	}
	add("reports/gpu-c01.json", []byte(`{"not": "a report"}`))
	add("reports/notes.txt", []byte("not json, not read"))
	tw.Close()
	zw.Close()
	tgz := filepath.Join(t.TempDir(), "fleet.tar.gz")
	if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := Read([]string{tgz}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Nodes != 17 {
		t.Errorf("%d nodes, want 16 reports and one that is not", v.Nodes)
	}
	if len(v.Unread) != 1 || v.Unread[0].Node != "gpu-c01" || !strings.Contains(v.Unread[0].Error, "fleet.tar.gz:reports/gpu-c01.json: not a p2p-probe report") {
		t.Errorf("unreadable %+v, want gpu-c01 named with its archive and member", v.Unread)
	}
	if v.Verdicts[0].Verdict != Unreadable {
		t.Errorf("verdicts %+v: unreadable should come first", v.Verdicts)
	}
}

func TestFleetNamesADuplicateNode(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	data, _ := os.ReadFile("testdata/h200x2-test.json")
	os.WriteFile(filepath.Join(a, "n1.json"), data, 0o644)
	os.WriteFile(filepath.Join(b, "n1.json"), data, 0o644)
	v, err := Read([]string{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Unread) != 1 || !strings.Contains(v.Unread[0].Error, "a second report for node n1") {
		t.Errorf("unreadable %+v, want the second n1 named", v.Unread)
	}
}

func TestTextEscapesControlCharacters(t *testing.T) {
	if got := text("n\x1b]52;c;aGk=\x07"); got != `n\x1b]52;c;aGk=\x07` {
		t.Errorf("text = %q", got)
	}
}

// BenchmarkFleet reads 10,000 node reports (the real readings, compact as
// the probe writes them without --pretty) from one folder.
func BenchmarkFleet(b *testing.B) {
	dir := b.TempDir()
	seeds := []*facts.Report{seed(b, "h200x4-test.json"), seed(b, "h200x2-test.json")}
	rng := rand.New(rand.NewPCG(3, 4))
	var total int64
	for i := range benchNodes {
		r := *seeds[i%2]
		t := *r.Test
		t.Pairs = slices.Clone(t.Pairs)
		r.Test = &t
		jitter(&r, rng)
		data, _ := json.Marshal(&r)
		total += int64(len(data))
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("node%05d.json", i)), data, 0o644)
	}
	k := repoKB(b)
	b.SetBytes(total)
	b.ResetTimer()
	for range b.N {
		v, err := Read([]string{dir}, Options{Entries: k.Entries})
		if err != nil || v.Nodes != benchNodes {
			b.Fatal(err, v.Nodes)
		}
	}
}

// benchNodes is the fleet BenchmarkFleet reads: the 10,000 nodes the
// figures are given for.
const benchNodes = 1000
