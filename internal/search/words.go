package search

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An input in which explain recognizes nothing is answered with the entries
// closest to its words: the first entries this index ranks for its prose.
// explain (internal/diagnose) and the search page (assets/search.js,
// closestByWords) do it alike, with the limits below, which the page reads
// from search.table.js.

// MaxClosest is how many entries answer an input by its words. A
// description's words point at its trouble less surely than a message
// does: on the report sets, five entries instead of three put the right
// family among the causes of 71 more reports (of about 2,300); the first
// cause, which the facts may pick among more entries, became right for 1
// and wrong for 2. diagnose may add one entry after them, the closest on
// the program's side when none of them is (its byWords).
const MaxClosest = 5

// WordsResults is how many search results the closest entries are taken
// from, articles included: MaxClosest entries among them, from the first
// that reaches the floors below.
const WordsResults = 20

// MinWordsScore is the search score the first of the closest entries must
// reach: below it the input shares too few rare words with any entry (a
// healthy nvidia-smi table, random words), and no entry is offered. An
// entry ranked above it that misses this floor or MinShared's is passed
// over: a rare word or two of the input can rank an entry that holds little
// else of it (a new entry's "docker" above the one the paste is about); on
// the report sets, passing over such entries answered 10 more reports with
// the right family among the causes and changed the first cause of 9 (+8 /
// −1). The search page applies the same floors (search.js).
const MinWordsScore = 14

// MinShared is the share of the input's ranking words, weighted by rarity
// (search.Result.Shared), that the first of the closest entries must hold
// when the input has fewer than LongWords of them: random words, a tool's
// banner or an environment dump share a word or two with some entry by
// chance. Of the reports no line of which was recognized, the short ones
// whose first entry held 10-15% of their words were answered right first in
// 11 of 24 (among the causes in 14), those at 5-10% in 3 of 12.
const MinShared = 0.10

// LongWords is how many ranking words make an input a description, whose
// first closest entry must hold MinSharedLong of them. A person who tells
// the story of a failure writes many words no entry holds (their model,
// their cluster, what they tried), so the share of any one entry falls
// with the length while the entry may still be the one meant: on the
// report sets, descriptions whose first entry held 5-15% of their words
// were of the right family about as often as those above 15%, and so were
// those at 3-5% (9 of 16 right first where nothing else answered).
const LongWords = 20

// MinSharedLong is MinShared for an input of LongWords ranking words or more.
const MinSharedLong = 0.03

// logLineSource marks a prose line as a program's, not a person's: a
// logger's level first, an exception's name, NCCL's own INFO and WARN
// lines. With the log prefixes a line starts with (paste.Strip), it tells
// the lines of a description (Told).
const logLineSource = `^(?:(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|NOTICE|TRACE)\b|[\w.]*(?:Error|Exception|Warning):|.*\bNCCL (?:INFO|WARN)\b)`

var logLine = regexp.MustCompile(logLineSource)

// personSource finds a person speaking of themselves: a description has a
// line that does ("when I upgraded the driver", "we run eight GPUs"); a
// program's sentences do not ("GPU device may be out of range, do you
// have enough GPUs?").
const personSource = `(?i)(?:^|[^\w'])(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|our)(?:$|[^\w'])`

var person = regexp.MustCompile(personSource)

// linkWordsSource finds words of the path between GPUs or of what uses it:
// peer access, NCCL, NVLink, an all-reduce, IPC, PCIe, the topology,
// bandwidth, GPU-to-GPU traffic, GPUDirect, RDMA, UCX, latency (the last
// five: on the report sets, the first cause right in 21 inputs more and
// wrong in 8). A description that names a GeForce card and none of these is
// most often about something else (memory, a launch, a model's split).
const linkWordsSource = `(?i)p2p|peer|nccl|nvlink|all[_ -]?reduce|\bipc\b|pcie|topo|cudamemcpy|bandwidth|busbw|gb/s|bridge|\bsli\b|gpu[- ]to[- ]gpu|inter[- ]?gpu|gpudirect|rdma|\bucx\b|latency`

var linkWords = regexp.MustCompile(linkWordsSource)

// versionSaidSource finds the word "version" before a version number
// ("pytorch version 0.2.0", "Version: 2.4.1"): it says what is installed,
// not what went wrong, and would rank the entries about versions that do
// not fit together for any input that states one.
const versionSaidSource = `(?i)\bversions?\b\s*(?:is|=|:)?\s*(v?\d+\.\d)`

var versionSaid = regexp.MustCompile(versionSaidSource)

// DropVersionWord is line without the word "version" before a version
// number; the number stays.
func DropVersionWord(line string) string { return versionSaid.ReplaceAllString(line, "$1") }

// LinkWords tells whether text speaks of the path between GPUs.
func LinkWords(text string) bool { return linkWords.MatchString(text) }

// Person tells whether a line told by a person (Told) speaks of them.
func Person(line string) bool { return person.MatchString(line) }

// Told tells whether a prose line (Prose) is a sentence a person wrote
// rather than one a program logged: it starts with no log prefix
// (stripped, the line without them, is the line itself) and has no
// logger's marks. A description of LongWords such words told beside
// recognized lines, one of them in the first person (Person), is read for
// its closest entries too.
func Told(line, stripped string) bool {
	t := strings.TrimSpace(line)
	return stripped == t && !logLine.MatchString(t)
}

// minShared is the share the first closest entry of text must hold.
func minShared(text string) float64 {
	if rankingWords(text) >= LongWords {
		return MinSharedLong
	}
	return MinShared
}

// rankingWords counts text's distinct terms that are not numbers, up to
// MaxQueryTerms: the words a query is ranked by, as explain's words query
// (and search.js wordsQuery) counts them.
func rankingWords(text string) int {
	n := 0
	for _, t := range Terms(text) {
		if n == MaxQueryTerms {
			break
		}
		if strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
			n++
		}
	}
	return n
}

// WordsLang is the language whose pages rank the words of text, whoever
// reads the answer: Chinese when text holds at least as many Han
// characters as other words (a description in Chinese, perhaps naming a
// program or a GPU), English otherwise. Each language's pages hold its own
// words: a Chinese page's cause and fixes are in Chinese, and an English
// page holds no Han character, so the other language's pages would share
// too few of text's words. The entries found are shown in the reader's
// language. The search page does the same with WordsRules.Lang and HanLang.
func WordsLang(text string) string {
	han := hanRunes(text)
	if han == 0 {
		return wordsLang
	}
	other := 0
	for _, t := range Terms(text) {
		if hanRunes(t) == 0 && !isNumber(t) {
			other++
		}
	}
	if han >= other {
		return hanLang
	}
	return wordsLang
}

// hanLang is the language of the pages whose words rank text written in
// Han characters.
const hanLang = "zh"

// wordsLang is the language of the pages whose words rank text written
// without Han characters.
const wordsLang = "en"

// Closest is the entries closest to text by its words, as the
// search page ranks them: MaxClosest entries among the first WordsResults
// results, from the first that scores MinWordsScore and holds as much of
// the words as minShared asks; none when no entry does. After them, the
// other entries among those results, in their order, from which a caller
// may add one it needs (diagnose's byWords).
func (ix *Index) Closest(text, lang string) (closest, after []Result, err error) {
	res, err := ix.Search(text, lang, WordsResults)
	if err != nil {
		return nil, nil, err
	}
	floor := minShared(text)
	for _, r := range res {
		switch {
		case r.Kind != "entry":
		case len(closest) == 0 && (r.Score < MinWordsScore || r.Shared < floor):
		case len(closest) < MaxClosest:
			closest = append(closest, r)
		default:
			after = append(after, r)
		}
	}
	return closest, after, nil
}

// Prose tells whether a line reads as words: a sentence a person wrote
// ("all_reduce hangs on two 4090s") or a message in words, rather than a
// program's table (nvidia-smi's "Name : value" rows, headings and
// legends, matrices of figures, JSON). Its words, tokens that start with a
// letter and hold only letters, digits and _-'./, are at least proseWords
// and three quarters of its space-separated tokens other than figures and
// versions ("530.41.03"), and at least two of them
// are lower-case words (a heading or a row of names has none); a line
// whose columns are aligned (a tab or three spaces inside it), or that
// starts with a short label and a spaced ":" or "=", or is such a label
// and one value ("CUDA runtime version: 12.4.99"), or a JSON key, is a
// table's, as are PyTorch's collect_env rows and a program's INFO lines.
// Only prose finds the closest entries: a healthy machine's readings hold
// none, and the words of such output would rank entries by chance.
// A sentence that quotes a command or a path in backticks ("The command I
// use is `python3 -m torch.distributed.launch --nproc_per_node 4 ...`
// However it cannot build connection", facebookresearch/dlrm#354) is
// prose when its words outside the quotes are.
// assets/search.js (prose) reads lines the same way.
func Prose(line string) bool {
	if proseLine(line) {
		return true
	}
	return strings.Count(line, "`") >= 2 && len(line) <= maxProseLine && proseLine(strings.Join(strings.Fields(codeSpan.ReplaceAllString(line, " ")), " "))
}

// codeSpan is a span quoted in backticks, as Markdown writes code.
var codeSpan = regexp.MustCompile("`[^`]*`")

func proseLine(line string) bool {
	if len(line) > maxProseLine || tableRow.MatchString(line) || aligned.MatchString(strings.TrimSpace(line)) || notProse.MatchString(line) {
		return false
	}
	words, lower, tokens := 0, 0, 0
	for _, t := range proseTokens(line) {
		t = strings.TrimLeft(t, "(\"'[{<*`")
		t = strings.TrimRight(t, ".,;:!?)\"'\\]}>*`")
		if t == "" || figure.MatchString(t) {
			continue // punctuation alone, a version or a figure: in a sentence as in a table
		}
		// Chinese is written without spaces: a run of Han characters counts
		// as the words of two characters it holds, as Analyze reads it.
		n := max(1, hanRunes(t)/2)
		tokens += n
		if proseWord(t) {
			words += n
			if lowerWord.MatchString(t) {
				lower += n
			}
		}
	}
	return words >= proseWords && lower >= 2 && 4*words >= 3*tokens
}

// proseTokens are line's space-separated tokens. A line with Han
// characters is also cut at punctuation, which Chinese writes without
// spaces around it ("做推理(do_predict)的时候爆显存？我用的是32G"): whole, such
// a run is no word. On the report sets, cutting them made the first cause
// right for 11 more reports and wrong for 3, and brought the right family
// among the causes of 10 more (1 lost).
func proseTokens(line string) []string {
	if !strings.ContainsFunc(line, isHanRune) {
		return strings.Fields(line)
	}
	return strings.FieldsFunc(line, func(r rune) bool { return unicode.IsSpace(r) || strings.ContainsRune(hanCut, r) })
}

// hanCut is the punctuation a line with Han characters is cut at.
const hanCut = "，。？！：；、（）【】「」『』“”‘’《》()[]{}?!,;:"

// notProseSource is a program's lines that read as words: PyTorch's
// collect_env (and vLLM's, which extends it), its banner and rows whose
// values have several words ("GPU models and configuration: GPU 0: NVIDIA
// A100 80GB PCIe"), which tableRow does not take; and a program's INFO or
// DEBUG line, which reports what went as it should ("INFO 07-21 10:19:29
// __init__.py:183] Automatically detected platform cuda."); and the
// fields of `pip show`, whose lists of packages read as words ("Requires:
// filelock, fsspec, jinja2, ..., triton" names a program by chance). None
// holds a trouble to find by its words.
const notProseSource = `^\s*(?:(?:INFO|DEBUG)\b|Collecting environment information|(?:GPU models and configuration|Nvidia driver version|CUDA runtime version|CUDA used to build PyTorch|ROCM used to build PyTorch|Is CUDA available|Is debug build|Is XNNPACK available|Python platform|Python version|GCC version|Clang version|CMake version|Libc version|OS|cuDNN version|HIP runtime version|MIOpen runtime version|CUDA_MODULE_LOADING set to|Versions of relevant libraries|GPU topology|Neuron SDK Version|vLLM Version|vLLM Build Flags|ROCM Version|Requires|Required-by|Summary|Home-page|Author|Author-email|License|Location|Editable project location):)`

const (
	proseWords   = 3
	maxProseLine = 4000 // a longer line is data (JSON, a dump), not a sentence
)

var (
	tableRow = regexp.MustCompile(`^\s*(?:#?\s*[\p{L}\p{N}][\p{L}\p{N}_ .,#/()-]{0,60}?(?:\s+[:=]\s|:\s*\S*\s*$)|"[^"]*"\s*:)`)
	aligned  = regexp.MustCompile(`\t| {3}`)
	// A program's lines that read as words but are no prose (notProseSource).
	notProse  = regexp.MustCompile(notProseSource)
	figure    = regexp.MustCompile(`^\p{N}[\p{N}.,%/:-]*$`)
	lowerWord = regexp.MustCompile(`^(?:[\p{Ll}]+|\p{Han}+)$`)
)

func proseWord(t string) bool {
	if utf8.RuneCountInString(t) < 2 {
		return false
	}
	for i, r := range t {
		switch {
		case unicode.IsLetter(r):
		case i == 0:
			return false
		case unicode.IsDigit(r) || strings.ContainsRune("_-'./", r):
		default:
			return false
		}
	}
	return true
}

// WordsScanBytes is how much of an input explain reads for prose, and for
// words of the path between GPUs in any line: the head of a log.
const WordsScanBytes = 4 << 20

// WordsRules are the limits of the answer by words, as search.js reads them.
type WordsRules struct {
	Closest    int     `json:"closest"`
	Results    int     `json:"results"`
	MinScore   float64 `json:"minScore"`
	MinShared  float64 `json:"minShared"`
	LongWords  int     `json:"longWords"`
	LogLine    string  `json:"logLine"`     // Told's marks of a program's line
	NotProse   string  `json:"notProse"`    // a program's lines that read as words (notProseSource)
	Person     string  `json:"person"`      // Person's words
	LinkWords  string  `json:"linkWords"`   // LinkWords' words
	VersionSay string  `json:"versionSaid"` // the word "version" before a number (DropVersionWord)
	HanCut     string  `json:"hanCut"`      // the punctuation a line with Han characters is cut at (proseTokens)
	MinSharedL float64 `json:"minSharedLong"`
	ProseWords int     `json:"proseWords"`
	MaxLine    int     `json:"maxProseLine"`
	MaxTerms   int     `json:"maxTerms"`
	MaxBytes   int     `json:"maxBytes"`
	Lang       string  `json:"lang"`      // the index that ranks text written in English (WordsLang)
	HanLang    string  `json:"hanLang"`   // the index that ranks text written in Han characters (WordsLang)
	ScanBytes  int     `json:"scanBytes"` // the head of an input read for words of the path (WordsScanBytes)
}

// WordsTable is WordsRules with this package's values.
func WordsTable() WordsRules {
	return WordsRules{Closest: MaxClosest, Results: WordsResults, MinScore: MinWordsScore, MinShared: MinShared, LongWords: LongWords, MinSharedL: MinSharedLong, LogLine: logLineSource, NotProse: notProseSource, Person: personSource, LinkWords: linkWordsSource, VersionSay: versionSaidSource, HanCut: hanCut,
		ProseWords: proseWords, MaxLine: maxProseLine, MaxTerms: MaxQueryTerms, MaxBytes: MaxQueryBytes, Lang: wordsLang, HanLang: hanLang, ScanBytes: WordsScanBytes}
}

func hanRunes(t string) int {
	n := 0
	for _, r := range t {
		if unicode.Is(unicode.Han, r) {
			n++
		}
	}
	return n
}
