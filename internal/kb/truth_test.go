package kb

import (
	"encoding/json"
	"errors"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"
)

func TestVerbatimIn(t *testing.T) {
	out, err := os.ReadFile("../../kb/repro/ipc_errors.h200x2.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		sig  string
		want string // "" when it appears; else substrings of the message
	}{
		{"cudaErrorDeviceUninitialized: invalid device context", ""},
		// The harness pads its label; a copy that drops the padding is no copy.
		{"cudaIpcOpenMemHandle in the process that made it -> cudaErrorDeviceUninitialized", "character 50"},
		{"cudaErrorDeviceUninitialized: invalid device contexts", `character 53: the signature has "s"`},
		{"no such line", `character 4: the signature has "such line"`},
	}
	for _, c := range cases {
		got := VerbatimIn(c.sig, string(out))
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("VerbatimIn(%q) = %q, want %q", c.sig, got, c.want)
		}
	}

	// Numbers, addresses, paths and host names may differ; words may not.
	log := "gpu-node-7:2394:2394 [0] misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-FAtL7b (size 9637888) at 0x7f3a00\n"
	for sig, ok := range map[string]bool{
		"vm:11:12 [1] misc/shmutils.cc:140 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-x9 (size 12) at 0xdead0": true,
		"NCCL WARN Error while creating shared memory segment /tmp/other (size 1)":                                                     true,
		"NCCL WARN Error while creating a shared memory segment":                                                                       false,
		"misc/shmutil.cc:132 NCCL WARN": false,
	} {
		if got := VerbatimIn(sig, log); (got == "") != ok {
			t.Errorf("VerbatimIn(%q) = %q, want ok=%v", sig, got, ok)
		}
	}
}

func TestInstanceOf(t *testing.T) {
	// NCCL 2.30.7, src/init.cc: the message is split over two literals.
	ncclLine := `        WARN("Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this "
             "configuration.");`
	cases := []struct {
		sig, line string
		want      string // "" when sig is an instance; else substrings of the message
	}{
		{"NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.", ncclLine, ""},
		{"NCCL WARN Multiple Ranks are using the same GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this", ncclLine,
			`character 107: the signature has nothing more where the source's message goes on " configuration."`},
		{"NCCL WARN Multiple ranks detected using the same GPU on this node.", ncclLine, `character 20: the signature has "ranks detected`},
		{"init.cc:904 NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 60",
			`      WARN("Duplicate GPU detected : rank %d and rank %d both on CUDA device %lx", rank, i, comm->peerInfo[rank].busId);`, ""},
		{"Custom allreduce is disabled due to an unsupported world size: 3. Supported world sizes: [2, 4, 6, 8].",
			`            logger.warning("Custom allreduce is disabled due to an unsupported world size: %d. Supported world sizes: %s.", world_size, str(CustomAllreduce._SUPPORTED_WORLD_SIZES))`, ""},
		{"Unable to enable peer access between GPUs 0 and 1",
			`LOG(WARNING) << "Unable to enable peer access between GPUs " << i << " and " << j << "; status: " << status;`,
			`character 49: the signature has "1" where the source's message goes on "%v; status: %v"`},
		{"Unable to enable peer access between GPUs 0 and 1; status: INTERNAL: failed",
			`LOG(WARNING) << "Unable to enable peer access between GPUs " << i << " and " << j << "; status: " << status;`, ""},
		{"ok 3 done", `print(f"ok {n} done")`, ""},
		// A help file's text has no literal: the text is the format.
		{"The call to cuIpcOpenMemHandle failed. This is an unrecoverable error", "The call to cuIpcOpenMemHandle failed. This is an unrecoverable error", ""},
		{"The call to cuIpcOpenMemHandle failed.", "The call to cuIpcCloseMemHandle failed.", "character 18"},
		// The first lines of a message of several; indentation is not part of it.
		{"The call to cuIpcOpenMemHandle failed. This is an unrecoverable error",
			"The call to cuIpcOpenMemHandle failed. This is an unrecoverable error\nand will cause the program to abort.\n  Hostname: %s", ""},
		{"The call to cuIpcOpenMemHandle failed. This is an unrecoverable error and will cause the program to abort.",
			"The call to cuIpcOpenMemHandle failed. This is an unrecoverable error\nand will cause the program to abort.\n  Hostname: %s", `character 70: the signature has " and will`},
		{"ACSCtl:\tSrcValid+ TransBlk-", `  printf("\t\tACSCtl:\tSrcValid%c TransBlk%c\n", a, b);`, ""},
	}
	for _, c := range cases {
		got := InstanceOf(c.sig, c.line)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("InstanceOf(%q) = %q, want %q", c.sig, got, c.want)
		}
	}
}

func TestHarnessText(t *testing.T) {
	prog, err := os.ReadFile("../../kb/repro/ipc_errors.cu")
	if err != nil {
		t.Fatal(err)
	}
	if got := HarnessText("cudaIpcOpenMemHandle in the process that made it -> cudaErrorDeviceUninitialized: invalid device context", string(prog)); got != "cudaIpcOpenMemHandle in the process that made it" {
		t.Errorf("the harness's label was not found: %q", got)
	}
	if got := HarnessText("cudaErrorDeviceUninitialized: invalid device context", string(prog)); got != "" {
		t.Errorf("found %q in what CUDA prints", got)
	}
}

func TestCodes(t *testing.T) {
	for code, printed := range map[string]bool{
		"cudaErrorPeerAccessUnsupported":     true,
		"CUDA_ERROR_PEER_ACCESS_UNSUPPORTED": true,
		"ncclInvalidUsage":                   true,
		"Xid79":                              true,
		"ENOSPC":                             true,
		"NVML_ERROR_LIB_RM_VERSION_MISMATCH": true,
		"UCS_ERR_ALREADY_EXISTS":             true,
		"cudaErrorPeerAccessUnsupported-mig": false,
		"cudaDeviceCanAccessPeer":            false,
		"NCCL_P2P_DISABLE":                   false,
		"GPA":                                false,
	} {
		if IsPrintedCode(code) != printed {
			t.Errorf("IsPrintedCode(%q) = %v", code, !printed)
		}
	}
	if c, _ := LookupCode("cudaErrorPeerAccessUnsupported"); c.Number != 217 || c.Message != "peer access is not supported between these two devices" {
		t.Errorf("cudaErrorPeerAccessUnsupported = %+v", c)
	}
	if !codeTableSignature("cudaErrorTooManyPeers: peer mapping resources exhausted") || codeTableSignature("cudaErrorTooManyPeers: peer mappings exhausted") {
		t.Error("a name: string signature is not held to CUDA's table")
	}
}

// TestTruthRules changes the seed entry one field at a time and expects the
// one problem each rule reports, with the field it names.
func TestTruthRules(t *testing.T) {
	const id = "cuda/peer-access-unsupported-by-hardware"
	orig, err := os.ReadFile("../../kb/" + id + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var base map[string]json.RawMessage
	if err := json.Unmarshal(orig, &base); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		field, value string // value "" leaves the field out
		wantField    string
		want         string
	}{
		{"fix_success_rate_basis", ``, "fix_success_rate", "needs fix_success_rate_basis"},
		{"fix_success_rate_basis", `{"reports": 3, "of": 4, "sources": ["https://example.com/a"]}`, "fix_success_rate", "counts 3 of 4"},
		{"fix_success_rate_basis", `{"reports": 3, "of": 4}`, "fix_success_rate_basis", "lists no sources"},
		{"fix_success_rate_basis", `{"estimate": true, "reports": 1, "of": 1}`, "fix_success_rate_basis", "one or the other"},
		{"fix_success_rate_basis", `{"reports": 5, "of": 4, "sources": ["https://example.com/a"]}`, "fix_success_rate_basis", "more than of"},
		{"workarounds", `[{"action": "Do it.", "how": "Do it."}, {"action": "Or this."}]`, "workarounds[0].how", "repeats action"},
		{"error_code", `"cudaErrorPeerAccessUnsupported-mig"`, "error_code", "no code the software prints"},
		{"former_codes", `["cudaErrorPeerAccessUnsupported"]`, "former_codes[0]", "is the entry's error_code"},
		{"signature_zh", `"RuntimeError: CUDA error: peer access is not supported between these two devices"`, "signature_zh", "copies signature"},
		{"signature_zh", `"RuntimeError: peer access"`, "signature_zh", "holds no Chinese"},
		{"signature_source", `{"kind": "report", "url": "https://example.com/a", "excerpt": "RuntimeError: CUDA error: peer access is not supported between those two devices"}`,
			"signature", `character 66: the signature has "ese two devices" where the text has "ose two devices"`},
		{"signature_source", `{"kind": "source", "url": "https://example.com/a", "line": "TORCH_CHECK(false, \"CUDA error: peer access is not supported\")"}`,
			"signature", "goes on with"},
		// Every entry stores what its signature is checked against.
		{"signature_source", `{"kind": "report", "url": "https://example.com/a"}`, "signature_source.excerpt", "missing: copy the text at url"},
		{"signature_source", `{"kind": "documentation", "url": "https://example.com/a"}`, "signature_source.excerpt", "missing: copy the text at url"},
		{"signature_source", `{"kind": "source", "url": "https://example.com/a"}`, "signature_source.line", "missing: copy the statement"},
	}
	for _, c := range cases {
		t.Run(c.field+"="+c.value, func(t *testing.T) {
			m := maps.Clone(base)
			m[c.field] = json.RawMessage(c.value)
			if c.value == "" {
				delete(m, c.field)
			}
			data, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			_, err = Load(entryFS(t, id, data))
			var ps Problems
			if !errors.As(err, &ps) || len(ps) != 1 {
				t.Fatalf("want one problem, got %v", err)
			}
			if ps[0].Field != c.wantField || !strings.Contains(ps[0].Message, c.want) || ps[0].Line == 0 {
				t.Errorf("got %s, want field %s and %q", ps[0], c.wantField, c.want)
			}
		})
	}
}

// The audit of the repository's KB: what make audit prints, with the checks
// that must hold.
func TestAuditOfRepositoryKB(t *testing.T) {
	k, err := Load(os.DirFS("../../kb"))
	if err != nil {
		t.Fatal(err)
	}
	a := Audit(k)
	if a.Total.Bare != 0 || a.Invented() != 0 {
		t.Errorf("%d rates without basis, %d invented codes", a.Total.Bare, a.Invented())
	}
	for _, r := range a.Rows {
		if r.Tier == "reproduced" && r.Verbatim != "output" {
			t.Errorf("%s is reproduced but its signature was not checked against the output (%s)", r.ID, r.Verbatim)
		}
	}
	if a.Unchecked != 0 {
		t.Errorf("%d entries have a signature checked against nothing", a.Unchecked)
	}
	if a.Checked+a.Unchecked != len(k.Entries) || a.Printed+a.IDs != len(k.Entries) {
		t.Errorf("counts do not add up: %+v", a)
	}
	var b strings.Builder
	if err := a.Write(&b); err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^cuda/ipc-open-in-own-process +reproduced +reproduction +output +printed +0 +[1-9]`)
	if !row.MatchString(b.String()) || !strings.Contains(b.String(), "0 invented codes") {
		t.Errorf("the table lacks a row or the totals:\n%s", b.String())
	}
}

// What lint refuses, the audit counts, so that it says what holds of any
// KB it is given.
func TestAuditCountsWhatLintRefuses(t *testing.T) {
	k := &KB{Entries: []*Entry{
		{ID: "a/b", VerificationTier: "ai_generated", ErrorCode: "cudaErrorPeerAccessUnsupported-mig", FixSuccessRate: 0.7,
			Workarounds: []Workaround{{Action: "x", SuccessRate: 0.5, SuccessBasis: &RateBasis{Estimate: true}},
				{Action: "y", SuccessRate: 0.75, SuccessBasis: &RateBasis{Reports: 3, Of: 4, Sources: []string{"https://a"}}}},
			SignatureSource: &SignatureSource{Kind: "report", URL: "https://a"}},
	}}
	a := Audit(k)
	r := a.Rows[0]
	if r.Bare != 1 || r.Estimate != 1 || r.Counted != 1 || r.Code != "invented" || r.Verbatim != "unchecked" || a.Invented() != 1 {
		t.Errorf("row %+v", r)
	}
}

// The comparisons take any text without failing: a message is "" or names
// a character of the signature.
func FuzzVerbatim(f *testing.F) {
	f.Add("NCCL WARN Duplicate GPU detected : rank 1", `WARN("Duplicate GPU detected : rank %d and rank %d", a, b);`)
	f.Add("a\tb", "  printf(\"\\t\\ta%c\\n\" \"b\", x);")
	f.Add("{x} 0x1f /p/q", `f"{x} {{y}} %(n)s" + z << w`)
	f.Fuzz(func(t *testing.T, sig, text string) {
		for _, msg := range []string{InstanceOf(sig, text), VerbatimIn(sig, text)} {
			if msg != "" && !strings.Contains(msg, "character") && !strings.Contains(msg, "nothing of") && !strings.Contains(msg, "no message") {
				t.Errorf("message names no character: %q", msg)
			}
		}
		_ = HarnessText(sig, text)
	})
}
