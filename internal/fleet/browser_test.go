package fleet

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
	"github.com/p2pkb/p2pkb/internal/build/buildtest"
	"github.com/p2pkb/p2pkb/internal/rules"
)

func fileURL(t testing.TB, p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: abs}).String()
}

// assets/fleet.js folds the same fleet into the same view as Go: verdicts,
// problems, outliers, versions and entries, node for node.
func TestBrowserFoldAgreesWithGo(t *testing.T) {
	dir := t.TempDir()
	fleetCase(t, dir)
	// One file that is not a report, and a second report of one node.
	os.WriteFile(filepath.Join(dir, "gpu-c01.json"), []byte(`{"not": "a report"}`), 0o644)
	sub := filepath.Join(dir, "again")
	os.Mkdir(sub, 0o755)
	data, _ := os.ReadFile(filepath.Join(dir, "gpu-b01.json"))
	os.WriteFile(filepath.Join(sub, "gpu-b01.json"), data, 0o644)

	k := repoKB(t)
	want, err := Read([]string{dir}, Options{Entries: k.Entries})
	if err != nil {
		t.Fatal(err)
	}
	type report struct {
		Path string `json:"path"`
		Text string `json:"text"`
	}
	var reports []report
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			reports = append(reports, report{p, string(b)})
		}
		return nil
	})
	// The order files arrive in must not matter.
	sort.Slice(reports, func(i, j int) bool { return reports[i].Path > reports[j].Path })
	type entry struct {
		ID        string   `json:"id"`
		Signature string   `json:"signature"`
		Versions  []string `json:"versions"`
		When      string   `json:"when"`
	}
	var entries []entry
	for _, e := range k.Entries {
		var versions []string
		for _, v := range e.Versions {
			versions = append(versions, v.Version)
		}
		if x, _ := rules.Compile(versions, e.AppliesWhen); x != nil {
			entries = append(entries, entry{e.ID, e.Signature, versions, e.AppliesWhen})
		}
	}

	b := browsertest.New(t)
	b.OpenScripts(browsertest.TempScript(t, "rules.table.js", rules.Table()), "../../assets/rules.js", "../../assets/fleet.js")
	in, _ := json.Marshal(reports)
	es, _ := json.Marshal(entries)
	raw := browsertest.Eval[json.RawMessage](b, `p2pkbFleet.fold(`+string(in)+`, `+string(es)+`, {})`)
	var got View
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	got.Threshold = want.Threshold
	// The browser's JSON parser words its complaint its own way.
	for i := range got.Unread {
		if strings.HasSuffix(got.Unread[i].Error, `it has no probe.name "p2p-probe" and schema_version`) {
			got.Unread[i].Error = want.Unread[i].Error
		}
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		w, _ := json.MarshalIndent(want, "", " ")
		t.Errorf("browser:\n%s\nGo:\n%s", g, w)
	}
	if len(want.Unread) != 2 || len(want.Entries) == 0 || len(want.Outliers) != 2 {
		t.Errorf("the case should hold two unreadable files, outliers and entries: %+v", want)
	}
}

// The fleet page of the built site reads chosen report files and a .tar.gz
// of them from file:// and names the injected faults, in both languages.
func TestFleetPageNamesTheFaults(t *testing.T) {
	dir := t.TempDir()
	fleetCase(t, dir)
	out := buildtest.Site(t, "")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	b := browsertest.New(t)
	for _, lang := range []string{"en", "zh"} {
		b.Do(chromedp.Navigate(fileURL(t, filepath.Join(out, lang, "fleet", "index.html"))),
			chromedp.WaitReady(chromedp.CSS("#fleet-files")),
			chromedp.SetUploadFiles(chromedp.CSS("#fleet-files"), files))
		var text string
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			text = browsertest.Eval[string](b, `document.getElementById("fleet-view").innerText`)
			if text != "" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		b.Screenshot("fleet-" + lang)
		failed := browsertest.Eval[string](b, `(document.querySelector("[data-verdict=failed]") || {}).textContent || ""`)
		slow := browsertest.Eval[string](b, `(document.querySelector("[data-verdict=slow]") || {}).textContent || ""`)
		if !strings.Contains(failed, "gpu-a08") || !strings.Contains(slow, "gpu-a05, gpu-a11") {
			t.Errorf("%s: failed %q, slow %q", lang, failed, slow)
		}
		// innerText shows the runs of spaces of the terminal's columns as one.
		for _, want := range []string{"gpu-a05 GPU1->GPU2 NVIDIA H200 NV18: 151.3 GB/s", "2.21.5 (gpu-a10)", "gpu-a11 GPU3 NVIDIA H200: 17"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: the page lacks %q:\n%s", lang, want, text)
			}
		}
		if lang == "zh" && !strings.Contains(text, "失败") {
			t.Errorf("zh: verdicts not in Chinese:\n%s", text)
		}
	}
	for _, e := range b.Errors() {
		t.Errorf("browser error: %s", e)
	}
}
