package config

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A broken config.json is named with the line and column where it goes
// wrong and the line itself, as the person sees it in their editor.
func TestBrokenConfigSaysWhere(t *testing.T) {
	tests := []struct{ file, want string }{
		{"{\n  \"model\": {\n    \"baseURL\": }\n}\n",
			"config.json is invalid: not valid JSON at line 3, column 16: invalid character '}' looking for beginning of value, in the line `\"baseURL\": }`"},
		{"{\n  \"ui\": {\"theme\": \"dark\"},\n  \"model\": {\"name\": \"é\" \"x\"}\n}\n",
			"config.json is invalid: not valid JSON at line 3, column 25: a comma (or a }) is missing before the '\"', in the line `\"model\": {\"name\": \"é\" \"x\"}`"},
		// A line added by hand without the comma at its end: the decoder
		// stops at the next line, and the line that lacks it is named.
		{"{\n  \"limits\": {\"commandTimeoutSeconds\": 300}\n  \"model\": {\"name\": \"x\"}\n}\n",
			"config.json is invalid: not valid JSON at line 2, column 43: a comma (or a }) is missing at the end of the line, in the line `\"limits\": {\"commandTimeoutSeconds\": 300}`"},
		{"[1\n 2]",
			"config.json is invalid: not valid JSON at line 1, column 3: a comma (or a ]) is missing at the end of the line, in the line `[1`"},
		{"{\n  \"approval\": {\"outOfBand\": true,}\n}\n",
			"config.json is invalid: not valid JSON at line 2, column 34: invalid character '}' looking for beginning of object key string, in the line `\"approval\": {\"outOfBand\": true,}`"},
		{"{\n  \"model\": {\"name\": \"x\"}\n\n",
			"config.json is invalid: not valid JSON at line 2, column 24: the file ends before the JSON does (a missing } or ]), in the line `\"model\": {\"name\": \"x\"}`"},
	}
	for _, tt := range tests {
		_, err := Parse("config.json", []byte(tt.file))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q:\n got  %v\n want %s", tt.file, err, tt.want)
		}
	}
}

// A value a key cannot take is blamed on the value, not on the file, with
// the value meant where it can be told, and nothing is written.
func TestSetBlamesTheValue(t *testing.T) {
	tests := []struct{ key, value, want string }{
		{"model.baseURL", "127.0.0.1:34995",
			`model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1, not "127.0.0.1:34995"; for that server: wisp config set model.baseURL http://127.0.0.1:34995/v1`},
		{"model.baseURL", "localhost:8080/api",
			`model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1, not "localhost:8080/api"; for that server: wisp config set model.baseURL http://localhost:8080/api`},
		{"model.baseURL", "ftp://host/v1",
			`model.baseURL must be an http or https URL with a host, such as http://127.0.0.1:11434/v1, not "ftp://host/v1"`},
		{"limits.outputBytes", "10", "limits.outputBytes must be at least 256, not 10"},
	}
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	for _, tt := range tests {
		err := Set(h, tt.key, tt.value)
		var invalid *InvalidError
		if err == nil || err.Error() != tt.want || errors.As(err, &invalid) {
			t.Errorf("config set %s %s:\n got  %v\n want %s (not the file's error)", tt.key, tt.value, err, tt.want)
		}
	}
	if _, err := os.Stat(h.Dir); err == nil {
		t.Error("a refused value made the home or wrote config.json")
	}
}

// A misspelt key is answered with the key meant, as config get answers it.
func TestSetMisspeltKeySuggestsTheNearest(t *testing.T) {
	h := Home{Dir: t.TempDir()}
	for key, want := range map[string]string{
		"model.baseUrl":       "model.baseUrl is not a known key (did you mean model.baseURL?)",
		"modle.name":          "modle.name is not a known key (did you mean model.name?)",
		"approval.treshold":   "approval.treshold is not a known key (did you mean approval.threshold?)",
		"model.name.first":    "model.name.first is not a known key: model.name holds a value, not an object",
		"commandPolicy.deny":  "commandPolicy.deny: key cannot be set with wisp config set; the keys it sets are ",
		"commandPolicy":       "commandPolicy: key cannot be set with wisp config set; the keys it sets are ",
		"commandPolicy.sndbx": "commandPolicy.sndbx is not a known key (did you mean commandPolicy.sandbox?)",
	} {
		err := Set(h, key, "x")
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("config set %s x:\n got  %v\n want %s", key, err, want)
		}
	}
}

// Every key that holds one value is settable, and each takes a value of
// its kind and loads back as set.
func TestEverySingleValueKeyIsSettable(t *testing.T) {
	sample := map[kind]string{kindBool: "false", kindString: "qwen3", kindInt: "4096", kindURL: "http://10.0.0.5:8080/v1"}
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	var scalars []string
	var walk func(prefix string, f *field)
	walk = func(prefix string, f *field) {
		for name, sub := range f.fields {
			key := join(prefix, name)
			switch sub.kind {
			case kindObject:
				walk(key, sub)
			case kindStrings, kindPatterns:
			default:
				scalars = append(scalars, key)
				value, ok := sample[sub.kind]
				if sub.kind == kindEnum {
					value, ok = sub.values[0], true
				}
				if !ok {
					t.Fatalf("no sample value for %s", key)
				}
				if err := Set(h, key, value); err != nil {
					t.Errorf("config set %s %s: %v", key, value, err)
					continue
				}
				if got, err := Get(mustLoad(t, h), key); err != nil || string(got) != quoteUnlessBare(sub.kind, value) {
					t.Errorf("config get %s after setting %s = %s, %v", key, value, got, err)
				}
			}
		}
	}
	walk("", schema)
	for _, key := range scalars {
		if !slices.Contains(SettableKeys, key) {
			t.Errorf("%s holds one value but config set does not take it", key)
		}
	}
}

func quoteUnlessBare(k kind, value string) string {
	if k == kindBool || k == kindInt {
		return value
	}
	return `"` + value + `"`
}

func mustLoad(t *testing.T, h Home) Config {
	t.Helper()
	cfg, err := Load(h)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// config get prints every empty list as [], set or not.
func TestGetPrintsEmptyListsOneWay(t *testing.T) {
	cfg, err := Parse("config.json", []byte(`{"commandPolicy": {"sandbox": {"allowedDomains": []}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"commandPolicy.deny", "commandPolicy.sandbox.allowedDomains", "commandPolicy.sandbox.deniedDomains",
		"commandPolicy.sandbox.denyRead", "commandPolicy.sandbox.environment.keep"} {
		if got, err := Get(cfg, key); err != nil || string(got) != "[]" {
			t.Errorf("config get %s = %s, %v; want []", key, got, err)
		}
	}
	whole, _ := Get(cfg, "")
	if strings.Contains(string(whole), "null") {
		t.Errorf("config get prints null for an empty list:\n%s", whole)
	}
}
