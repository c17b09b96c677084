package facts

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Limits of a report, beyond MaxSize. The Go reader and the site's browser
// reader both check them, from the same Shape, so that a report one accepts
// the other accepts too; the browser draws every GPU x GPU table from the
// checked report, so these also bound the work of a page.
const (
	MaxGPUs   = 64                      // NVML indexes; nvidia-smi topo -m draws no more
	MaxPairs  = MaxGPUs * (MaxGPUs - 1) // ordered pairs of distinct GPUs
	MaxString = 4096                    // UTF-16 code units, as JavaScript counts them, of any string
	MaxItems  = 256                     // any other list or map: NVLinks, bridges, packages, variables, notes
)

// Shape is the form of a JSON value a report may hold, derived from the Go
// types by reflection and written for the browser by the site
// (window.p2pkbReportShape), so that both readers check one description.
// Every field is optional, as encoding/json reads it; null is allowed only
// where Go writes it (lists, maps, pointers and Values), and no field the
// types do not have.
type Shape struct {
	Kind   string            `json:"k"`              // obj, arr, map, str, int, num, bool, or val: Value[T], which is T, {"error": name} or null
	Fields map[string]*Shape `json:"f,omitempty"`    // obj: its fields by JSON name
	Of     *Shape            `json:"of,omitempty"`   // arr, map and val: the element's shape
	Max    int               `json:"max,omitempty"`  // arr and map: items; str: UTF-16 code units
	Null   bool              `json:"null,omitempty"` // null is allowed
}

var (
	reportShape     *Shape
	reportShapeOnce sync.Once
)

// ReportShape is the shape of a Report.
func ReportShape() *Shape {
	reportShapeOnce.Do(func() { reportShape = shapeOf(reflect.TypeFor[Report](), "") })
	return reportShape
}

// shapeOf maps a Go type to its shape; tag is the field's max tag, which
// bounds a list or map.
func shapeOf(t reflect.Type, tag string) *Shape {
	limit := MaxItems
	if tag != "" {
		n, err := strconv.Atoi(tag)
		if err != nil {
			panic("facts: bad max tag " + tag)
		}
		limit = n
	}
	if t.Kind() == reflect.Struct && t.PkgPath() == reflect.TypeFor[Report]().PkgPath() && strings.HasPrefix(t.Name(), "Value[") {
		v, _ := t.FieldByName("V")
		return &Shape{Kind: "val", Of: shapeOf(v.Type, ""), Null: true}
	}
	switch t.Kind() {
	case reflect.Pointer:
		s := *shapeOf(t.Elem(), tag)
		s.Null = true
		return &s
	case reflect.Slice:
		return &Shape{Kind: "arr", Of: shapeOf(t.Elem(), ""), Max: limit, Null: true}
	case reflect.Map:
		return &Shape{Kind: "map", Of: shapeOf(t.Elem(), ""), Max: limit, Null: true}
	case reflect.String:
		return &Shape{Kind: "str", Max: MaxString}
	case reflect.Int, reflect.Int64:
		return &Shape{Kind: "int"}
	case reflect.Float64:
		return &Shape{Kind: "num"}
	case reflect.Bool:
		return &Shape{Kind: "bool"}
	case reflect.Struct:
		s := &Shape{Kind: "obj", Fields: map[string]*Shape{}}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				panic("facts: field without a JSON name: " + t.Name() + "." + f.Name)
			}
			s.Fields[name] = shapeOf(f.Type, f.Tag.Get("max"))
		}
		return s
	}
	panic("facts: no shape for " + t.String())
}

// ShapeError says where a document leaves the shape of a report and how: the
// field's path (gpus[3].name) and one of the kinds below, which the browser
// words in the page's language.
type ShapeError struct {
	Path string // field path, gpus[3].name; "" for the document
	Kind string // type, unknown, many (more than Max items), long (more than Max characters)
	Max  int    // the limit passed, for many and long
}

func (e *ShapeError) Error() string {
	switch e.Kind {
	case "unknown":
		return fmt.Sprintf("%s: no such field in a p2p-probe report", e.Path)
	case "many":
		return fmt.Sprintf("%s: more than %d items", e.Path, e.Max)
	case "long":
		return fmt.Sprintf("%s: longer than %d characters", e.Path, e.Max)
	}
	return fmt.Sprintf("%s: not of the type a p2p-probe report has there", e.Path)
}

// maxSafeInt is the largest integer JavaScript holds exactly; a larger one
// would read differently in the browser.
const maxSafeInt = 1<<53 - 1

// Check walks a JSON document, decoded by encoding/json into any, against
// the shape. machine.js's check does the same walk in the browser, keep them
// alike.
func (s *Shape) Check(v any, path string) error {
	if v == nil {
		if s.Null {
			return nil
		}
		return &ShapeError{Path: path, Kind: "type"}
	}
	switch s.Kind {
	case "val":
		if m, ok := v.(map[string]any); ok && len(m) == 1 {
			if e, ok := m["error"].(string); ok && e != "" {
				return (&Shape{Kind: "str", Max: MaxString}).Check(e, path+".error")
			}
		}
		return s.Of.Check(v, path)
	case "obj":
		m, ok := v.(map[string]any)
		if !ok {
			return &ShapeError{Path: path, Kind: "type"}
		}
		for _, k := range sortedKeys(m) {
			f, ok := s.Fields[k]
			if !ok {
				return &ShapeError{Path: join(path, k), Kind: "unknown"}
			}
			if err := f.Check(m[k], join(path, k)); err != nil {
				return err
			}
		}
		return nil
	case "map":
		m, ok := v.(map[string]any)
		if !ok {
			return &ShapeError{Path: path, Kind: "type"}
		}
		if len(m) > s.Max {
			return &ShapeError{Path: path, Kind: "many", Max: s.Max}
		}
		for _, k := range sortedKeys(m) {
			if l := utf16Len(k); l > MaxString {
				return &ShapeError{Path: join(path, k), Kind: "long", Max: MaxString}
			}
			if err := s.Of.Check(m[k], join(path, k)); err != nil {
				return err
			}
		}
		return nil
	case "arr":
		a, ok := v.([]any)
		if !ok {
			return &ShapeError{Path: path, Kind: "type"}
		}
		if len(a) > s.Max {
			return &ShapeError{Path: path, Kind: "many", Max: s.Max}
		}
		for i, x := range a {
			if err := s.Of.Check(x, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		return nil
	case "str":
		x, ok := v.(string)
		if !ok {
			return &ShapeError{Path: path, Kind: "type"}
		}
		if utf16Len(x) > s.Max {
			return &ShapeError{Path: path, Kind: "long", Max: s.Max}
		}
		return nil
	case "int", "num":
		x, ok := v.(float64)
		if !ok || s.Kind == "int" && (x != math.Trunc(x) || math.Abs(x) > maxSafeInt) {
			return &ShapeError{Path: path, Kind: "type"}
		}
		return nil
	case "bool":
		if _, ok := v.(bool); !ok {
			return &ShapeError{Path: path, Kind: "type"}
		}
		return nil
	}
	panic("facts: unknown shape kind " + s.Kind)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// sortedKeys makes the first error found the same on every run (the browser
// walks keys in the document's order, and may name another field when
// several are wrong; both refuse).
func sortedKeys(m map[string]any) []string {
	return slices.Sorted(maps.Keys(m))
}

// utf16Len is a string's length as JavaScript's String.length counts it.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// ShapeJSON is the shape and the limits as the browser reads them.
func ShapeJSON() []byte {
	b, err := json.Marshal(struct {
		MaxSize   int    `json:"maxSize"`   // bytes of JSON
		MaxString int    `json:"maxString"` // an error name's limit (a Value's {"error": name})
		Shape     *Shape `json:"shape"`
	}{MaxSize, MaxString, ReportShape()})
	if err != nil {
		panic(err)
	}
	return b
}
