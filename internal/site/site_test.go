package site

import (
	"testing"

	"github.com/p2pkb/p2pkb/internal/content"
	"github.com/p2pkb/p2pkb/internal/kb"
)

func TestRel(t *testing.T) {
	cases := []struct{ page, target, want string }{
		{"", "en/", "en/index.html"},
		{"en/", "assets/style.css", "../assets/style.css"},
		{"en/kb/cuda/x/", "zh/kb/cuda/x/", "../../../../zh/kb/cuda/x/index.html"},
		{"e/GPA/", "en/kb/tensorflow/y/", "../../en/kb/tensorflow/y/index.html"},
		{"404.html", "en/", "en/index.html"},
	}
	for _, c := range cases {
		p := &Page{Path: c.page}
		if got := p.Rel(c.target); got != c.want {
			t.Errorf("Rel from %q to %q = %q, want %q", c.page, c.target, got, c.want)
		}
	}
}

func TestNewPagesAndSharedCodes(t *testing.T) {
	a := &kb.Entry{ID: "cuda/a", ErrorCode: "cudaErrorX", Domain: "cuda", Category: "runtime_error", Signature: "a"}
	b := &kb.Entry{ID: "cuda/b", ErrorCode: "cudaErrorX", Domain: "cuda", Category: "runtime_error", Signature: "b"}
	c := &kb.Entry{ID: "nccl/c", ErrorCode: "ncclSystemError", Domain: "nccl", Category: "system_error", Signature: "c"}
	k := &kb.KB{Entries: []*kb.Entry{a, b, c}, ByID: map[string]*kb.Entry{"cuda/a": a, "cuda/b": b, "nccl/c": c}}
	en := &content.Article{Slug: "art", Lang: "en", Title: "Art"}
	s := New(k, &content.Set{Slugs: []string{"art"}, Articles: map[string]map[string]*content.Article{"art": {"en": en}}}, "https://kb.example.org/docs")

	pages := map[string]*Page{}
	for _, p := range s.Pages {
		pages[p.Path] = p
	}
	if p := pages["e/cudaErrorX/"]; p == nil || p.Kind != KindCodeList || len(p.Targets) != 2 {
		t.Errorf("a code two entries share needs a list page, got %+v", p)
	}
	if p := pages["e/ncclSystemError/"]; p == nil || p.Kind != KindRedirect || p.Target != "kb/nccl/c/" {
		t.Errorf("a code of one entry redirects to it, got %+v", p)
	}
	zh := pages["zh/articles/art/"]
	if zh == nil || !zh.Fallback || zh.Article != en {
		t.Errorf("an untranslated article falls back to English with a note, got %+v", zh)
	}
	if got := pages["zh/kb/cuda/a/"].URL(); got != "https://kb.example.org/docs/zh/kb/cuda/a/" {
		t.Errorf("URL = %q", got)
	}
	if len(s.Domains) != 2 || s.Domains[0].Name != "cuda" || len(s.Domains[0].Categories[0].Entries) != 2 {
		t.Errorf("domains = %+v", s.Domains)
	}
	for _, l := range Langs {
		if pages[l.Code+"/kb/nccl/c/"] == nil || pages[l.Code+"/"] == nil {
			t.Errorf("missing %s pages", l.Code)
		}
	}
}

func TestViewFallsBackToEnglish(t *testing.T) {
	e := &kb.Entry{ID: "x/y", Signature: "boom", SignatureZH: "爆炸", RootCause: "why", RootCauseZH: "",
		Workarounds:   []kb.Workaround{{Action: "low", SuccessRate: 0.2}, {Action: "high", SuccessRate: 0.9}},
		WorkaroundsZH: []string{"低", "high"}}
	v := View(e, "zh", &kb.KB{ByID: map[string]*kb.Entry{}})
	if v.Signature != "爆炸" || v.SignatureOriginal != "boom" {
		t.Errorf("signature %q / %q", v.Signature, v.SignatureOriginal)
	}
	if !v.RootCause.Fallback || v.RootCause.Text != "why" {
		t.Errorf("root cause %+v", v.RootCause)
	}
	if v.Workarounds[0].Text.Text != "high" || !v.Workarounds[0].Text.Fallback || v.Workarounds[1].Text.Text != "低" {
		t.Errorf("workarounds must sort by success rate and fall back where workarounds_zh is not Chinese: %+v", v.Workarounds)
	}
}

func TestViewShowsNoTranslationOfEnglishOnlyMessages(t *testing.T) {
	e := &kb.Entry{ID: "x/y", Signature: "CUDA_ERROR_X: boom", SignatureZH: "CUDA_ERROR_X: boom"}
	if v := View(e, "zh", &kb.KB{ByID: map[string]*kb.Entry{}}); v.SignatureOriginal != "" {
		t.Errorf("a signature printed only in English has no translation to show, got %q", v.SignatureOriginal)
	}
}
