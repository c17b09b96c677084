package paste

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// The browser runs the same readers (assets/paste.js) with the patterns and
// trigger words written here: the site's build writes them to TablePath,
// so that a pattern is written once. Each pattern must mean the same in RE2
// and in JavaScript and must not make a backtracking engine blow up: no
// unbounded repetition inside another, nor two side by side that can take
// the same characters (TestPatternsPortable holds both).

// TablePath is the script the build writes with the readers' table;
// paste.js reads it as window.p2pkbPasteTable.
const TablePath = "assets/paste.table.js"

// patterns are the readers' regular expressions by name, as written.
var patterns = map[string]string{}

// pattern records src under name for the browser, and compiles it when a
// line first asks it (TestPatternsCompile compiles every one).
func pattern(name, src string) *lazyRegexp {
	if _, dup := patterns[name]; dup {
		panic("paste: pattern " + name + " defined twice")
	}
	patterns[name] = src
	return &lazyRegexp{src: src}
}

// lazyRegexp is a reader's pattern, compiled on its first use: a log wakes
// few of the readers, and the programs of all of them held a quarter of
// explain's heap (5.4 of 22 MB) and a third of its start.
type lazyRegexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.src) })
	return l.re
}

func (l *lazyRegexp) String() string                 { return l.src }
func (l *lazyRegexp) MatchString(s string) bool      { return l.get().MatchString(s) }
func (l *lazyRegexp) FindString(s string) string     { return l.get().FindString(s) }
func (l *lazyRegexp) FindStringIndex(s string) []int { return l.get().FindStringIndex(s) }
func (l *lazyRegexp) FindStringSubmatch(s string) []string {
	return l.get().FindStringSubmatch(s)
}
func (l *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.get().FindStringSubmatchIndex(s)
}
func (l *lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.get().FindAllStringIndex(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.get().FindAllStringSubmatch(s, n)
}
func (l *lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.get().FindAllStringSubmatchIndex(s, n)
}
func (l *lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.get().ReplaceAllString(src, repl)
}

// jsPattern is src as a JavaScript RegExp's source and flags: RE2's
// leading (?i) becomes the i flag; the rest is written in the syntax the
// two share.
func jsPattern(src string) (string, string) {
	if s, ok := strings.CutPrefix(src, "(?i)"); ok {
		return s, "i"
	}
	return src, ""
}

// Table is the JavaScript the build writes to TablePath.
func Table() []byte {
	type jsRE struct {
		Source string `json:"s"`
		Flags  string `json:"f,omitempty"`
	}
	names := make([]string, 0, len(patterns))
	for n := range patterns {
		names = append(names, n)
	}
	sort.Strings(names)
	t := struct {
		Patterns map[string]jsRE     `json:"patterns"`
		Triggers [][2]any            `json:"triggers"` // word, reader (prefilter.go)
		Words    map[string][]string `json:"words"`    // the readers' lists of words
		MaxText  int                 `json:"maxText"`
		MaxGPUs  int                 `json:"maxGPUs"`
		MaxEnv   int                 `json:"maxEnv"`
		MaxLine  int                 `json:"maxLine"`
		// The greatest difference of a failed array check read as rounding.
		CloseLimit float64 `json:"closeLimit"`
		// How far, in bytes, from a small difference said in words its
		// results are looked for.
		CloseNear int `json:"closeNear"`
		// How many lines after a hang that points at what follows the
		// call it points at is looked for.
		IntroNear int `json:"introNear"`
		// The symptoms, the most telling first (symptomConditions): fact,
		// the condition that shows it, whether it is Weak, SaidOnly,
		// Explains and ProgramFirst.
		Symptoms [][6]any `json:"symptoms"`
		// The prose readers' facts (proseFactRows): name, priority,
		// source, the event of paste.js's prose state, its gate.
		ProseFacts [][5]any `json:"proseFacts"`
	}{Patterns: map[string]jsRE{}, MaxText: MaxText, MaxGPUs: maxGPUs, MaxEnv: maxEnv, MaxLine: MaxLine, CloseLimit: closeLimit, CloseNear: closeNear, IntroNear: introNear,
		Words: map[string][]string{"setUp": ncclSetUpWords, "teardown": ncclTeardownWords, "quiet": ncclQuietWords, "tfAllReduce": tfAllReduceWords, "pynccl": pyncclWords, "consumer": consumerWords, "hang": hangWords, "dist": distWords, "wrong": wrongWords, "mig": migWords, "vm": vmWords, "containers": containerWords, "p2pIntent": p2pIntentWords, "amd": amdWords, "sockets": socketWords, "slow": slowWords, "shm": shmWords, "fm": fmWords, "nvls": nvlsWords, "windows": windowsWords, "winLaunch": winLaunchWords, "bwFigure": bwFigureWords, "bwCarrier": bwCarrierWords, "setpciACS": setpciACSWords, "customAR": customARWords, "testGPU": testGPUWords}}
	t.Words["ncclSaid"], t.Words["torchSaid"], t.Words["gpuName"] = ncclSaidWords, torchSaidWords, gpuNameWords
	t.Words["scale"] = scaleWords
	t.Words["metric"] = metricWords
	t.Words["metricQuality"] = metricQualityWords
	t.Words["metricSteps"] = metricStepsWords
	t.Words["oneUsed"] = oneUsedWords
	t.Words["sameGPU"] = sameGPUWords
	t.Words["story"], t.Words["storyComponents"] = storyWords, storyComponentWords()
	t.Words["torchNCCL"] = torchNCCL
	t.Words["storyInstall"], t.Words["storyBare"], t.Words["storyBisect"] = storyInstallWords, storyBareWords, storyBisectWords
	t.Words["acs"], t.Words["iommu"], t.Words["path"], t.Words["place"] = acsWords, iommuWords, pathFactNames, placeFactNames
	t.Words["peerAlready"], t.Words["ibvWarn"], t.Words["fabricNS"] = peerAlreadyWords, ibvWarnWords, fabricNSWords
	t.Words["errorColumn"], t.Words["testsNamed"], t.Words["noNCCLSaid"] = errorColumnWords, testsNamedWords, noNCCLSaidWords
	t.Words["splitMode"] = splitModeWords
	t.Words["platform"], t.Words["platformNames"] = platformWords, platformNames
	t.Words["hangLine"] = hangLineWords
	t.Words["outcome"] = outcomeFacts
	t.Words["beside"] = besideFacts
	t.Words["amdGPU"] = amdGPUWords
	t.Words["init"] = initWords
	t.Words["hostReset"] = hostResetWords
	t.Words["cudaBuild"] = cudaBuildWords
	t.Words["riser"] = riserWords
	t.Words["gpuLost"], t.Words["gpuLostSkip"] = gpuLostWords, gpuLostSkip
	t.Words["oom"], t.Words["oomSkip"] = oomWords, oomSkip
	t.Words["several"] = severalWords
	t.Words["spin"] = spinWords
	t.Words["lossNaN"] = lossNaNWords
	t.Words["lossZero"], t.Words["zeroSaid"], t.Words["zero2"] = lossZeroWords, zeroWords, zero2Words
	t.Words["nodes"] = nodeWords
	t.Words["diverge"] = divergeWords
	t.Words["masterLoopback"] = masterLoopbackWords
	t.Words["p2pOff"] = p2pOffWords
	t.Words["nodeLocal"] = nodeLocalWords
	t.Words["secondJob"] = secondJobWords
	t.Words["secondJobNouns"] = secondJobNouns
	t.Words["training"] = trainingWords
	t.Words["elsewhere"] = elsewhereWords
	t.Words["mixedDevices"] = mixedDevicesWords
	t.Words["firstOnly"] = firstOnlyWords
	t.Words["timeoutSaid"] = timeoutSaidWords
	t.Words["codeLangs"] = codeLangs
	t.Words["close"] = closeWords
	t.Words["issueForm"] = append([]string{issueFormQuestion}, issueFormAnswers...)
	for _, n := range names {
		s, f := jsPattern(patterns[n])
		t.Patterns[n] = jsRE{s, f}
	}
	for _, sc := range rankedSymptoms {
		t.Symptoms = append(t.Symptoms, [6]any{sc.fact, sc.cond, Weak(sc.fact), SaidOnly(sc.fact), Explains(sc.fact), ProgramFirst(sc.fact)})
	}
	for _, f := range proseFactRows {
		t.ProseFacts = append(t.ProseFacts, [5]any{f.name, f.prio, f.source, f.event, f.gate})
	}
	for _, tr := range triggers {
		t.Triggers = append(t.Triggers, [2]any{tr.word, int(tr.r)})
	}
	var b strings.Builder
	b.WriteString("// The paste readers' patterns and trigger words, written by the build from\n// internal/paste (table.go); paste.js runs them.\nwindow.p2pkbPasteTable = ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(t); err != nil {
		panic(fmt.Sprintf("paste: table: %v", err)) // plain strings and numbers always encode
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return []byte(s + ";\n")
}
