package pending

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"unicode/utf8"
)

// shape lists the exact keys of a JSON object; a key whose value is an
// object has that object's shape, other keys map to nil.
//
// Go's encoding/json matches keys case-insensitively and keeps the last of
// duplicate keys; another face's parser may do otherwise. So before
// decoding, the keys are checked to be exactly these, each once: what a
// face shows and what the gate reads can never be two readings of one file.
type shape map[string]shape

var requestShape = shape{
	"version": nil, "id": nil, "kind": nil, "command": nil, "cwd": nil,
	"outsideSandbox": nil, "level": nil, "reasons": nil, "scopes": nil, "face": nil,
	"requester":   {"pid": nil, "startTime": nil},
	"requestedAt": nil, "expiresAt": nil,
}

var answerShape = shape{
	"version": nil, "id": nil, "binding": nil, "decision": nil,
	"scope": nil, "by": nil, "answeredAt": nil,
}

// decodeStrict decodes data into v when data is one JSON object of shape s
// and nothing else, of this package's version.
func decodeStrict(data []byte, s shape, v any) error {
	if !utf8.Valid(data) {
		return fmt.Errorf("%w: it is not UTF-8 text", ErrMalformed)
	}
	if err := checkVersion(data); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := checkObject(dec, s); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%w: something follows the JSON object", ErrMalformed)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

// checkVersion refuses a file of another version before its keys are
// checked, so a newer file is reported as newer rather than as malformed.
func checkVersion(data []byte) error {
	var head struct {
		Version *int `json:"version"`
	}
	if json.Unmarshal(data, &head) != nil || head.Version == nil || *head.Version == Version {
		return nil // the strict pass reports what is wrong with it
	}
	return fmt.Errorf("%w: version %d, and this wisp reads version %d", ErrVersion, *head.Version, Version)
}

func checkObject(dec *json.Decoder, s shape) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	seen := make(map[string]bool, len(s))
	for dec.More() {
		key, err := nextKey(dec, s, seen)
		if err != nil {
			return err
		}
		if err := checkValue(dec, s[key]); err != nil {
			return err
		}
	}
	if err := expectDelim(dec, '}'); err != nil {
		return err
	}
	return missingKeys(s, seen)
}

func nextKey(dec *json.Decoder, s shape, seen map[string]bool) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	key, _ := tok.(string)
	if _, known := s[key]; !known {
		return "", fmt.Errorf("%w: unknown field %q", ErrMalformed, key)
	}
	if seen[key] {
		return "", fmt.Errorf("%w: field %q appears twice", ErrMalformed, key)
	}
	seen[key] = true
	return key, nil
}

func checkValue(dec *json.Decoder, sub shape) error {
	if sub != nil {
		return checkObject(dec, sub)
	}
	var skip json.RawMessage
	if err := dec.Decode(&skip); err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return nil
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return fmt.Errorf("%w: expected %q, found %v", ErrMalformed, want, tok)
	}
	return nil
}

func missingKeys(s shape, seen map[string]bool) error {
	var missing []string
	for key := range s {
		if !seen[key] {
			missing = append(missing, key)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Strings(missing)
	return fmt.Errorf("%w: missing field %q", ErrMalformed, missing[0])
}

// encode writes v the one way this package writes files: indented by two
// spaces, ending in a newline.
func encode(v any) ([]byte, error) {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
