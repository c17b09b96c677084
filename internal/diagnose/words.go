package diagnose

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/p2pkb/p2pkb/internal/paste"
	"github.com/p2pkb/p2pkb/internal/rules"
	"github.com/p2pkb/p2pkb/internal/search"
	"github.com/p2pkb/p2pkb/internal/site"
)

// An input in which no line is recognized (no entry, no layer, no symptom)
// is often prose, or output that shows the trouble in words: "all_reduce
// hangs on two 4090s", "Fabric Manager 530.30.02 vs driver 530.41.03". It is
// answered as a support engineer would: with the known problems closest to
// its words, ranked by the site's own full-text search (search.Index.Search,
// the ranking of the search page), in one message marked ByWords, never as a
// recognized error.

// Words says which part of the input the closest entries were found by.
type Words struct {
	Query   string `json:"query"`    // the text searched: the input's distinct prose lines (search.Prose) from the first, up to the budget
	Terms   int    `json:"terms"`    // distinct words in it that rank (search.MaxQueryTerms at most; numbers do not rank)
	Lines   int    `json:"lines"`    // the input's lines read for words, from line 1
	Of      int    `json:"of_lines"` // the lines the input has
	Partial bool   `json:"partial"`  // lines after Lines, or past the first 4 MiB read for prose, hold words that were not used
	// ProgramFirst: the words speak of no path between GPUs, and an entry
	// whose usual cause is on the program's side was put before a closer
	// one that is not (kb.Entry.ProgramSide).
	ProgramFirst bool `json:"program_first,omitempty"`
}

// wordsQuery gathers the text the closest entries are searched by while the
// input streams past: its distinct prose lines from the first, until they hold
// search.MaxQueryTerms words that rank (the search ranks by no more) or
// MaxQueryBytes, within the first wordsScanBytes. Only prose counts
// (search.Prose): a program's tables and JSON would rank entries by chance. After that it only counts lines, so a log of any size
// costs a map lookup a line at most.
type wordsQuery struct {
	b       strings.Builder
	lines   map[string]bool // the lines taken
	terms   map[string]bool // the ranking words in them
	told    map[string]bool // those of them in lines a person wrote (search.Told)
	person  bool            // one of those lines speaks of its writer (search.Person)
	n, used int             // lines seen; the last line taken from
	read    int64           // bytes of the input read
	full    bool            // the budget is spent, or wordsScanBytes read
	partial bool            // a line with words was left out
	link    bool            // a line within wordsScanBytes, prose or not, speaks of the path between GPUs (search.LinkWords)
}

func newWordsQuery() *wordsQuery {
	return &wordsQuery{lines: map[string]bool{}, terms: map[string]bool{}, told: map[string]bool{}}
}

// add reads line n (a piece of it, for a line over a piece).
func (q *wordsQuery) add(n int, line []byte) {
	q.n = n
	line = bytes.TrimSuffix(line, []byte("\r"))
	if q.partial {
		return
	}
	q.read += int64(len(line)) + 1
	if !q.link && q.read <= wordsScanBytes && search.LinkWords(string(line)) {
		q.link = true
	}
	if !q.full && q.read > wordsScanBytes {
		// Prose is looked for in the head of the input only, so that a
		// huge log of tables costs no more than a known one.
		q.full = true
	}
	if q.full {
		// Left out only if it could have added words.
		if !q.lines[string(line)] && hasLetter(line) {
			q.partial = true
		}
		return
	}
	if q.lines[string(line)] || !search.Prose(string(line)) {
		return
	}
	q.lines[string(line)] = true
	l := search.DropVersionWord(string(line))
	if len(l) > search.MaxQueryBytes-q.b.Len()-1 {
		// It does not fit: left out whole, and said to be.
		q.full, q.partial = true, true
		return
	}
	told := search.Told(l, paste.Strip(l))
	q.person = q.person || told && search.Person(l)
	for _, t := range search.Terms(l) {
		if !isNumber(t) && len(q.terms) < search.MaxQueryTerms {
			q.terms[t] = true
			if told {
				q.told[t] = true
			}
		}
	}
	if q.b.Len() > 0 {
		q.b.WriteByte('\n')
	}
	q.b.WriteString(l)
	q.used = n
	if len(q.terms) >= search.MaxQueryTerms {
		q.full = true
	}
}

// anyLine says whether one of the prose lines taken holds for keep.
func (q *wordsQuery) anyLine(keep func(string) bool) bool {
	if q == nil {
		return false
	}
	for _, l := range strings.Split(q.b.String(), "\n") {
		if l != "" && keep(l) {
			return true
		}
	}
	return false
}

// wordsIndexes holds the search index the closest entries come from, made
// once per process and language, when an input first needs it, for the
// last site asked about (a process explains with one site).
var wordsIndexes struct {
	sync.Mutex
	site *site.Site
	ix   map[string]*search.Index
}

// wordsIndex is the in-memory search index of s in lang, as `p2pkb search`
// makes it without a built site (build.SearchIndex).
func wordsIndex(s *site.Site, lang string) (*search.Index, error) {
	c := &wordsIndexes
	c.Lock()
	defer c.Unlock()
	if c.site != s {
		c.site, c.ix = s, map[string]*search.Index{}
	}
	if ix := c.ix[lang]; ix != nil {
		return ix, nil
	}
	ix, err := search.SiteCorpus(s).Only(lang).Index("")
	if err != nil {
		return nil, fmt.Errorf("search index for the words of the input: %w", err)
	}
	c.ix[lang] = ix
	return ix, nil
}

// long tells whether the input holds a description: search.LongWords
// ranking words or more in lines a person wrote (search.Told), not a log's,
// one of them in the first person.
func (q *wordsQuery) long() bool {
	return q != nil && q.person && len(q.told) >= search.LongWords
}

// byWords answers an input with the entries closest to its words, each
// judged by the facts f like any cause, less those in shown (the causes of
// the recognized lines); nil when none is close enough, or every one is
// shown already.
func byWords(s *site.Site, q *wordsQuery, f rules.Facts, o Options, shown map[string]bool) (*Message, error) {
	if q == nil || q.b.Len() == 0 {
		return nil, nil
	}
	// The pages of the text's own language rank it, whatever the reader's
	// (search.WordsLang); the entries are shown in o.Lang.
	text := q.b.String()
	lang := search.WordsLang(text)
	ix, err := wordsIndex(s, lang)
	if err != nil {
		return nil, err
	}
	res, after, err := ix.Closest(text, lang)
	if err != nil || len(res) == 0 {
		return nil, err
	}
	var rs []ranked
	for _, r := range res {
		e := s.KB.ByID[r.ID]
		if e == nil || shown[r.ID] {
			continue
		}
		c, conditional, err := cause(s, e, f, o)
		if err != nil {
			return nil, err
		}
		c.Score = r.Score
		rs = append(rs, ranked{c: c, tier: tierOf(c, conditional)})
	}
	if len(rs) == 0 {
		return nil, nil
	}
	// Words that speak of no path between GPUs (search.LinkWords) share
	// with an entry about the path by chance more often than not, and most
	// such inputs are about a program, its launch or its configuration: of
	// the closest entries, those whose usual cause is on the program's side
	// (kb.Entry.ProgramSide) come first, and when none is, the closest that
	// is, among the search's results after them, is added and comes first
	// too: on the 5,230 reports of the sets, that made the first cause
	// right in 69 inputs and wrong in 56 that the closest entry had right
	// (+25 / -5 on the 1,200 of validation66 and after, +44 / -51 on the
	// 4,030 before them).
	link := search.LinkWords(text)
	if !link && !slices.ContainsFunc(rs, func(r ranked) bool { return s.KB.ByID[r.c.ID].ProgramSide }) {
		for _, r := range after {
			e := s.KB.ByID[r.ID]
			if e == nil || !e.ProgramSide || shown[r.ID] {
				continue
			}
			c, conditional, err := cause(s, e, f, o)
			if err != nil {
				return nil, err
			}
			c.Score = r.Score
			rs = append(rs, ranked{c: c, tier: tierOf(c, conditional)})
			break
		}
	}
	// The facts first, as for any message, and the words' order within
	// each tier. Without words of the path, the program's side comes
	// first, before the entries that hold (a GeForce card named says what
	// the machine is, not what went wrong); those ruled out stay last.
	sort.SliceStable(rs, func(i, j int) bool { return rs[i].tier < rs[j].tier })
	moved := false
	if !link {
		order := slices.Clone(rs)
		sort.SliceStable(rs, func(i, j int) bool {
			if (rs[i].tier == 2) != (rs[j].tier == 2) {
				return rs[j].tier == 2
			}
			x, y := s.KB.ByID[rs[i].c.ID].ProgramSide, s.KB.ByID[rs[j].c.ID].ProgramSide
			if x != y {
				return x
			}
			return rs[i].tier < rs[j].tier
		})
		moved = !slices.EqualFunc(rs, order, func(a, b ranked) bool { return a.c.ID == b.c.ID })
	}
	m := &Message{Severity: "by_words", ByWords: true, judged: len(f) > 0,
		Words: &Words{Query: text, Terms: len(q.terms), Lines: q.used, Of: q.n, Partial: q.partial, ProgramFirst: moved}}
	m.conclude(s, rs, f, o)
	return m, nil
}

// wordsNote says, in lang, what the closest entries of m are and which
// part of the input found them.
func wordsNote(lang string, m Message) string {
	key := "by_words"
	switch {
	case m.Before:
		key = "before_words"
	case m.Beside:
		key = "beside_words"
	}
	if m.Words.Partial {
		return fmt.Sprintf(text(lang, key+"_part"), m.Words.Lines, m.Words.Of, m.Words.Terms)
	}
	return text(lang, key)
}

func init() {
	for lang, m := range map[string]map[string]string{
		"en": {"program_first": "The input speaks of no path between GPUs: the entries about the program, its launch or its configuration come first.",
			"by_words":          "No known error line. Closest entries by the words of the input (not a recognized message; check that the cause fits):",
			"by_words_part":     "No known error line. Closest entries by the words of the input (not a recognized message; check that the cause fits). Only the words of lines 1-%d of %d were used: the first %d distinct words, as many as a search ranks by:",
			"before_words":      "The GPU named says what the machine is, not what went wrong, and the input speaks of no path between GPUs: first the entries closest to its words (not a recognized message; check that the cause fits):",
			"before_words_part": "The GPU named says what the machine is, not what went wrong, and the input speaks of no path between GPUs: first the entries closest to its words (not a recognized message; check that the cause fits). Only the words of lines 1-%d of %d were used: the first %d distinct words, as many as a search ranks by:",
			"beside_words":      "Also close to the words of the description, beside the recognized lines (not a recognized message; check that the cause fits):",
			"beside_words_part": "Also close to the words of the description, beside the recognized lines (not a recognized message; check that the cause fits). Only the words of lines 1-%d of %d were used: the first %d distinct words, as many as a search ranks by:"},
		"zh": {"program_first": "输入没有提到 GPU 之间的通路：关于程序本身、其启动方式或配置的条目排在前面。",
			"by_words":          "没有已知的错误行。按输入的词语最接近的条目（不是识别出的信息；请核对原因是否相符）：",
			"by_words_part":     "没有已知的错误行。按输入的词语最接近的条目（不是识别出的信息；请核对原因是否相符）。只用了第 1-%d 行（共 %d 行）的词语：前 %d 个不同的词，即搜索排序所用的全部词数：",
			"before_words":      "所列的 GPU 只说明机器是什么，没有说明出了什么问题，输入也没有提到 GPU 之间的通路：先列出按输入的词语最接近的条目（不是识别出的信息；请核对原因是否相符）：",
			"before_words_part": "所列的 GPU 只说明机器是什么，没有说明出了什么问题，输入也没有提到 GPU 之间的通路：先列出按输入的词语最接近的条目（不是识别出的信息；请核对原因是否相符）。只用了第 1-%d 行（共 %d 行）的词语：前 %d 个不同的词，即搜索排序所用的全部词数：",
			"beside_words":      "除已识别的行之外，按描述的词语也接近的条目（不是识别出的信息；请核对原因是否相符）：",
			"beside_words_part": "除已识别的行之外，按描述的词语也接近的条目（不是识别出的信息；请核对原因是否相符）。只用了第 1-%d 行（共 %d 行）的词语：前 %d 个不同的词，即搜索排序所用的全部词数："},
	} {
		for k, v := range m {
			texts[lang][k] = v
		}
	}
}

// wordsScanBytes is how much of the input is read for prose and for words
// of the path between GPUs: the head of a log, where a person's words and
// the first errors are.
const wordsScanBytes = search.WordsScanBytes

// hasLetter tells whether a line holds a letter, which words could come from.
func hasLetter(line []byte) bool {
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if unicode.IsLetter(r) {
			return true
		}
		line = line[size:]
	}
	return false
}

func isNumber(t string) bool {
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return t != ""
}
