package facts

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	jsonv2 "github.com/go-json-experiment/json"
)

// MaxSize is the largest report Read accepts; a real one is a few KB per GPU.
const MaxSize = 1 << 20

// Read parses a probe report and refuses anything else: a document too
// large, not JSON, with fields the format does not have, or of another
// schema version. The error says what is wrong.
func Read(r io.Reader) (*Report, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("not a p2p-probe report: larger than %d KB", MaxSize>>10)
	}
	// One strict pass reads a report; only a document it refuses is read
	// again, loosely, to say what it is instead. The strict pass is
	// json/v2's, which reads a report in about half the time and memory of
	// encoding/json: `p2pkb fleet` reads thousands.
	var rep Report
	strictErr := jsonv2.Unmarshal(data, &rep, jsonv2.RejectUnknownMembers(true))
	if strictErr == nil && rep.Probe.Name == "p2p-probe" && rep.SchemaVersion == SchemaVersion {
		return &rep, nil
	}
	var head struct {
		SchemaVersion *int `json:"schema_version"`
		Probe         struct {
			Name string `json:"name"`
		} `json:"probe"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("not a p2p-probe report: %w", err)
	}
	if head.Probe.Name != "p2p-probe" || head.SchemaVersion == nil {
		return nil, errors.New("not a p2p-probe report: it has no probe.name \"p2p-probe\" and schema_version")
	}
	if *head.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("p2p-probe report of schema version %d; this p2pkb reads version %d", *head.SchemaVersion, SchemaVersion)
	}
	return nil, fmt.Errorf("not a valid p2p-probe report: %w", strictErr)
}
