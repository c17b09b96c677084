package p2pcheck

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/p2pkb/p2pkb/probe/facts"
)

// Every struct of the test section and its object in probe/schema.json
// name the same keys, and the schema requires exactly those the structs
// always write (no omitempty).
func TestSchemaMatchesStructs(t *testing.T) {
	data, err := os.ReadFile("../schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	def := func(path ...string) map[string]any {
		node := schema
		for _, p := range path {
			next, ok := node[p].(map[string]any)
			if !ok {
				t.Fatalf("probe/schema.json has no %s", strings.Join(path, "/"))
			}
			node = next
		}
		return node
	}
	for _, c := range []struct {
		v    any
		path []string
	}{
		{facts.Test{}, []string{"$defs", "test"}},
		{facts.TestSummary{}, []string{"$defs", "test", "properties", "summary"}},
		{facts.TestDevice{}, []string{"$defs", "testDevice"}},
		{facts.TestPair{}, []string{"$defs", "testPair"}},
		{facts.P2PAttrs{}, []string{"$defs", "testPair", "properties", "attributes"}},
		{facts.Bandwidth{}, []string{"$defs", "testPair", "properties", "bandwidth"}},
		{facts.Latency{}, []string{"$defs", "testPair", "properties", "latency_us"}},
		{facts.TestPath{}, []string{"$defs", "testPath"}},
		{facts.Mismatch{}, []string{"$defs", "testPath", "properties", "first_mismatch"}},
	} {
		typ := reflect.TypeOf(c.v)
		var keys, always []string
		for i := 0; i < typ.NumField(); i++ {
			name, opts, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name == "-" || name == "" {
				continue
			}
			keys = append(keys, name)
			if !strings.Contains(opts, "omitempty") {
				always = append(always, name)
			}
		}
		obj := def(c.path...)
		var props, required []string
		for k := range obj["properties"].(map[string]any) {
			props = append(props, k)
		}
		for _, r := range obj["required"].([]any) {
			required = append(required, r.(string))
		}
		sort.Strings(keys)
		sort.Strings(always)
		sort.Strings(props)
		sort.Strings(required)
		if !reflect.DeepEqual(keys, props) {
			t.Errorf("%s: struct keys %v, schema properties %v", typ.Name(), keys, props)
		}
		if !reflect.DeepEqual(always, required) {
			t.Errorf("%s: always written %v, schema requires %v", typ.Name(), always, required)
		}
		if obj["additionalProperties"] != false {
			t.Errorf("%s: the schema must refuse keys it does not know", typ.Name())
		}
	}
}
