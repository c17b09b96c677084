package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"
)

// ExplainFigures are one row of the explain table: explain run on a log of
// Bytes bytes whose only error is its last line.
type ExplainFigures struct {
	Bytes   int64
	Wall    time.Duration
	CPU     time.Duration // user and system: on a machine others share, the wall time says more about them
	PeakRSS int64         // bytes
	Found   bool          // explain found the error at the end and exited 0
}

// The error at the end of the generated logs, as PyTorch prints it under
// torchrun.
const explainTail = "[rank0]: RuntimeError: CUDA error: peer access is not supported between these two devices\n"

// WriteLog writes a real-shaped training log of about n bytes to w: the
// reproductions' NCCL_DEBUG=INFO lines and PyTorch's lines, over and over,
// without their errors, then one error line.
func WriteLog(w io.Writer, repo string, n int64) error {
	var body []string
	for _, f := range []string{"nccl_default.h200x2.txt", "torch_errors.h200x2.txt"} {
		data, err := os.ReadFile(filepath.Join(repo, "kb", "repro", f))
		if err != nil {
			return err
		}
		for _, l := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
			if !strings.Contains(strings.ToLower(l), "error") {
				body = append(body, l)
			}
		}
	}
	block := strings.Join(body, "\n") + "\n"
	bw := bufio.NewWriterSize(w, 1<<20)
	for written := int64(0); written < n; written += int64(len(block)) {
		if _, err := bw.WriteString(block); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString(explainTail); err != nil {
		return err
	}
	return bw.Flush()
}

// Explain times `p2pkb explain` (the binary, run as a child so that its
// peak memory is its own) on generated logs of each size in MB, one at a
// time in a temporary file, and writes a table to w.
func Explain(w io.Writer, repo, binary string, sizesMB []int) ([]ExplainFigures, error) {
	var out []ExplainFigures
	for _, mb := range sizesMB {
		f, err := explainOnce(repo, binary, int64(mb)*1e6)
		if err != nil {
			return out, err
		}
		out = append(out, f)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "explain on a log\tsize\twall\tMB/s\tCPU\tMB/s of CPU\tpeak RSS\terror at the end found\t")
	for _, f := range out {
		fmt.Fprintf(tw, "\t%s\t%s\t%.0f\t%s\t%.0f\t%s\t%v\t\n", size(f.Bytes), dur(f.Wall), float64(f.Bytes)/1e6/f.Wall.Seconds(),
			dur(f.CPU), float64(f.Bytes)/1e6/f.CPU.Seconds(), size(f.PeakRSS), f.Found)
	}
	return out, tw.Flush()
}

func explainOnce(repo, binary string, n int64) (ExplainFigures, error) {
	var f ExplainFigures
	tmp, err := os.CreateTemp("", "p2pkb-bench-log-*.txt")
	if err != nil {
		return f, err
	}
	defer os.Remove(tmp.Name())
	if err := WriteLog(tmp, repo, n); err != nil {
		tmp.Close()
		return f, err
	}
	st, err := tmp.Stat()
	tmp.Close()
	if err != nil {
		return f, err
	}
	f.Bytes = st.Size()
	cmd := exec.Command(binary, "explain", "--json", "--file", tmp.Name())
	var stdout strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, os.Stderr
	start := time.Now()
	err = cmd.Run()
	f.Wall = time.Since(start)
	f.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		f.PeakRSS = ru.Maxrss * 1024
	}
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		return f, fmt.Errorf("explain: %w", err)
	}
	f.Found = err == nil && strings.Contains(stdout.String(), `"id": "cuda/peer-access-to-same-device"`)
	return f, nil
}
