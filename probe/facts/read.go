package facts

import (
	"errors"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
)

// MaxSize is the largest report Read accepts; a real one is a few KB per GPU.
const MaxSize = 1 << 20

// Read parses a probe report and refuses anything else: a document too
// large, not JSON, of another schema version, or out of the report's shape
// (fields the format does not have, a value of the wrong type, more GPUs,
// pairs or characters than the limits). The error says what is wrong and
// where. The site's browser reader checks the same shape.
//
// The document is parsed twice, as a tree for the shape and into a Report,
// both by json/v2, which reads a report in about half the time and memory
// of encoding/json: `p2pkb fleet` reads thousands.
func Read(r io.Reader) (*Report, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("not a p2p-probe report: larger than %d KB", MaxSize>>10)
	}
	var doc any
	if err := jsonv2.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a p2p-probe report: %w", err)
	}
	top, _ := doc.(map[string]any)
	probe, _ := top["probe"].(map[string]any)
	version, versioned := top["schema_version"].(float64)
	if probe["name"] != "p2p-probe" || !versioned {
		return nil, errors.New("not a p2p-probe report: it has no probe.name \"p2p-probe\" and schema_version")
	}
	if version != SchemaVersion {
		return nil, fmt.Errorf("p2p-probe report of schema version %v; this p2pkb reads version %d", version, SchemaVersion)
	}
	if err := ReportShape().Check(doc, ""); err != nil {
		return nil, fmt.Errorf("not a valid p2p-probe report: %w", err)
	}
	var rep Report
	if err := jsonv2.Unmarshal(data, &rep, jsonv2.RejectUnknownMembers(true)); err != nil {
		return nil, fmt.Errorf("not a valid p2p-probe report: %w", err)
	}
	return &rep, nil
}
