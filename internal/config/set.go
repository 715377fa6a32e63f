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

	"github.com/wisp-sh/wisp/internal/suggest"
)

// SettableKeys are the keys `wisp config set` may change: every key that
// holds one value, and the two domain lists. The rest of the file, the
// command lists above all, is edited by hand.
var SettableKeys = settableKeys()

// settableLists are the lists config set takes, as JSON arrays.
var settableLists = []string{
	"commandPolicy.sandbox.allowedDomains",
	"commandPolicy.sandbox.deniedDomains",
}

func settableKeys() []string {
	var keys []string
	var walk func(prefix string, f *field)
	walk = func(prefix string, f *field) {
		for _, name := range sortedKeys(f.fields) {
			key, sub := join(prefix, name), f.fields[name]
			switch {
			case sub.kind == kindObject:
				walk(key, sub)
			case sub.kind != kindStrings && sub.kind != kindPatterns, slices.Contains(settableLists, key):
				keys = append(keys, key)
			}
		}
	}
	walk("", schema)
	return keys
}

// ErrKeyNotSettable is wrapped by Set for a key outside SettableKeys.
var ErrKeyNotSettable = errors.New("key cannot be set with wisp config set")

// Set changes one settable key in config.json, keeping every other key as
// it was. It refuses to touch a file that is invalid now (an
// *InvalidError), and a value the key cannot take (an error that names the
// value, not the file, and the value meant where it can tell). The write
// is atomic and 0600.
func Set(h Home, key, value string) error {
	if err := checkSettable(key); err != nil {
		return err
	}
	data, err := ReadStateFile(h.ConfigFile())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("config set left the file as it is: %w", err)
	}
	if _, err := Parse(h.ConfigFile(), data); err != nil {
		return fmt.Errorf("config set left the file as it is: %w", err)
	}
	tree, _ := decodeTree(data) // valid: Parse said so
	f := lookup(key)
	typed, err := parseValue(f, key, value)
	if err == nil {
		err = checkValue(f, key, value, typed)
	}
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

// checkSettable refuses a key config set does not change: a misspelt one
// with the nearest key, as config get names it; a list or an object with
// the keys it does set.
func checkSettable(key string) error {
	switch {
	case slices.Contains(SettableKeys, key):
		return nil
	case !isKnown(key):
		return unknownKeyError(key)
	}
	return fmt.Errorf("%s: %w; the keys it sets are %s, and the rest of config.json is edited by hand",
		key, ErrKeyNotSettable, strings.Join(SettableKeys, ", "))
}

// isKnown says whether key names a field of the schema.
func isKnown(key string) bool {
	f := schema
	for _, p := range strings.Split(key, ".") {
		if f.kind != kindObject || f.fields[p] == nil {
			return false
		}
		f = f.fields[p]
	}
	return true
}

// checkValue holds value to what the file may hold for key, and says what
// is wrong with the value itself, with the value meant where it can tell.
func checkValue(f *field, key, value string, typed any) error {
	problems := f.check(key, typed)
	if len(problems) == 0 {
		return nil
	}
	msg := problems[0]
	if f.kind == kindURL {
		if fixed := likelyURL(value); fixed != "" {
			msg += "; for that server: wisp config set " + key + " " + fixed
		}
	}
	return errors.New(msg)
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
	v = emptyLists(schema, v)
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

// unknownKeyError names the first part of key that is not a key, with the
// whole key it most likely meant.
func unknownKeyError(key string) error {
	parts := strings.Split(key, ".")
	f := schema
	for i, p := range parts {
		sub, ok := f.fields[p]
		if !ok {
			msg := key + " is not a known key"
			if best := suggest.Closest(p, sortedKeys(f.fields)); best != "" {
				meant := slices.Concat(parts[:i], []string{best}, parts[i+1:])
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(meant, "."))
			}
			return errors.New(msg)
		}
		if sub.kind != kindObject && i < len(parts)-1 {
			return fmt.Errorf("%s is not a known key: %s holds a value, not an object", key, strings.Join(parts[:i+1], "."))
		}
		f = sub
	}
	return fmt.Errorf("%s is not a known key", key)
}

// emptyLists gives every list v holds that is nil (unset, where Default
// leaves it nil) as [], so that config get prints an empty list one way.
func emptyLists(f *field, v any) any {
	switch f.kind {
	case kindObject:
		if obj, ok := v.(map[string]any); ok {
			for name, sub := range f.fields {
				if child, present := obj[name]; present {
					obj[name] = emptyLists(sub, child)
				}
			}
		}
	case kindStrings, kindPatterns:
		if v == nil {
			return []any{}
		}
	}
	return v
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
