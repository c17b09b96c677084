package errvocab

import (
	"slices"
	"strings"
)

// Export is the vocabulary and the layers' shapes as the search page reads
// them (assets/search.js, readLine), so that the browser reads a pasted
// line as explain does: the same table, the patterns in JavaScript's syntax.
type Export struct {
	Errors [][4]any       `json:"errors"`  // family, code, name, message
	Shapes []ExportShape  `json:"shapes"`  // in the order Read tries them
	Wrap   []string       `json:"wrap"`    // bareWrap
	Return map[string]any `json:"returns"` // layer id -> family -> the error the layer returns (Layer.Returns)
	Plain  []string       `json:"plain"`   // the ids of the layers that are plain wrappers (Layer.Plain)
}

// ExportShape is one shape of a layer.
type ExportShape struct {
	Layer    Layer            `json:"layer"`
	Triggers []string         `json:"triggers"`
	Re       string           `json:"re"`
	Families []string         `json:"families"`
	ByFile   map[string]Layer `json:"by_file,omitempty"`
	NeedErr  bool             `json:"need_err,omitempty"` // without a known error the next shape is tried
}

// Table is the export of the whole vocabulary.
func Table() Export {
	x := Export{Wrap: bareWrap, Return: map[string]any{}}
	for _, e := range v.all {
		x.Errors = append(x.Errors, [4]any{e.Family, e.Code, e.Name, e.Text})
	}
	for _, s := range shapes {
		x.Shapes = append(x.Shapes, ExportShape{Layer: s.layer, Triggers: s.triggers, Re: strings.ReplaceAll(s.re.String(), "(?P<", "(?<"),
			Families: s.families, ByFile: s.byFile, NeedErr: s.needErr})
		fams := map[string]string{}
		for _, f := range []string{CUDARuntime, CUDADriver, NCCL, Errno} {
			if r := s.layer.Returns(f); r != "" {
				fams[f] = r
			}
		}
		if len(fams) > 0 {
			x.Return[s.layer.ID] = fams
		}
		if s.layer.Plain() && !slices.Contains(x.Plain, s.layer.ID) {
			x.Plain = append(x.Plain, s.layer.ID)
		}
	}
	return x
}
