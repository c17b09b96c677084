package kb

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/p2pkb/p2pkb/internal/parallel"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// SchemaFile is the schema's name at the root of a KB.
const SchemaFile = "schema.json"

// ReproDir holds reproducers, not entries.
const ReproDir = "repro"

type options struct {
	name    string
	schema  []byte
	cache   *Cache
	generic bool // check every file with the generic validator, as a test compares
	syntax  bool // keep each entry's parsed pattern (WithPatternSyntax)
}

// Option configures Load.
type Option func(*options)

// WithName sets how the KB's root is written in messages (default "kb"), so
// that a problem reads kb/cuda/x.json:3:5 whatever fs.FS holds it.
func WithName(name string) Option { return func(o *options) { o.name = name } }

// WithDefaultSchema supplies the schema to use when the KB has no schema.json.
func WithDefaultSchema(schema []byte) Option { return func(o *options) { o.schema = schema } }

// WithPatternSyntax keeps each entry's pattern as the loader parsed it to
// check it (Entry.PatternSyntax), for a caller that reads the patterns'
// syntax: parsing them all again was a tenth of search --kb's time. A
// parsed pattern takes about a kilobyte.
func WithPatternSyntax() Option { return func(o *options) { o.syntax = true } }

// WithCache reuses the entries of an earlier load with the same cache for
// files whose size and modification time are unchanged, so that a reload
// after an edit checks only the edited files (serve --watch).
func WithCache(c *Cache) Option { return func(o *options) { o.cache = c } }

// Cache holds checked files between loads; the zero value is empty.
type Cache struct {
	mu        sync.Mutex
	schema    string // the schema the files were checked against
	files     map[string]cachedFile
	verbatims map[string]verbatimCheck // by signature
}

// verbatimCheck is the verdict on a reproduced signature, kept with the
// output and program it was reached from.
type verbatimCheck struct {
	out, program []byte
	msg          string
}

// verbatim returns check's verdict on sig, from the cache where the output
// and the program are the same as then: normalizing every output again
// made a reload after an edit many times slower.
func (c *Cache) verbatim(sig string, out, program []byte, check func() string) string {
	if c == nil {
		return check()
	}
	c.mu.Lock()
	v, ok := c.verbatims[sig]
	c.mu.Unlock()
	if ok && bytes.Equal(v.out, out) && bytes.Equal(v.program, program) {
		return v.msg
	}
	msg := check()
	c.mu.Lock()
	if c.verbatims == nil {
		c.verbatims = map[string]verbatimCheck{}
	}
	c.verbatims[sig] = verbatimCheck{out, program, msg}
	c.mu.Unlock()
	return msg
}

type cachedFile struct {
	size     int64
	mod      time.Time
	entry    *Entry
	problems Problems
	warnings []Problem
}

func (c *Cache) get(schema []byte, p string, info fs.FileInfo) (cachedFile, bool) {
	if c == nil || info == nil {
		return cachedFile{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.schema != string(schema) {
		c.schema, c.files = string(schema), nil
	}
	f, ok := c.files[p]
	return f, ok && f.size == info.Size() && f.mod.Equal(info.ModTime())
}

func (c *Cache) put(p string, info fs.FileInfo, f cachedFile) {
	if c == nil || info == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]cachedFile{}
	}
	f.size, f.mod = info.Size(), info.ModTime()
	c.files[p] = f
}

// Load reads every entry under fsys, checks it, and returns the KB. Its error
// is a Problems listing everything wrong, each with file, line and field.
func Load(fsys fs.FS, opts ...Option) (*KB, error) {
	o := options{name: "kb"}
	for _, opt := range opts {
		opt(&o)
	}
	schemaData, err := fs.ReadFile(fsys, SchemaFile)
	if errors.Is(err, fs.ErrNotExist) && o.schema != nil {
		schemaData, err = o.schema, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: schema: %w", o.name, err)
	}
	// The built-in schema is checked by typed code; the generic validator
	// decides what that leaves (broken JSON) and checks any other schema.
	typed := !o.generic && isBuiltinSchema(schemaData)
	var schema *jsonschema.Schema
	var schemaErr error
	var compileOnce sync.Once
	compiled := func() (*jsonschema.Schema, error) {
		compileOnce.Do(func() { schema, schemaErr = compileSchema(schemaData) })
		return schema, schemaErr
	}
	if !typed {
		if _, err := compiled(); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", o.name, SchemaFile, err)
		}
	}

	var files []string
	var infos []fs.FileInfo // with a cache only
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p == ReproDir {
			return fs.SkipDir
		}
		if !d.IsDir() && path.Ext(p) == ".json" && p != SchemaFile {
			files = append(files, p)
			if o.cache != nil {
				info, err := d.Info()
				if err != nil {
					return err
				}
				infos = append(infos, info)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", o.name, err)
	}

	check := func() *loader {
		return &loader{name: o.name, typed: typed, schema: compiled, fsys: fsys, syntax: o.syntax}
	}
	results, err := o.checkFiles(fsys, files, infos, schemaData, check)
	if err != nil {
		return nil, err
	}
	l := loader{name: o.name, fsys: fsys}
	kb := &KB{ByID: map[string]*Entry{}}
	for _, r := range results {
		l.problems = append(l.problems, r.l.problems...)
		l.warnings = append(l.warnings, r.l.warnings...)
		if r.entry != nil {
			kb.ByID[r.entry.ID] = r.entry
			kb.Entries = append(kb.Entries, r.entry)
		}
	}
	sort.Slice(kb.Entries, func(i, j int) bool { return kb.Entries[i].ID < kb.Entries[j].ID })
	kb.Repro = map[string][]byte{}
	if err := l.reproducers(fsys, kb, o.cache); err != nil {
		return nil, err
	}
	l.links(kb)
	kb.Warnings = l.warnings
	if len(l.problems) > 0 {
		return nil, l.problems
	}
	return kb, nil
}

// checked is one file's entry and the loader that checked it.
type checked struct {
	entry *Entry
	l     *loader
}

// checkFiles reads and checks the files in parallel, each by a loader of
// its own that newLoader makes; the results are in file order, so that
// messages come out the same every run. infos, when there is a cache, are
// the files' for it.
func (o *options) checkFiles(fsys fs.FS, files []string, infos []fs.FileInfo, schemaData []byte, newLoader func() *loader) ([]checked, error) {
	results := make([]checked, len(files))
	bufs := make([][]byte, parallel.Workers()) // each worker's last file: what is kept of it is copied
	err := parallel.For(context.Background(), len(files), len(bufs), func(w, i int) error {
		var info fs.FileInfo
		if infos != nil {
			info = infos[i]
		}
		if c, ok := o.cache.get(schemaData, files[i], info); ok {
			results[i] = checked{c.entry, &loader{name: o.name, problems: c.problems, warnings: c.warnings}}
			return nil
		}
		data, err := readFile(fsys, files[i], bufs[w])
		bufs[w] = data
		if err != nil {
			return fmt.Errorf("%s/%s: %w", o.name, files[i], err)
		}
		fl := newLoader()
		results[i] = checked{fl.file(files[i], data), fl}
		o.cache.put(files[i], info, cachedFile{entry: results[i].entry, problems: fl.problems, warnings: fl.warnings})
		return nil
	})
	return results, err
}

// readFile reads the file name into buf, grown as it needs: reading each
// file into a new buffer was a fifth of what loading a large KB allocated.
// The buffer soon fits the largest file, so the size is not asked for.
func readFile(fsys fs.FS, name string, buf []byte) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return buf, err
	}
	defer f.Close()
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, max(16<<10, len(buf)))
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func compileSchema(data []byte) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(SchemaFile, doc); err != nil {
		return nil, err
	}
	return c.Compile(SchemaFile)
}

type loader struct {
	name     string
	typed    bool                               // the built-in schema, checked by typed code
	schema   func() (*jsonschema.Schema, error) // the generic validator, compiled when first needed
	problems Problems
	warnings []Problem
	fsys     fs.FS // for placing problems found across files, in files read again then
	syntax   bool  // keep each entry's parsed pattern
}

// data reads a file again to place a problem found after its own checks.
func (l *loader) data(p string) []byte {
	b, _ := fs.ReadFile(l.fsys, p)
	return b
}

var printer = message.NewPrinter(language.English)

func (l *loader) problem(file string, data []byte, tokens []string, msg string) Problem {
	p := Problem{File: l.name + "/" + file, Field: fieldPath(tokens), Message: msg}
	if data != nil {
		p.Line, p.Col = lineCol(data, locate(data, tokens))
	}
	return p
}

func (l *loader) fail(file string, data []byte, tokens []string, msg string) {
	l.problems = append(l.problems, l.problem(file, data, tokens, msg))
}

// warn records a warning, placed in its file only when it is shown (see
// Problem.Placed): a build shows none, and placing thousands of them in a
// large KB was a fifth of its loading.
func (l *loader) warn(file string, data []byte, tokens []string, msg string) {
	p := Problem{File: l.name + "/" + file, Field: fieldPath(tokens), Message: msg}
	if data != nil {
		p.place = &placement{fsys: l.fsys, path: file, tokens: tokens}
	}
	l.warnings = append(l.warnings, p)
}

// file checks and decodes one entry; nil when it has errors.
func (l *loader) file(p string, data []byte) *Entry {
	if l.typed {
		if e, ok := l.typedFile(p, data); ok {
			return e
		}
	}
	return l.generic(p, data)
}

// typedFile checks and decodes one entry with the typed checks; ok is false
// when the generic path must decide.
func (l *loader) typedFile(p string, data []byte) (e *Entry, ok bool) {
	e = &Entry{File: l.name + "/" + p}
	d, err := decodeTyped(data, e)
	if err != nil {
		return nil, false
	}
	if len(d.problems) > 0 {
		for _, pr := range d.problems {
			l.fail(p, data, pr.tokens, pr.msg)
			if pr.field != "" {
				l.problems[len(l.problems)-1].Field = pr.field
			}
		}
		return nil, true
	}
	before := len(l.problems)
	l.check(p, data, e, d.todos)
	if len(l.problems) > before {
		return nil, true
	}
	return e, true
}

// generic checks and decodes one entry with the generic validator.
func (l *loader) generic(p string, data []byte) *Entry {
	before := len(l.problems)
	schema, err := l.schema()
	if err != nil {
		l.fail(p, nil, nil, fmt.Sprintf("%s/%s: %v", l.name, SchemaFile, err))
		return nil
	}

	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		// encoding/json says where: parse again only for the message.
		var raw any
		if err := json.Unmarshal(data, &raw); err != nil {
			pr := Problem{File: l.name + "/" + p, Message: "invalid JSON: " + err.Error()}
			var syn *json.SyntaxError
			if errors.As(err, &syn) {
				pr.Line, pr.Col = lineCol(data, int(syn.Offset)-1) // Offset is just past the bad byte
			}
			l.problems = append(l.problems, pr)
			return nil
		}
		l.fail(p, nil, nil, "invalid JSON: "+err.Error())
		return nil
	}
	if err := schema.Validate(inst); err != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			l.fail(p, nil, nil, err.Error())
			return nil
		}
		l.schemaProblems(p, data, verr)
		return nil
	}
	e := &Entry{File: l.name + "/" + p}
	if err := json.Unmarshal(data, e); err != nil {
		l.fail(p, nil, nil, err.Error())
		return nil
	}
	l.check(p, data, e, todoPaths(data))
	if len(l.problems) > before {
		return nil
	}
	return e
}

// schemaProblems reports the leaves of a schema validation error, where the
// actual mistakes are.
func (l *loader) schemaProblems(p string, data []byte, verr *jsonschema.ValidationError) {
	switch k := verr.ErrorKind.(type) {
	case *kind.Required:
		for _, m := range k.Missing {
			l.fail(p, data, verr.InstanceLocation, fmt.Sprintf("missing required field %q", m))
			l.problems[len(l.problems)-1].Field = fieldPath(append(append([]string{}, verr.InstanceLocation...), m))
		}
		return
	case *kind.AdditionalProperties:
		for _, prop := range k.Properties {
			l.fail(p, data, append(append([]string{}, verr.InstanceLocation...), prop), "unknown field (see kb/schema.json for the fields an entry has)")
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		// The first alternative is the one people mean; listing every branch confuses.
		if len(verr.Causes) > 0 {
			l.schemaProblems(p, data, verr.Causes[0])
			return
		}
	}
	if len(verr.Causes) == 0 {
		l.fail(p, data, verr.InstanceLocation, verr.ErrorKind.LocalizedString(printer))
		return
	}
	for _, c := range verr.Causes {
		l.schemaProblems(p, data, c)
	}
}

// check applies the rules a schema cannot state; todos are the paths of
// the strings that still say TODO.
func (l *loader) check(p string, data []byte, e *Entry, todos [][]string) {
	if want := strings.TrimSuffix(p, ".json"); e.ID != want {
		l.fail(p, data, []string{"id"}, fmt.Sprintf("id %q does not match the file path: the file for it is %s/%s.json, or the id should be %q", e.ID, l.name, e.ID, want))
	}
	for _, part := range strings.Split(e.ID, "/") {
		if why := segmentProblem(part); why != "" {
			l.fail(p, data, []string{"id"}, fmt.Sprintf("id %q: the part %q %s; an id names the entry's folder kb/<id>/, each part one folder", e.ID, short(part), why))
			break
		}
	}
	for _, f := range []struct {
		field string
		n     int // characters or items
		max   int
		what  string
	}{
		{"signature", utf8.RuneCountInString(e.Signature), MaxSignature, "characters"},
		{"signature_zh", utf8.RuneCountInString(e.SignatureZH), MaxSignature, "characters"},
		{"regex", utf8.RuneCountInString(e.Regex), MaxSignature, "characters"},
		{"root_cause", utf8.RuneCountInString(e.RootCause), MaxText, "characters"},
		{"root_cause_zh", utf8.RuneCountInString(e.RootCauseZH), MaxText, "characters"},
		{"workarounds", len(e.Workarounds), MaxItems, "items"},
		{"workarounds_zh", len(e.WorkaroundsZH), MaxItems, "items"},
		{"dead_ends", len(e.DeadEnds), MaxItems, "items"},
		{"versions", len(e.Versions), MaxItems, "items"},
		{"tags", len(e.Tags), MaxItems, "items"},
		{"aliases", len(e.Aliases), MaxItems, "items"},
	} {
		if f.n > f.max {
			l.fail(p, data, []string{f.field}, fmt.Sprintf("%d %s, more than the %d an entry may have", f.n, f.what, f.max))
		}
	}
	if why := segmentProblem(e.ErrorCode); why != "" {
		l.fail(p, data, []string{"error_code"}, fmt.Sprintf("error code %q %s; the code names the site's folder e/<code>/, so it must be one folder name", short(e.ErrorCode), why))
	}
	if matched, re, err := matchesPortable(e.Regex, e.Signature); err != nil {
		l.fail(p, data, []string{"regex"}, "does not compile: "+err.Error())
	} else if !matched {
		l.fail(p, data, []string{"regex"}, "does not match the entry's own signature")
	} else if why := backtracks(re); why != "" {
		l.fail(p, data, []string{"regex"}, why+": JavaScript's backtracking engine, which runs the pattern in the site's search, could take minutes on a line that almost matches; make each repetition need a character the other cannot take")
	} else if l.syntax {
		e.syntax = re
	}
	for _, d := range []struct {
		field, value string
	}{{"first_seen", e.FirstSeen}, {"last_confirmed", e.LastConfirmed}, {"last_updated", e.LastUpdated}} {
		if d.value == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, d.value); err != nil {
			l.fail(p, data, []string{d.field}, fmt.Sprintf("%q is not an ISO date (YYYY-MM-DD)", d.value))
		}
	}
	l.checkRules(p, data, e)
	for _, path := range todos {
		l.fail(p, data, path, "still says TODO: write it before the entry is published")
	}
	l.checkSignatureSource(p, data, e)
	l.checkTruth(p, data, e)
	if len(e.WorkaroundsZH) > len(e.Workarounds) {
		l.fail(p, data, []string{"workarounds_zh"}, fmt.Sprintf("has %d items for %d workarounds", len(e.WorkaroundsZH), len(e.Workarounds)))
	}

	l.warnChinese(p, data, e)
}

// TODO marks what `p2pkb new` leaves for a person to write; no entry is
// published with one left.
const TODO = "TODO"

// todoPaths lists the paths of the strings in an entry that still hold a
// TODO of its skeleton, keys in order.
func todoPaths(data []byte) [][]string {
	if !bytes.Contains(data, []byte(TODO)) {
		return nil
	}
	var raw any
	if json.Unmarshal(data, &raw) != nil {
		return nil
	}
	var out [][]string
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(x[k], append(path, k))
			}
		case []any:
			for i, y := range x {
				walk(y, append(path, fmt.Sprint(i)))
			}
		case string:
			if strings.Contains(x, TODO) {
				out = append(out, append([]string(nil), path...))
			}
		}
	}
	walk(raw, nil)
	return out
}

// checkRules parses every condition and version constraint, so that a
// typo fails lint rather than silently never applying.
func (l *loader) checkRules(p string, data []byte, e *Entry) {
	check := func(tokens []string, src string) {
		if _, err := rules.Parse(src); err != nil {
			l.fail(p, data, tokens, "condition does not parse: "+err.Error())
		}
	}
	check([]string{"applies_when"}, e.AppliesWhen)
	for i, w := range e.Workarounds {
		check([]string{"workarounds", fmt.Sprint(i), "condition"}, w.Condition)
	}
	for i, d := range e.DeadEnds {
		check([]string{"dead_ends", fmt.Sprint(i), "condition"}, d.Condition)
	}
	for i, v := range e.Versions {
		if _, err := rules.Constraint(v.Version); err != nil {
			l.fail(p, data, []string{"versions", fmt.Sprint(i), "version"}, err.Error())
		}
	}
}

// checkSignatureSource makes every entry say where its signature was copied
// from, so that a reader can hold it against what the software prints.
func (l *loader) checkSignatureSource(p string, data []byte, e *Entry) {
	s := e.SignatureSource
	var tokens []string
	var field, msg string
	switch {
	case s == nil:
		// Placed at the signature, where the field belongs.
		tokens, field = []string{"signature"}, "signature_source"
		msg = `missing: say where the signature was copied from: {"kind": "reproduction"} with a reproducer, or "source", "report" or "documentation" with the url of the line, the report or the page`
	case s.Kind != "reproduction" && s.URL == "":
		tokens, field = []string{"signature_source"}, "signature_source.url"
		msg = fmt.Sprintf("missing: kind %q needs the url of the line that prints the signature, the report or the page it was copied from", s.Kind)
	case s.Kind == "reproduction" && e.Reproducer == nil:
		tokens, field = []string{"signature_source", "kind"}, "signature_source.kind"
		msg = "reproduction needs a reproducer: the program under kb/repro/ and the output that printed the signature"
	default:
		return
	}
	pr := l.problem(p, data, tokens, msg)
	pr.Field = field
	l.problems = append(l.problems, pr)
}

// warnChinese lists text the Chinese pages must show in English.
func (l *loader) warnChinese(p string, data []byte, e *Entry) {
	// Missing Chinese falls back to English on the page; lint lists it. The
	// signature is shown as printed on every page, so a missing
	// translation of it is no fallback.
	if e.RootCauseZH == "" {
		l.warn(p, data, []string{"root_cause"}, "no root_cause_zh: the Chinese page shows the English root cause")
	}
	for i, zh := range e.WorkaroundsZH {
		if !hasHan(zh) {
			l.warn(p, data, []string{"workarounds_zh", fmt.Sprint(i)}, "holds no Chinese text")
		}
	}
	for i := len(e.WorkaroundsZH); i < len(e.Workarounds); i++ {
		l.warn(p, data, []string{"workarounds", fmt.Sprint(i)}, "no Chinese text in workarounds_zh: the Chinese page shows English")
	}
	for i, d := range e.DeadEnds {
		if d.WhyFailsZH == "" {
			l.warn(p, data, []string{"dead_ends", fmt.Sprint(i)}, "no why_fails_zh: the Chinese page shows English")
		}
	}
}

// reproducers loads kb/repro/ and checks that each reproduced entry's output
// really contains its signature.
func (l *loader) reproducers(fsys fs.FS, kb *KB, cache *Cache) error {
	names, err := fs.Glob(fsys, ReproDir+"/*")
	if err != nil {
		return err
	}
	for _, n := range names {
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			return fmt.Errorf("%s/%s: %w", l.name, n, err)
		}
		kb.Repro[n] = data
	}
	outputs := map[string]normalized{}
	programs := map[string][]string{}
	for _, e := range kb.Entries {
		p := strings.TrimPrefix(e.File, l.name+"/")
		r := e.Reproducer
		if r == nil {
			if e.VerificationTier == "reproduced" {
				l.fail(p, l.data(p), []string{"verification_tier"}, "reproduced needs a reproducer: the program under kb/repro/ and the output it printed")
			}
			continue
		}
		for _, f := range []struct{ field, path string }{{"program", r.Program}, {"output", r.Output}} {
			if _, ok := kb.Repro[f.path]; !ok {
				l.fail(p, l.data(p), []string{"reproducer", f.field}, fmt.Sprintf("no file %s/%s", l.name, f.path))
			}
		}
		out, ok := kb.Repro[r.Output]
		if !ok {
			continue
		}
		re := regexp.MustCompile(e.Regex) // checked above
		// A cached entry keeps the line of an earlier output.
		r.Line = ""
		for _, line := range strings.Split(string(out), "\n") {
			if re.MatchString(line) {
				r.Line = strings.TrimSpace(line)
				break
			}
		}
		if r.Line == "" {
			l.fail(p, l.data(p), []string{"reproducer", "output"}, fmt.Sprintf("%s/%s has no line the entry's regex matches: the reproduction did not print the signature", l.name, r.Output))
		}
		// The pattern finding a line is not enough: the signature itself is
		// copied from the output.
		if msg := cache.verbatim(e.Signature, out, kb.Repro[r.Program], func() string {
			// Outputs and programs serve several entries: each is read once.
			nt, ok := outputs[r.Output]
			if !ok {
				nt = normalize(string(out))
				outputs[r.Output] = nt
			}
			parts, ok := programs[r.Program]
			if !ok {
				parts = harnessParts(string(kb.Repro[r.Program]))
				programs[r.Program] = parts
			}
			if msg := verbatimIn(e.Signature, string(out), nt); msg != "" {
				return fmt.Sprintf("does not appear in %s/%s (the reproducer's output): %s", l.name, r.Output, msg)
			}
			if h := harnessIn(e.Signature, parts); h != "" {
				return fmt.Sprintf("first differs at character %d: %q is printed by the reproducer %s/%s itself, not by the software under test: copy only what the software prints", charAt(e.Signature, strings.Index(e.Signature, h)), h, l.name, r.Program)
			}
			return ""
		}); msg != "" {
			l.fail(p, l.data(p), []string{"signature"}, msg)
		}
	}
	return nil
}

// links checks that every transition_graph id names an entry.
func (l *loader) links(kb *KB) {
	for _, e := range kb.Entries {
		p := strings.TrimPrefix(e.File, l.name+"/")
		for _, g := range []struct {
			field string
			ids   []string
		}{
			{"leads_to", e.TransitionGraph.LeadsTo},
			{"preceded_by", e.TransitionGraph.PrecededBy},
			{"frequently_confused_with", e.TransitionGraph.FrequentlyConfusedWith},
		} {
			for i, id := range g.ids {
				if _, ok := kb.ByID[id]; !ok {
					l.fail(p, l.data(p), []string{"transition_graph", g.field, fmt.Sprint(i)}, fmt.Sprintf("no entry has id %q", id))
				}
			}
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// Limits of an entry's fields, far above what an entry needs, so that a
// broken or hostile file is refused with its field named rather than
// making pages of megabytes: a signature is one message, a root cause a
// few paragraphs.
const (
	MaxSignature = 1000  // characters of signature, signature_zh and regex
	MaxText      = 16000 // characters of root_cause and root_cause_zh
	MaxItems     = 64    // items of workarounds, dead_ends, versions, tags, aliases
)

// MaxSegment is the longest id part or error code: each names a folder of
// the site, and file systems refuse names past 255 bytes.
const MaxSegment = 100

// segmentProblem says why s cannot name one folder of the output, or "".
// Any schema's patterns aside, "." and ".." would name the folder above
// (e/../index.html is the site's root page).
func segmentProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case s == "." || s == "..":
		return "is . or .., which names no folder of its own"
	case strings.ContainsAny(s, "/\\"):
		return "holds a slash"
	case len(s) > MaxSegment:
		return fmt.Sprintf("is %d bytes long, more than %d", len(s), MaxSegment)
	case strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return "holds a control character"
	}
	return ""
}

// short keeps a message about a long value readable.
func short(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "…"
}
