package facts

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
)

// LinkURL returns base with a fragment #probe=<raw DEFLATE of the JSON,
// base64url without padding>. Browsers decompress it with
// DecompressionStream("deflate-raw").
func LinkURL(base string, rep Report) (string, error) {
	data, err := json.Marshal(rep)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := w.Write(data); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base + "#probe=" + base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}
