package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/p2pkb/p2pkb/internal/kb"
	"github.com/p2pkb/p2pkb/internal/site"
)

// watchEdits is how many edits the serve --watch figure is taken over.
const watchEdits = 5

// measureWatch starts serve --watch on the KB, edits entries' root causes
// one at a time, and times each edit from the write to the page served with
// it. It returns the median and the slowest.
func measureWatch(o Options, kbDir, contentDir string, entries []*kb.Entry) (p50, worst time.Duration, err error) {
	cmd := exec.Command(o.Binary, "serve", "--watch", "--addr", "127.0.0.1:0", "--kb", kbDir, "--content", contentDir,
		"--templates", filepath.Join(o.Repo, "templates"), "--assets", filepath.Join(o.Repo, "assets"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "serving on "); ok {
				addr <- strings.TrimSuffix(a, "/")
			}
		}
		close(addr)
	}()
	base, ok := <-addr
	if !ok {
		return 0, 0, fmt.Errorf("serve --watch did not start")
	}
	go io.Copy(io.Discard, stdout)

	var lat []time.Duration
	for i := 0; i < watchEdits; i++ {
		e := entries[(i*7919+len(entries)/3)%len(entries)]
		marker := fmt.Sprintf("Watchmark%d", i)
		if err := editRootCause(filepath.Join(kbDir, filepath.FromSlash(e.ID)+".json"), marker); err != nil {
			return 0, 0, err
		}
		start := time.Now()
		url := base + "/" + site.EntryPath("en", e.ID)
		for {
			if body, err := get(url); err == nil && strings.Contains(body, marker) {
				break
			}
			if time.Since(start) > time.Minute {
				return 0, 0, fmt.Errorf("serve --watch: the edit of %s did not show within a minute", e.ID)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, time.Since(start))
		time.Sleep(200 * time.Millisecond) // let the previous update settle, as between a person's edits
	}
	return percentile(lat, 50), percentile(lat, 100), nil
}

// editRootCause puts marker in front of an entry's root cause, as a person
// editing the file would.
func editRootCause(file, marker string) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	m["root_cause"] = marker + " " + fmt.Sprint(m["root_cause"])
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, out, 0o644)
}

func get(url string) (string, error) {
	resp, err := http.Get(url)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
