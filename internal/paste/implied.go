package paste

import "strings"

// The NCCL a PyTorch wheel brings, implied by PyTorch's version where a
// paste gives that (collect_env, "torch==2.3.0", a version said in words)
// but not NCCL's: since PyTorch 2.0 the Linux wheels on PyPI load NCCL from
// the nvidia-nccl wheel they require, pinned per release in
// PYTORCH_EXTRA_INSTALL_REQUIREMENTS of .github/scripts/generate_binary_build_matrix.py
// (https://github.com/pytorch/pytorch/blob/v2.3.0/.github/scripts/generate_binary_build_matrix.py:
// "nvidia-nccl-cu12==2.20.5; platform_system == 'Linux' and platform_machine == 'x86_64'").
// A source build, a conda build, a container (NGC's images carry their own
// NCCL) or `pip install -U nvidia-nccl-cu12` loads another, so the version
// is its own fact, nccl.bundled, given only where the paste states no NCCL
// version, and judged only by the entries that say so.

// torchNCCL is, per PyTorch release (major.minor), the nvidia-nccl wheel its
// Linux x86_64 wheels require (cu11 for 2.0, cu12 since 2.1). pip's own
// install logs in public threads agree for 2.4 (2.20.5), 2.5 and 2.6
// (2.21.5) and 2.9 (2.27.5): "Collecting nvidia-nccl-cu12==2.21.5 (from
// torch==2.6.0)".
var torchNCCL = []string{
	"2.0", "2.14.3",
	"2.1", "2.18.1",
	"2.2", "2.19.3",
	"2.3", "2.20.5",
	"2.4", "2.20.5",
	"2.5", "2.21.5",
	"2.6", "2.21.5",
	"2.7", "2.26.2",
	"2.8", "2.27.3",
	"2.9", "2.27.5",
}

// impliedNCCL is the NCCL the PyPI wheel of PyTorch version v brings, or ""
// for a release the table lacks, a nightly or pre-release, and a build
// whose local version names no CUDA wheel ("+cpu", "+rocm6.2", "+git...").
func impliedNCCL(v string) string {
	v, local, _ := strings.Cut(v, "+")
	if local != "" && !strings.HasPrefix(local, "cu") || strings.ContainsAny(v, "abdr") {
		return ""
	}
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return ""
	}
	minor := parts[0] + "." + parts[1]
	for i := 0; i+1 < len(torchNCCL); i += 2 {
		if torchNCCL[i] == minor {
			return torchNCCL[i+1]
		}
	}
	return ""
}

// impliedFacts gives nccl.bundled from python.torch once the input ends,
// where no NCCL version and no nvidia-nccl wheel (python.nccl) is stated,
// and no story compares PyTorch's versions: that story names the change,
// whose entry says to compare the NCCL each version loads.
func (x *Extractor) impliedFacts() {
	t, ok := x.facts["python.torch"]
	if !ok || x.story.ev.set && x.story.component == "torch" {
		return
	}
	if _, ok := x.facts["nccl.version"]; ok {
		return
	}
	if _, ok := x.facts["python.nccl"]; ok {
		return
	}
	nccl := impliedNCCL(t.Value)
	if nccl == "" {
		return
	}
	e := event{line: t.Line, text: t.Text, set: true}
	x.setEvent("nccl.bundled", "version", nccl, 0, e, "PyTorch's wheel")
}
