package bench

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// peakRSS makes cmd report its peak resident memory, read after it ran.
// Go starts a child as vfork does, sharing the benchmark's memory until the
// exec, and Linux then counts the benchmark's own resident memory in the
// child's ru_maxrss: a command run after the benchmark loaded a large KB
// showed the benchmark's 830 MB. GNU time starts the command with a plain
// fork from its own small process, so its figure is the command's own;
// without it, the rusage figure stands, an upper bound.
func peakRSS(cmd *exec.Cmd) (read func() int64) {
	rusage := func() int64 {
		if cmd.ProcessState == nil {
			return 0
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			return ru.Maxrss * 1024
		}
		return 0
	}
	const gnuTime = "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		return rusage
	}
	f, err := os.CreateTemp("", "p2pkb-bench-rss-")
	if err != nil {
		return rusage
	}
	f.Close()
	cmd.Args = append([]string{gnuTime, "-o", f.Name(), "-f", "%M", cmd.Path}, cmd.Args[1:]...)
	cmd.Path = gnuTime
	return func() int64 {
		defer os.Remove(f.Name())
		b, err := os.ReadFile(f.Name())
		fields := strings.Fields(string(b)) // "Command exited with non-zero status N" comes first when it failed
		if err != nil || len(fields) == 0 {
			return rusage()
		}
		kb, err := strconv.ParseInt(fields[len(fields)-1], 10, 64)
		if err != nil {
			return rusage()
		}
		return kb * 1024
	}
}
