package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/google/renameio/v2"
)

// SettableKeys are the keys `wisp config set` may change. The rest of the
// file, the command lists above all, is edited by hand.
var SettableKeys = []string{
	"commandPolicy.sandbox.allowOutsideSandbox",
	"commandPolicy.sandbox.allowNetwork",
	"commandPolicy.sandbox.allowUnixSockets",
	"commandPolicy.sandbox.allowBackground",
	"commandPolicy.sandbox.allowedDomains",
	"commandPolicy.sandbox.deniedDomains",
	"approval.askForHosts",
	"approval.threshold",
	"approval.outOfBand",
	"model.name",
	"model.baseURL",
	"model.contextTokens",
	"ui.theme",
}

// ErrKeyNotSettable is wrapped by Set for a key outside SettableKeys.
var ErrKeyNotSettable = errors.New("key cannot be set with wisp config set")

// Set changes one settable key in config.json, keeping every other key as
// it was. It refuses to touch a file that is invalid now, and it refuses a
// value that would make the file invalid. The write is atomic and 0600.
func Set(h Home, key, value string) error {
	if !slices.Contains(SettableKeys, key) {
		return fmt.Errorf("%s: %w; the keys it sets are %s, and the rest of config.json is edited by hand",
			key, ErrKeyNotSettable, strings.Join(SettableKeys, ", "))
	}
	data, err := ReadStateFile(h.ConfigFile())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config set left the file as it is: %w", err)
	}
	if _, err := Parse(h.ConfigFile(), data); err != nil {
		return fmt.Errorf("config set left the file as it is: %w", err)
	}
	tree, _ := decodeTree(data) // valid: Parse said so
	typed, err := parseValue(lookup(key), key, value)
	if err != nil {
		return err
	}
	put(tree, strings.Split(key, "."), typed)
	out, err := json.MarshalIndent(tree, "", "  ")
	if err != nil {
		return fmt.Errorf("encode config: %w", err)
	}
	out = append(out, '\n')
	if _, err := Parse(h.ConfigFile(), out); err != nil {
		return err
	}
	if _, err := h.Ensure(); err != nil {
		return err
	}
	return WriteFileAtomic(h.ConfigFile(), out)
}

// WriteFileAtomic writes data to path through a temporary file in the same
// folder, fsynced and renamed over path, with mode 0600 whatever the old
// file's mode was: state files hold what only the person may read.
func WriteFileAtomic(path string, data []byte) error {
	f, err := renameio.NewPendingFile(path, renameio.WithStaticPermissions(0o600))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Get returns the value of key in cfg (defaults filled in) as JSON. An
// empty key returns the whole configuration.
func Get(cfg Config, key string) ([]byte, error) {
	whole, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(whole))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if key != "" {
		for _, part := range strings.Split(key, ".") {
			obj, ok := v.(map[string]any)
			if !ok || obj[part] == nil {
				return nil, unknownKeyError(key)
			}
			v = obj[part]
		}
	}
	return json.MarshalIndent(v, "", "  ")
}

func unknownKeyError(key string) error {
	parts := strings.Split(key, ".")
	f := schema
	for i, p := range parts {
		sub, ok := f.fields[p]
		if !ok {
			return errors.New(unknownKey(key, p, f.fields))
		}
		if sub.kind != kindObject && i < len(parts)-1 {
			return fmt.Errorf("%s is not a known key: %s holds a value, not an object", key, strings.Join(parts[:i+1], "."))
		}
		f = sub
	}
	return fmt.Errorf("%s is not a known key", key)
}

func lookup(key string) *field {
	f := schema
	for _, p := range strings.Split(key, ".") {
		f = f.fields[p]
	}
	return f
}

func parseValue(f *field, key, value string) (any, error) {
	switch f.kind {
	case kindBool:
		switch value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return nil, fmt.Errorf("%s takes true or false, not %q", key, value)
	case kindEnum:
		if !slices.Contains(f.values, value) {
			return nil, fmt.Errorf("%s takes one of %s, not %q", key, strings.Join(f.values, ", "), value)
		}
	case kindStrings:
		return parseStrings(key, value)
	case kindInt:
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return nil, fmt.Errorf("%s takes a whole number, not %q", key, value)
		}
		return json.Number(value), nil
	}
	return value, nil
}

func put(tree map[string]any, path []string, v any) {
	for _, p := range path[:len(path)-1] {
		next, ok := tree[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			tree[p] = next
		}
		tree = next
	}
	tree[path[len(path)-1]] = v
}

// parseStrings reads a list key's value as a JSON array of strings, the
// form config.json holds it in: ["github.com","*.npmjs.org"].
func parseStrings(key, value string) (any, error) {
	var list []string
	if err := json.Unmarshal([]byte(value), &list); err != nil || list == nil {
		return nil, fmt.Errorf("%s takes a JSON array of strings, such as '[\"github.com\",\"*.npmjs.org\"]', not %q", key, value)
	}
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out, nil
}
