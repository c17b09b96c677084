package highlight

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// seedCode is the CUDA code of the seed article, fenced there as cpp.
func seedCode(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../content/why-is-cuda-simplep2p-failing.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```cpp\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	// The seed's three blocks, and the corrected example of its editor's note.
	if len(blocks) != 4 {
		t.Fatalf("want the seed's 3 cpp blocks and the corrected one, got %d", len(blocks))
	}
	var out []string
	for _, b := range blocks {
		out = append(out, b[1])
	}
	return out
}

func tokens(t *testing.T, l chroma.Lexer, code string) map[string]chroma.TokenType {
	t.Helper()
	it, err := l.Tokenise(nil, code)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]chroma.TokenType{}
	for _, tok := range it.Tokens() {
		if _, seen := got[tok.Value]; !seen {
			got[tok.Value] = tok.Type
		}
	}
	return got
}

func TestCUDALexerOnSeedArticle(t *testing.T) {
	code := strings.Join(seedCode(t), "\n")
	if Lexer("cpp", code) != CUDA {
		t.Fatal("cpp fences that call CUDA must get the CUDA lexer")
	}
	got := tokens(t, CUDA, code)
	want := map[string]chroma.TokenType{
		"cudaGetDeviceCount":         chroma.NameBuiltin,
		"cudaDeviceCanAccessPeer":    chroma.NameBuiltin,
		"cudaDeviceEnablePeerAccess": chroma.NameBuiltin,
		"cudaMemcpyPeer":             chroma.NameBuiltin,
		"cudaMemcpyPeerAsync":        chroma.NameBuiltin,
		"cudaStreamSynchronize":      chroma.NameBuiltin,
		"cudaError_t":                chroma.KeywordType,
		"cudaDeviceProp":             chroma.KeywordType,
		"cudaSuccess":                chroma.NameConstant,
		"int":                        chroma.KeywordType,
		"return":                     chroma.Keyword,
	}
	for name, typ := range want {
		if got[name] != typ {
			t.Errorf("%s: %v, want %v", name, got[name], typ)
		}
	}
	// The stock C++ lexer shows the same names as plain names: the reason for ours.
	if plain := tokens(t, lexers.Get("cpp"), code); plain["cudaMemcpyPeer"] == chroma.NameBuiltin {
		t.Error("chroma's C++ lexer now knows CUDA; the CUDA lexer may be unnecessary")
	}
}

func TestCUDALexerKernelSyntax(t *testing.T) {
	code := "__global__ void scale(float *__restrict__ a) {\n  __shared__ float s[32];\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n}\nint main() { dim3 g(4); scale<<<g, 32>>>(nullptr); ncclAllReduce(0,0,0,ncclFloat,ncclSum,0,0); nvmlDeviceGetP2PStatus(0,0,NVML_P2P_CAPS_INDEX_READ,0); cuCtxEnablePeerAccess(0,0); }\n"
	got := tokens(t, CUDA, code)
	for name, typ := range map[string]chroma.TokenType{
		"__global__": chroma.KeywordReserved, "__shared__": chroma.KeywordReserved, "__restrict__": chroma.KeywordReserved,
		"blockIdx": chroma.NameBuiltinPseudo, "threadIdx": chroma.NameBuiltinPseudo, "blockDim": chroma.NameBuiltinPseudo,
		"dim3": chroma.KeywordType, "<<<": chroma.Punctuation, ">>>": chroma.Punctuation,
		"ncclAllReduce": chroma.NameBuiltin, "nvmlDeviceGetP2PStatus": chroma.NameBuiltin, "cuCtxEnablePeerAccess": chroma.NameBuiltin,
		"ncclFloat": chroma.NameConstant, "NVML_P2P_CAPS_INDEX_READ": chroma.NameConstant,
	} {
		if got[name] != typ {
			t.Errorf("%s: %v, want %v", name, got[name], typ)
		}
	}
	for _, alias := range []string{"cuda", "cu"} {
		if lexers.Get(alias) != CUDA {
			t.Errorf("lexers.Get(%q) is not the CUDA lexer", alias)
		}
	}
}

func TestLexerChoice(t *testing.T) {
	if Lexer("cpp", "int main() { return 0; }\n") == CUDA {
		t.Error("plain C++ got the CUDA lexer")
	}
	if Lexer("", "x") != lexers.Fallback || Lexer("no-such-language", "x") != lexers.Fallback {
		t.Error("unknown tags must fall back to plain text")
	}
}

func TestCodeUsesClassesAndCSSHasThem(t *testing.T) {
	c := Default()
	var code, css strings.Builder
	if err := c.Code(&code, "cuda", "cudaMemcpyPeer(a, 1, b, 0, n);\n"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(code.String(), `<span class="nb">cudaMemcpyPeer</span>`) || strings.Contains(code.String(), "style=") {
		t.Errorf("want class-based spans and no inline styles:\n%s", code.String())
	}
	for _, style := range []string{c.Light, c.Dark} {
		css.Reset()
		if err := c.CSS(&css, style); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(css.String(), ".chroma .nb") {
			t.Errorf("%s stylesheet has no rule for built-ins", style)
		}
	}
	if err := c.CSS(&css, "no-such-style"); err == nil {
		t.Error("an unknown style must be an error")
	}
}

// Highlighting is kept by language and content: the same block comes out
// the same, and the same text in another language is highlighted anew.
func TestCodeCachedByLanguageAndContent(t *testing.T) {
	c := Default()
	code := "cudaError_t err = cudaDeviceEnablePeerAccess(1, 0);"
	render := func(lang, code string) string {
		var b strings.Builder
		if err := c.Code(&b, lang, code); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	first := render("cuda", code)
	if again := render("cuda", code); again != first {
		t.Errorf("the same block came out differently:\n%s\n%s", first, again)
	}
	if plain := render("text", code); plain == first || strings.Contains(plain, `class="nf"`) {
		t.Errorf("text highlighted as CUDA from the cache:\n%s", plain)
	}
	if other := render("cuda", code+" // again"); !strings.Contains(other, "again") {
		t.Errorf("other code came from the cache:\n%s", other)
	}
}
