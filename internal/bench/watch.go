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

// watchFigures are the serve --watch figures: medians and slowest of an
// edit's page shown, and of the edit found by the search API.
type watchFigures struct {
	p50, worst           time.Duration
	foundP50, foundWorst time.Duration
}

// measureWatch starts serve --watch on the KB, edits entries' root causes
// one at a time, and times each edit from the write to the page served with
// it, and to the search API finding the entry by the edit's word.
func measureWatch(o Options, kbDir, contentDir string, entries []*kb.Entry) (w watchFigures, err error) {
	cmd := exec.Command(o.Binary, "serve", "--watch", "--addr", "127.0.0.1:0", "--kb", kbDir, "--content", contentDir,
		"--i18n", filepath.Join(o.Repo, "templates"), "--assets", filepath.Join(o.Repo, "assets"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return w, err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		return w, err
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
		return w, fmt.Errorf("serve --watch did not start")
	}
	go io.Copy(io.Discard, stdout)

	var lat, found []time.Duration
	for i := 0; i < watchEdits; i++ {
		e := entries[(i*7919+len(entries)/3)%len(entries)]
		marker := "Watchmark" + string(rune('a'+i)) + "q" // one word that no entry has
		if err := editRootCause(filepath.Join(kbDir, filepath.FromSlash(e.ID)+".json"), marker); err != nil {
			return w, err
		}
		start := time.Now()
		page := base + "/" + site.EntryPath("en", e.ID)
		search := base + "/api/search?lang=en&q=" + marker
		shown := time.Duration(0)
		for {
			if shown == 0 {
				if body, err := get(page); err == nil && strings.Contains(body, marker) {
					shown = time.Since(start)
				}
			}
			if shown != 0 {
				if body, err := get(search); err == nil && strings.Contains(body, e.ID) {
					break
				}
			}
			if time.Since(start) > time.Minute {
				return w, fmt.Errorf("serve --watch: the edit of %s was not shown and found within a minute", e.ID)
			}
			time.Sleep(2 * time.Millisecond)
		}
		lat = append(lat, shown)
		found = append(found, time.Since(start))
		time.Sleep(200 * time.Millisecond) // let the previous update settle, as between a person's edits
	}
	return watchFigures{percentile(lat, 50), percentile(lat, 100), percentile(found, 50), percentile(found, 100)}, nil
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
