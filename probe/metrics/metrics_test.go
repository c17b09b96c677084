package metrics

import (
	"bytes"
	"os"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/p2pkb/p2pkb/probe/facts"
)

func read(t *testing.T, path string) facts.Report {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := facts.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return *rep
}

// parse reads text as Prometheus does, with the legacy name rules that
// node_exporter's textfile collector still applies.
func parse(t *testing.T, text []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(text))
	if err != nil {
		t.Fatalf("the text does not parse: %v\n%s", err, text)
	}
	return fams
}

func labels(m *dto.Metric) map[string]string {
	out := map[string]string{}
	for _, l := range m.Label {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// find is the value of the sample of name whose labels include want.
func find(t *testing.T, fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	t.Helper()
	mf := fams[name]
	if mf == nil {
		return 0, false
	}
	for _, m := range mf.Metric {
		l, ok := labels(m), true
		for k, v := range want {
			ok = ok && l[k] == v
		}
		if ok {
			return m.GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// A real 2xH200 test: every pair, both bandwidths, latency and data checks
// come out with the report's figures, and the probe's version is a label.
func TestRealReport(t *testing.T) {
	rep := read(t, "../testdata/real/h200x2-test.json")
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	fams := parse(t, buf.Bytes())
	if v, ok := find(t, fams, "p2p_probe_info", map[string]string{"version": rep.Probe.Version, "driver": "580.159.04", "cuda": "13.0"}); !ok || v != 1 {
		t.Errorf("p2p_probe_info: %v %v\n%s", v, ok, buf.String())
	}
	if v, _ := find(t, fams, "p2p_probe_test_duration_seconds", nil); v != float64(rep.Test.DurationMS)/1000 {
		t.Errorf("duration %v, report %d ms", v, rep.Test.DurationMS)
	}
	if v, ok := find(t, fams, "p2p_probe_test_data_ok", nil); !ok || v != 1 {
		t.Errorf("data ok %v %v", v, ok)
	}
	for _, p := range rep.Test.Pairs {
		from, to := string(rune('0'+p.Src)), string(rune('0'+p.Dst))
		pl := map[string]string{"from": from, "to": to}
		for _, c := range []struct {
			p2p, dir string
			want     float64
		}{{"on", "one", p.Bandwidth.P2POn}, {"off", "one", p.Bandwidth.P2POff}, {"on", "both", p.Bandwidth.BidirP2POn}, {"off", "both", p.Bandwidth.BidirP2POff}} {
			v, ok := find(t, fams, "p2p_probe_pair_bandwidth_bytes_per_second", map[string]string{"from": from, "to": to, "p2p": c.p2p, "direction": c.dir})
			if !ok || v != c.want*1e9 {
				t.Errorf("%s->%s p2p %s %s: %v (%v), want %v GB/s", from, to, c.p2p, c.dir, v, ok, c.want)
			}
		}
		if v, ok := find(t, fams, "p2p_probe_pair_latency_seconds", map[string]string{"from": from, "to": to, "p2p": "on"}); !ok || v != p.LatencyUS.P2POn/1e6 {
			t.Errorf("latency %v", v)
		}
		for _, path := range []string{"staged_copy", "peer_copy", "ipc_legacy", "ipc_cumem"} {
			if v, ok := find(t, fams, "p2p_probe_pair_data_ok", map[string]string{"from": from, "to": to, "path": path}); !ok || v != 1 {
				t.Errorf("%s->%s %s: data ok %v %v", from, to, path, v, ok)
			}
		}
		if v, ok := find(t, fams, "p2p_probe_pair_ok", pl); !ok || v != 1 {
			t.Errorf("pair ok %v %v", v, ok)
		}
	}
}

// Broken pairs read as 0, with their status, and counts by status add up.
func TestFaults(t *testing.T) {
	rep := read(t, "../testdata/golden/test-zeros.json")
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	fams := parse(t, buf.Bytes())
	if v, ok := find(t, fams, "p2p_probe_test_data_ok", nil); !ok || v != 0 {
		t.Errorf("data ok %v %v", v, ok)
	}
	if v, ok := find(t, fams, "p2p_probe_pair_ok", map[string]string{"from": "0", "to": "1", "status": "failed"}); !ok || v != 0 {
		t.Errorf("pair 0->1 %v %v", v, ok)
	}
	if v, ok := find(t, fams, "p2p_probe_pair_data_ok", map[string]string{"from": "0", "to": "1", "path": "peer_copy"}); !ok || v != 0 {
		t.Errorf("0->1 peer copy %v %v", v, ok)
	}
	if v, ok := find(t, fams, "p2p_probe_pair_data_ok", map[string]string{"from": "0", "to": "1", "path": "staged_copy"}); !ok || v != 1 {
		t.Errorf("0->1 staged copy %v %v", v, ok)
	}
	if v, _ := find(t, fams, "p2p_probe_test_pairs", map[string]string{"status": "failed"}); v != 1 {
		t.Errorf("failed pairs %v", v)
	}
}

// Without a driver there is no test and no GPU: the metrics say so.
func TestNoDriver(t *testing.T) {
	rep := read(t, "../testdata/golden/no-library.json")
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	fams := parse(t, buf.Bytes())
	if v, ok := find(t, fams, "p2p_probe_nvml_available", nil); !ok || v != 0 {
		t.Errorf("nvml_available %v %v", v, ok)
	}
	if _, ok := fams["p2p_probe_test_ran"]; ok {
		t.Error("a test section without --test")
	}
}

// What the probe wrote with --format prometheus on four H200s parses, and
// says every one of the 48 paths arrived intact.
func TestRealOutputParses(t *testing.T) {
	data, err := os.ReadFile("../testdata/real/h200x4-test.prom")
	if err != nil {
		t.Fatal(err)
	}
	fams := parse(t, data)
	ok := 0
	for _, m := range fams["p2p_probe_pair_data_ok"].GetMetric() {
		if m.GetGauge().GetValue() == 1 {
			ok++
		}
	}
	if ok != 48 {
		t.Errorf("%d paths intact, want 48", ok)
	}
	if v, _ := find(t, fams, "p2p_probe_test_pairs", map[string]string{"status": "ok"}); v != 12 {
		t.Errorf("%v pairs ok", v)
	}
}
