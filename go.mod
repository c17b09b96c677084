module github.com/p2pkb/p2pkb

go 1.26.8

require (
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/text v0.43.0
)

require (
	github.com/NVIDIA/go-nvml v0.13.0-1 // indirect
	github.com/alecthomas/chroma/v2 v2.27.0 // indirect
	github.com/chromedp/cdproto v0.159.2 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	golang.org/x/net v0.62.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
