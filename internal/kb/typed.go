package kb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// builtinSchemaSHA256 is the SHA-256 of kb/schema.json, the schema that the
// typed checks below state in Go. A KB that brings another schema is checked
// by the generic validator; a test fails when the file and this hash part,
// so that a change to the schema is made here too.
const builtinSchemaSHA256 = "16f704daa2ab7fa464a268197842b3e65da5c324ed1802ffe710314691e20bef"

// isBuiltinSchema tells whether schema is the one the typed checks state.
func isBuiltinSchema(schema []byte) bool {
	sum := sha256.Sum256(schema)
	return hex.EncodeToString(sum[:]) == builtinSchemaSHA256
}

// The typed checks decode an entry and check it against the built-in schema
// in one pass over its tokens, with no generic JSON value in between: the
// generic validator's own decoding and validation were most of the time of
// loading a large KB. They refuse exactly what the generic path refuses (a
// test holds them to it on every broken fixture and on fuzzed entries).
// Input outside what they decide alike (broken JSON, a name given twice,
// invalid UTF-8) goes to the generic path, which says what is wrong.

// errGeneric stops the typed checks: the generic path decides the file.
var errGeneric = errors.New("kb: left to the generic validator")

// typedProblem is one schema violation, placed by its JSON-pointer tokens.
type typedProblem struct {
	tokens []string
	field  string // the field path when it is not that of tokens: a missing field
	msg    string
}

type typedDecoder struct {
	dec      *jsontext.Decoder
	path     []string
	problems []typedProblem
	todos    [][]string // paths of the strings that hold TODO
}

// schemaPattern is a pattern of the built-in schema and the same test
// written out: the regexp names the pattern in messages, the function
// decides. Running the regexps on every id, name and url was a tenth of
// loading a large KB; a test holds each function to its regexp.
type schemaPattern struct {
	re    *regexp.Regexp
	match func(string) bool
}

// Patterns of the built-in schema.
var (
	idPattern        = schemaPattern{regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*(/[a-z0-9][a-z0-9._-]*)+$`), isID}
	namePattern      = schemaPattern{regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`), isName}
	errorCodePattern = schemaPattern{regexp.MustCompile(`^[A-Za-z0-9_.:-]+$`), isErrorCode}
	urlPattern       = schemaPattern{regexp.MustCompile(`^https?://[^\s]+$`), isURL}
	reproFilePattern = schemaPattern{regexp.MustCompile(`^repro/[A-Za-z0-9][A-Za-z0-9._-]*$`), isReproFile}
)

func isLowerDigit(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func isAlnum(c byte) bool      { return isLowerDigit(c) || 'A' <= c && c <= 'Z' }

// isSlug is [a-z0-9][a-z0-9._-]*, or without '.' when dots is false.
func isSlug(s string, dots bool) bool {
	if s == "" || !isLowerDigit(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLowerDigit(c) && c != '_' && c != '-' && (c != '.' || !dots) {
			return false
		}
	}
	return true
}

func isID(s string) bool {
	first, rest, ok := strings.Cut(s, "/")
	if !ok || !isSlug(first, true) {
		return false
	}
	for _, part := range strings.Split(rest, "/") {
		if !isSlug(part, true) {
			return false
		}
	}
	return true
}

func isName(s string) bool { return isSlug(s, false) }

func isErrorCode(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && !strings.ContainsRune("_.:-", rune(c)) {
			return false
		}
	}
	return s != ""
}

// isURL: \s is [\t\n\f\r ] in Go's syntax, and [^\s] any other rune.
func isURL(s string) bool {
	rest, ok := strings.CutPrefix(s, "https://")
	if !ok {
		rest, ok = strings.CutPrefix(s, "http://")
	}
	return ok && rest != "" && !strings.ContainsAny(rest, "\t\n\f\r ")
}

func isReproFile(s string) bool {
	name, ok := strings.CutPrefix(s, "repro/")
	if !ok || name == "" || !isAlnum(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

var (
	severities = []string{"error", "note"}
	tiers      = []string{"ai_generated", "community", "reproduced", "vendor_confirmed"}
	resolvable = []string{"yes", "partial", "no"}
	sourceKind = []string{"reproduction", "source", "report", "documentation"}
	statuses   = []string{"active", "deprecated", "removed", "fixed"}
	required   = []string{"id", "signature", "regex", "domain", "category", "root_cause",
		"versions", "dead_ends", "workarounds", "error_code", "verification_tier", "confidence"}
)

// decodeTyped decodes data into e with the typed checks. It returns
// errGeneric (or the decoder's error) when the generic path must decide.
func decodeTyped(data []byte, e *Entry) (*typedDecoder, error) {
	// From a bytes.Buffer the decoder reads data in place, with no copy. A
	// name given twice is found here (object, skip): the decoder's own
	// check kept a set of names for every object.
	d := &typedDecoder{dec: jsontext.NewDecoder(bytes.NewBuffer(data), jsontext.AllowDuplicateNames(true))}
	if err := d.entry(e); err != nil {
		return nil, err
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		return nil, errGeneric // more after the entry: the generic path words it
	}
	slices.SortFunc(d.todos, comparePaths)
	return d, nil
}

// comparePaths orders paths as the generic TODO walk visits them: object
// keys in byte order, array elements by index.
func comparePaths(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] == b[i] {
			continue
		}
		x, errx := strconv.Atoi(a[i])
		y, erry := strconv.Atoi(b[i])
		if errx == nil && erry == nil {
			return x - y
		}
		return strings.Compare(a[i], b[i])
	}
	return len(a) - len(b)
}

func (d *typedDecoder) fail(msg string) {
	d.problems = append(d.problems, typedProblem{tokens: slices.Clone(d.path), msg: msg})
}

func kindName(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "boolean"
	case '0':
		return "number"
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "invalid"
}

// peek is the kind of the next value; an error ends the typed checks.
func (d *typedDecoder) peek() (jsontext.Kind, error) {
	k := d.dec.PeekKind()
	if k == 0 {
		if _, err := d.dec.ReadToken(); err != nil {
			return 0, err
		}
		return 0, errGeneric
	}
	return k, nil
}

// wrongType reports the next value as not of the type wanted and skips it.
func (d *typedDecoder) wrongType(k jsontext.Kind, want string) error {
	d.fail(fmt.Sprintf("got %s, want %s", kindName(k), want))
	return d.skip()
}

// str reads a string; ok is false when the value was another type.
func (d *typedDecoder) str() (s string, ok bool, err error) {
	k, err := d.peek()
	if err != nil {
		return "", false, err
	}
	if k != '"' {
		return "", false, d.wrongType(k, "string")
	}
	raw, err := d.dec.ReadValue()
	if err != nil {
		return "", false, err
	}
	s = unquote(raw)
	if strings.Contains(s, TODO) {
		d.todos = append(d.todos, slices.Clone(d.path))
	}
	return s, true, nil
}

// nullableStr reads a string or null ("").
func (d *typedDecoder) nullableStr() (string, error) {
	k, err := d.peek()
	if err != nil {
		return "", err
	}
	switch k {
	case 'n':
		_, err := d.dec.ReadToken()
		return "", err
	case '"':
		s, _, err := d.str()
		return s, err
	}
	return "", d.wrongType(k, "string or null")
}

// text reads a string with the schema's constraints: at least minLen
// characters, matching pattern when it is not nil.
func (d *typedDecoder) text(minLen int, pattern *schemaPattern) (string, error) {
	s, ok, err := d.str()
	if !ok || err != nil {
		return s, err
	}
	// A character is at most 4 bytes (an invalid byte counts as one): a
	// longer string need not be counted.
	if n := len(s); n < 4*minLen {
		n = utf8.RuneCountInString(s)
		if n < minLen {
			d.fail(fmt.Sprintf("minLength: got %d, want %d", n, minLen))
			return s, nil
		}
	}
	if pattern != nil && !pattern.match(s) {
		d.fail(fmt.Sprintf("%s does not match pattern %s", quote(s), quote(pattern.re.String())))
	}
	return s, nil
}

// oneOf reads a string that must be one of values.
func (d *typedDecoder) oneOf(values []string) (string, error) {
	k, err := d.peek()
	if err != nil {
		return "", err
	}
	var s string
	if k == '"' {
		if s, _, err = d.str(); err != nil || slices.Contains(values, s) {
			return s, err
		}
	} else if err := d.skip(); err != nil {
		return "", err
	}
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = quote(v)
	}
	d.fail("value must be one of " + strings.Join(q, ", "))
	return s, nil
}

// date reads a string in the date format (YYYY-MM-DD).
func (d *typedDecoder) date() (string, error) {
	s, ok, err := d.str()
	if !ok || err != nil {
		return s, err
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		d.fail(fmt.Sprintf("%s is not valid date: %v", quote(s), err))
	}
	return s, nil
}

// number reads a number's literal; want names the type in a message.
func (d *typedDecoder) number(want string) (string, bool, error) {
	k, err := d.peek()
	if err != nil {
		return "", false, err
	}
	if k != '0' {
		return "", false, d.wrongType(k, want)
	}
	v, err := d.dec.ReadValue()
	return string(v), err == nil, err
}

var one = big.NewRat(1, 1)

// rate reads a number in [0,1], compared exactly as the schema's bounds are.
func (d *typedDecoder) rate() (float64, error) {
	lit, ok, err := d.number("number")
	if !ok || err != nil {
		return 0, err
	}
	f, ferr := strconv.ParseFloat(lit, 64)
	if ferr == nil && f > 0 && f < 1 {
		return f, nil
	}
	r, _ := new(big.Rat).SetString(lit)
	got, _ := r.Float64()
	if r.Sign() < 0 {
		d.fail(fmt.Sprintf("minimum: got %v, want 0", got))
	} else if r.Cmp(one) > 0 {
		d.fail(fmt.Sprintf("maximum: got %v, want 1", got))
	}
	return f, nil
}

// count reads an integer >= minimum that fits an int, as encoding/json decodes it.
func (d *typedDecoder) count(minimum int) (int, error) {
	lit, ok, err := d.number("integer")
	if !ok || err != nil {
		return 0, err
	}
	n, perr := strconv.ParseInt(lit, 10, 64)
	if perr == nil && n >= int64(minimum) {
		return int(n), nil
	}
	r, _ := new(big.Rat).SetString(lit)
	got, _ := r.Float64()
	switch {
	case !r.IsInt():
		d.fail("got number, want integer")
	case r.Cmp(big.NewRat(int64(minimum), 1)) < 0:
		d.fail(fmt.Sprintf("minimum: got %v, want %d", got, minimum))
	default:
		d.fail(fmt.Sprintf("%s: write a whole number of digits, without a fraction or an exponent, below 2^63", lit))
	}
	return 0, nil
}

// array reads an array, elem reading each element; ok is false when the
// value was another type.
func (d *typedDecoder) array(elem func(i int) error) (ok bool, err error) {
	k, err := d.peek()
	if err != nil {
		return false, err
	}
	if k != '[' {
		return false, d.wrongType(k, "array")
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return false, err
	}
	for i := 0; ; i++ {
		k, err := d.peek()
		if err != nil {
			return false, err
		}
		if k == ']' {
			break
		}
		d.path = append(d.path, strconv.Itoa(i))
		err = elem(i)
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return false, err
		}
	}
	_, err = d.dec.ReadToken()
	return err == nil, err
}

// strings reads an array of strings of at least minLen characters.
func (d *typedDecoder) strings(minLen int) ([]string, error) {
	out := []string{}
	ok, err := d.array(func(int) error {
		s, err := d.text(minLen, nil)
		out = append(out, s)
		return err
	})
	if !ok {
		return nil, err
	}
	return out, err
}

// urls reads an array of URLs.
func (d *typedDecoder) urls() ([]string, error) {
	out := []string{}
	ok, err := d.array(func(int) error {
		s, err := d.text(0, &urlPattern)
		out = append(out, s)
		return err
	})
	if !ok {
		return nil, err
	}
	return out, err
}

// object reads an object, member reading the value of each name (or
// reporting it unknown); it checks that the required names are there. ok
// is false when the value was another type.
func (d *typedDecoder) object(required []string, member func(name string) (known bool, err error)) (ok bool, err error) {
	k, err := d.peek()
	if err != nil {
		return false, err
	}
	if k != '{' {
		return false, d.wrongType(k, "object")
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return false, err
	}
	var seen uint64  // bit i: required[i] is there
	var names uint64 // the schema's field names given, by their bits
	var others map[string]bool
	for {
		k, err := d.peek()
		if err != nil {
			return false, err
		}
		if k == '}' {
			break
		}
		raw, err := d.dec.ReadValue()
		if err != nil {
			return false, err
		}
		var name string
		var bit uint64 // of a schema's field name
		if body := raw[1 : len(raw)-1]; bytes.IndexByte(body, '\\') < 0 {
			if n, ok := fieldNames[string(body)]; ok {
				name, bit = n.name, n.bit
			} else {
				name = string(body)
			}
		} else {
			name = unquote(raw)
			bit = fieldNames[name].bit
		}
		if bit != 0 && names&bit != 0 || bit == 0 && others[name] {
			return false, errGeneric // a name twice: the generic path says what it makes of it
		}
		names |= bit
		if bit == 0 {
			if others == nil {
				others = map[string]bool{}
			}
			others[name] = true
		}
		if i := slices.Index(required, name); i >= 0 {
			seen |= 1 << i
		}
		d.path = append(d.path, name)
		known, err := member(name)
		if err == nil && !known {
			d.fail("unknown field (see kb/schema.json for the fields an entry has)")
			err = d.skip()
		}
		d.path = d.path[:len(d.path)-1]
		if err != nil {
			return false, err
		}
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return false, err
	}
	for i, name := range required {
		if seen&(1<<i) == 0 {
			d.problems = append(d.problems, typedProblem{tokens: slices.Clone(d.path),
				field: fieldPath(append(slices.Clone(d.path), name)), msg: fmt.Sprintf("missing required field %q", name)})
		}
	}
	return true, nil
}

// entry reads one entry, as kb/schema.json describes it.
func (d *typedDecoder) entry(e *Entry) error {
	_, err := d.object(required, func(name string) (bool, error) {
		var err error
		switch name {
		case "$schema":
			_, _, err = d.str()
		case "id":
			e.ID, err = d.text(0, &idPattern)
		case "signature":
			e.Signature, err = d.text(1, nil)
		case "signature_zh":
			e.SignatureZH, _, err = d.str()
		case "former_signatures":
			e.FormerSignatures, err = d.formerSignatures()
		case "regex":
			e.Regex, err = d.text(1, nil)
		case "severity":
			e.Severity, err = d.oneOf(severities)
		case "shape":
			e.Shape, err = d.boolean()
		case "program_side":
			e.ProgramSide, err = d.boolean()
		case "domain":
			e.Domain, err = d.text(0, &namePattern)
		case "category":
			e.Category, err = d.text(0, &namePattern)
		case "subcategory":
			e.Subcategory, err = d.nullableStr()
		case "root_cause":
			e.RootCause, err = d.text(1, nil)
		case "root_cause_type":
			e.RootCauseType, _, err = d.str()
		case "root_cause_zh":
			e.RootCauseZH, _, err = d.str()
		case "versions":
			e.Versions, err = d.versions()
		case "os_specific":
			e.OSSpecific, err = d.osSpecific()
		case "dead_ends":
			e.DeadEnds, err = d.deadEnds()
		case "workarounds":
			e.Workarounds, err = d.workarounds()
		case "workarounds_zh":
			e.WorkaroundsZH, err = d.strings(0)
		case "transition_graph":
			err = d.transitionGraph(&e.TransitionGraph)
		case "official_doc_url":
			e.OfficialDocURL, err = d.docURL()
		case "official_doc_section":
			e.OfficialDocSection, err = d.nullableStr()
		case "error_code":
			e.ErrorCode, err = d.text(1, &errorCodePattern)
		case "former_codes":
			e.FormerCodes, err = d.codes()
		case "verification_tier":
			e.VerificationTier, err = d.oneOf(tiers)
		case "confidence":
			e.Confidence, err = d.rate()
		case "fix_success_rate":
			e.FixSuccessRate, err = d.rate()
		case "fix_success_rate_basis":
			e.FixSuccessBasis, err = d.rateBasis()
		case "resolvable":
			e.Resolvable, err = d.oneOf(resolvable)
		case "first_seen":
			e.FirstSeen, err = d.date()
		case "last_confirmed":
			e.LastConfirmed, err = d.date()
		case "last_updated":
			e.LastUpdated, err = d.date()
		case "evidence_count":
			e.EvidenceCount, err = d.count(0)
		case "tags":
			e.Tags, err = d.strings(0)
		case "locale":
			e.Locale, _, err = d.str()
		case "aliases":
			e.Aliases, err = d.strings(1)
		case "signature_source":
			e.SignatureSource, err = d.signatureSource()
		case "applies_when":
			e.AppliesWhen, _, err = d.str()
		case "reproducer":
			e.Reproducer, err = d.reproducer()
		default:
			return false, nil
		}
		return true, err
	})
	return err
}

// docURL reads official_doc_url: a URL or null.
func (d *typedDecoder) docURL() (string, error) {
	k, err := d.peek()
	if err != nil {
		return "", err
	}
	if k == 'n' {
		_, err := d.dec.ReadToken()
		return "", err
	}
	return d.text(0, &urlPattern) // the first alternative is the one people mean
}

// objects decodes an array of objects into a list of T: member decodes the
// member name into the element x, and says whether it knows the name;
// required lists the members each element must have.
func objects[T any](d *typedDecoder, required []string, member func(x *T, name string) (known bool, err error)) ([]T, error) {
	out := []T{}
	ok, err := d.array(func(int) error {
		var x T
		_, err := d.object(required, func(name string) (bool, error) { return member(&x, name) })
		out = append(out, x)
		return err
	})
	if !ok {
		return nil, err
	}
	return out, err
}

func (d *typedDecoder) versions() ([]Version, error) {
	return objects(d, []string{"version"}, func(v *Version, name string) (bool, error) {
		var err error
		switch name {
		case "version":
			v.Version, err = d.text(1, nil)
		case "introduced":
			v.Introduced, err = d.nullableStr()
		case "deprecated":
			v.Deprecated, err = d.nullableStr()
		case "removed":
			v.Removed, err = d.nullableStr()
		case "behavior_change":
			v.BehaviorChange, err = d.nullableStr()
		case "behavior_change_zh":
			v.BehaviorChangeZH, err = d.nullableStr()
		case "status":
			v.Status, err = d.oneOf(statuses)
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *typedDecoder) osSpecific() (map[string]string, error) {
	out := map[string]string{}
	ok, err := d.object(nil, func(name string) (bool, error) {
		s, _, err := d.str()
		out[name] = s
		return true, err
	})
	if !ok {
		return nil, err
	}
	return out, err
}

func (d *typedDecoder) deadEnds() ([]DeadEnd, error) {
	return objects(d, []string{"why_fails"}, func(x *DeadEnd, name string) (bool, error) {
		var err error
		switch name {
		case "action":
			x.Action, _, err = d.str()
		case "action_zh":
			x.ActionZH, _, err = d.str()
		case "why_fails":
			x.WhyFails, err = d.text(1, nil)
		case "why_fails_zh":
			x.WhyFailsZH, _, err = d.str()
		case "fail_rate":
			x.FailRate, err = d.rate()
		case "fail_rate_basis":
			x.FailBasis, err = d.rateBasis()
		case "condition":
			x.Condition, _, err = d.str()
		case "sources":
			x.Sources, err = d.urls()
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *typedDecoder) workarounds() ([]Workaround, error) {
	return objects(d, []string{"action"}, func(x *Workaround, name string) (bool, error) {
		var err error
		switch name {
		case "action":
			x.Action, err = d.text(1, nil)
		case "success_rate":
			x.SuccessRate, err = d.rate()
		case "success_rate_basis":
			x.SuccessBasis, err = d.rateBasis()
		case "how":
			x.How, _, err = d.str()
		case "condition":
			x.Condition, _, err = d.str()
		case "sources":
			x.Sources, err = d.urls()
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *typedDecoder) transitionGraph(g *TransitionGraph) error {
	_, err := d.object(nil, func(name string) (bool, error) {
		var err error
		switch name {
		case "leads_to":
			g.LeadsTo, err = d.strings(0)
		case "preceded_by":
			g.PrecededBy, err = d.strings(0)
		case "frequently_confused_with":
			g.FrequentlyConfusedWith, err = d.strings(0)
		default:
			return false, nil
		}
		return true, err
	})
	return err
}

func (d *typedDecoder) signatureSource() (*SignatureSource, error) {
	s := &SignatureSource{}
	ok, err := d.object([]string{"kind"}, func(name string) (bool, error) {
		var err error
		switch name {
		case "kind":
			s.Kind, err = d.oneOf(sourceKind)
		case "url":
			s.URL, err = d.text(0, &urlPattern)
		case "note":
			s.Note, _, err = d.str()
		case "line":
			s.Line, err = d.text(1, nil)
		case "excerpt":
			s.Excerpt, err = d.text(1, nil)
		default:
			return false, nil
		}
		return true, err
	})
	if !ok {
		return nil, err
	}
	return s, err
}

// codes reads former_codes: an array of codes.
func (d *typedDecoder) codes() ([]string, error) {
	out := []string{}
	ok, err := d.array(func(int) error {
		s, err := d.text(1, &errorCodePattern)
		out = append(out, s)
		return err
	})
	if !ok {
		return nil, err
	}
	return out, err
}

// boolean reads true or false.
func (d *typedDecoder) boolean() (bool, error) {
	k, err := d.peek()
	if err != nil {
		return false, err
	}
	if k != 't' && k != 'f' {
		return false, d.wrongType(k, "boolean")
	}
	_, err = d.dec.ReadToken()
	return k == 't', err
}

func (d *typedDecoder) rateBasis() (*RateBasis, error) {
	b := &RateBasis{}
	ok, err := d.object(nil, func(name string) (bool, error) {
		var err error
		switch name {
		case "estimate":
			b.Estimate, err = d.boolean()
		case "reports":
			b.Reports, err = d.count(0)
		case "of":
			b.Of, err = d.count(1)
		case "sources":
			b.Sources, err = d.urls()
		case "note":
			b.Note, _, err = d.str()
		default:
			return false, nil
		}
		return true, err
	})
	if !ok {
		return nil, err
	}
	return b, err
}

func (d *typedDecoder) formerSignatures() ([]FormerSignature, error) {
	return objects(d, []string{"signature", "note"}, func(f *FormerSignature, name string) (bool, error) {
		var err error
		switch name {
		case "signature":
			f.Signature, err = d.text(1, nil)
		case "note":
			f.Note, err = d.text(1, nil)
		case "note_zh":
			f.NoteZH, _, err = d.str()
		default:
			return false, nil
		}
		return true, err
	})
}

func (d *typedDecoder) reproducer() (*Reproducer, error) {
	r := &Reproducer{}
	ok, err := d.object([]string{"program", "output", "machine", "date"}, func(name string) (bool, error) {
		var err error
		switch name {
		case "program":
			r.Program, err = d.text(0, &reproFilePattern)
		case "output":
			r.Output, err = d.text(0, &reproFilePattern)
		case "command":
			r.Command, _, err = d.str()
		case "machine":
			r.Machine, _, err = d.str()
		case "date":
			r.Date, err = d.date()
		default:
			return false, nil
		}
		return true, err
	})
	if !ok {
		return nil, err
	}
	return r, err
}

// fieldNames are the names of the schema's fields, each with a bit of its
// own, so that reading a name makes no string (names were a fifth of the
// strings loading a large KB made) and a name given twice is seen.
var fieldNames = func() map[string]fieldName {
	m := map[string]fieldName{}
	for i, n := range strings.Fields(`$schema id signature signature_zh regex severity domain category subcategory
		root_cause root_cause_type root_cause_zh versions os_specific dead_ends workarounds workarounds_zh
		transition_graph official_doc_url official_doc_section error_code verification_tier confidence
		fix_success_rate resolvable first_seen last_confirmed last_updated evidence_count tags locale aliases
		signature_source applies_when reproducer version introduced deprecated removed behavior_change status
		action action_zh why_fails why_fails_zh fail_rate condition sources success_rate how leads_to
		preceded_by frequently_confused_with kind url note program output command machine date
		success_rate_basis fail_rate_basis estimate`) {
		m[n] = fieldName{n, 1 << i} // the set is full: names beyond 64 go without a bit (object)
	}
	return m
}()

type fieldName struct {
	name string
	bit  uint64
}

// skip skips the next value, and stops the typed checks where one of its
// objects gives a name twice, as the decoder's own check did.
func (d *typedDecoder) skip() error {
	switch d.dec.PeekKind() {
	case '{':
		if _, err := d.dec.ReadToken(); err != nil {
			return err
		}
		names := map[string]bool{}
		for d.dec.PeekKind() != '}' {
			raw, err := d.dec.ReadValue()
			if err != nil {
				return err
			}
			name := unquote(raw)
			if names[name] {
				return errGeneric
			}
			names[name] = true
			if err := d.skip(); err != nil {
				return err
			}
		}
		_, err := d.dec.ReadToken()
		return err
	case '[':
		if _, err := d.dec.ReadToken(); err != nil {
			return err
		}
		for d.dec.PeekKind() != ']' {
			if err := d.skip(); err != nil {
				return err
			}
		}
		_, err := d.dec.ReadToken()
		return err
	}
	return d.dec.SkipValue()
}

// unquote is the string a JSON string's text holds.
func unquote(raw jsontext.Value) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	b, _ := jsontext.AppendUnquote(nil, raw) // the decoder checked it
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// quote single-quotes s as the generic validator's messages do.
func quote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, `\"`, `"`)
	q = strings.ReplaceAll(q, `'`, `\'`)
	return "'" + q[1:len(q)-1] + "'"
}
