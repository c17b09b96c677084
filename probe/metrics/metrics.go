// Package metrics writes a probe report in the Prometheus text format that
// node_exporter's textfile collector reads, so a fleet alerts on P2P
// breakage through the Prometheus it already runs. It only converts: the
// report (package facts) is the truth, and the encoding is prometheus/common's.
package metrics

import (
	"fmt"
	"io"
	"strconv"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Prefix starts every metric's name.
const Prefix = "p2p_probe_"

// family collects the samples of one metric.
type family struct {
	mf *dto.MetricFamily
}

func newFamily(name, help string, t dto.MetricType) *family {
	return &family{mf: &dto.MetricFamily{Name: proto.String(Prefix + name), Help: proto.String(help), Type: t.Enum()}}
}

// add appends a sample; labels are name, value pairs.
func (f *family) add(v float64, labels ...string) {
	m := &dto.Metric{}
	for i := 0; i+1 < len(labels); i += 2 {
		m.Label = append(m.Label, &dto.LabelPair{Name: proto.String(labels[i]), Value: proto.String(labels[i+1])})
	}
	if f.mf.GetType() == dto.MetricType_COUNTER {
		m.Counter = &dto.Counter{Value: proto.Float64(v)}
	} else {
		m.Gauge = &dto.Gauge{Value: proto.Float64(v)}
	}
	f.mf.Metric = append(f.mf.Metric, m)
}

func gauge(name, help string) *family { return newFamily(name, help, dto.MetricType_GAUGE) }

func bit(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Write writes rep as metrics. Pair metrics are labelled with the CUDA
// ordinals of both GPUs ("from", "to"); the probe's version, the driver
// and CUDA are labels of p2p_probe_info, to join on.
func Write(w io.Writer, rep facts.Report) error {
	info := gauge("info", "The probe that wrote these metrics and the driver it found; always 1.")
	info.add(1, "version", rep.Probe.Version, "driver", rep.Driver.Version.V, "cuda", rep.Driver.CUDA.V)
	nvml := gauge("nvml_available", "1 when NVML answered, 0 when it did not (no driver, or a driver and library that disagree).")
	nvml.add(bit(rep.NVML.Available && rep.NVML.Error == ""))
	gpus := gauge("gpus", "GPUs NVML sees.")
	gpus.add(float64(len(rep.GPUs)))
	fams := []*family{info, nvml, gpus}
	if t := rep.Test; t != nil {
		fams = append(fams, testFamilies(t)...)
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, f := range fams {
		if len(f.mf.Metric) == 0 {
			continue
		}
		if err := enc.Encode(f.mf); err != nil {
			return fmt.Errorf("metrics: %s: %w", f.mf.GetName(), err)
		}
	}
	return nil
}

func testFamilies(t *facts.Test) []*family {
	ran := gauge("test_ran", "1 when --test made a CUDA context and checked data, 0 when it could not run.")
	ran.add(bit(t.Ran))
	dur := gauge("test_duration_seconds", "Wall time of the whole --test.")
	dur.add(float64(t.DurationMS) / 1000)
	size := gauge("test_size_bytes", "Bytes of each copy of --test.")
	size.add(float64(t.SizeBytes))
	dataOK := gauge("test_data_ok", "1 when every copy that ran arrived intact, 0 when one arrived wrong; absent when none ran.")
	if t.Summary.DataOK != nil {
		dataOK.add(bit(*t.Summary.DataOK))
	}
	ipcOK := gauge("test_ipc_ok", "1 when every cross-process path worked and arrived intact; absent when none ran.")
	if t.Summary.IPCOK != nil {
		ipcOK.add(bit(*t.Summary.IPCOK))
	}
	failed := gauge("test_pairs", "Ordered GPU pairs of --test by status (ok, failed, slow, timeout, skipped).")
	count := map[string]int{"ok": 0, "failed": 0, "slow": 0, "timeout": 0, "skipped": 0}
	for _, p := range t.Pairs {
		count[p.Status]++
	}
	for _, s := range []string{"ok", "failed", "slow", "timeout", "skipped"} {
		failed.add(float64(count[s]), "status", s)
	}

	devBW := gauge("device_bandwidth_bytes_per_second", "Copy bandwidth of one GPU: within it (local), host to device (h2d), device to host (d2h).")
	devOK := gauge("device_data_ok", "1 when a GPU's own copies arrived intact, 0 when not.")
	for _, d := range t.Devices {
		gpu := strconv.Itoa(d.Ordinal)
		for _, c := range []struct {
			kind string
			v    float64
		}{{"local", d.LocalGBps}, {"h2d", d.H2DGBps}, {"d2h", d.D2HGBps}} {
			if c.v > 0 {
				devBW.add(c.v*1e9, "gpu", gpu, "copy", c.kind)
			}
		}
		if d.DataOK != nil {
			devOK.add(bit(*d.DataOK), "gpu", gpu)
		}
	}

	pairOK := gauge("pair_ok", "1 when the ordered pair's status is ok, 0 otherwise; the status is a label.")
	bw := gauge("pair_bandwidth_bytes_per_second", "Copy bandwidth of an ordered pair with peer access on (p2p=\"on\") and off (staged through host memory), one way or both ways at once (summed).")
	lat := gauge("pair_latency_seconds", "Time of one 4-byte copy of an ordered pair, peer access on and off.")
	pathOK := gauge("pair_data_ok", "1 when a path's copy arrived intact, 0 when it arrived wrong or failed; absent when the path was skipped.")
	for _, p := range t.Pairs {
		from, to := strconv.Itoa(p.Src), strconv.Itoa(p.Dst)
		pairOK.add(bit(p.Status == "ok"), "from", from, "to", to, "status", p.Status)
		if b := p.Bandwidth; b != nil {
			for _, c := range []struct {
				p2p, dir string
				v        float64
			}{{"on", "one", b.P2POn}, {"off", "one", b.P2POff}, {"on", "both", b.BidirP2POn}, {"off", "both", b.BidirP2POff}} {
				if c.v > 0 {
					bw.add(c.v*1e9, "from", from, "to", to, "p2p", c.p2p, "direction", c.dir)
				}
			}
		}
		if l := p.LatencyUS; l != nil {
			if l.P2POn > 0 {
				lat.add(l.P2POn/1e6, "from", from, "to", to, "p2p", "on")
			}
			if l.P2POff > 0 {
				lat.add(l.P2POff/1e6, "from", from, "to", to, "p2p", "off")
			}
		}
		for _, x := range p.Paths {
			switch x.Status {
			case "ok", "mismatch", "error", "timeout":
				pathOK.add(bit(x.Status == "ok"), "from", from, "to", to, "path", x.Path)
			}
		}
	}
	return []*family{ran, dur, size, dataOK, ipcOK, failed, devBW, devOK, pairOK, bw, lat, pathOK}
}
