package facts

import (
	"encoding/json"
	"testing"
)

func TestValueJSON(t *testing.T) {
	type doc struct {
		A Value[int]    `json:"a"`
		B Value[string] `json:"b"`
		C Value[bool]   `json:"c"`
		D Value[int]    `json:"d,omitzero"`
	}
	in := doc{A: Of(0), B: Failed[string]("ERROR_NOT_SUPPORTED"), C: Of(false)}
	data, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"a":0,"b":{"error":"ERROR_NOT_SUPPORTED"},"c":false}` {
		t.Errorf("marshal = %s", data)
	}
	var out doc
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	if out != in {
		t.Errorf("round trip: %+v != %+v", out, in)
	}
	if err := json.Unmarshal([]byte(`{"a":"x"}`), &out); err == nil {
		t.Error("a string where an int belongs must fail")
	}
}
