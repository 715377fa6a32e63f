package config

import (
	"fmt"
	"net/url"
	"strings"
)

// checkURL says what is wrong with a base URL: it needs a scheme and a
// host, or the model client could only fail later with a vaguer error.
func checkURL(key string, v any) []string {
	s, ok := v.(string)
	if !ok {
		return []string{fmt.Sprintf("%s must be a string, not %s", key, describe(v))}
	}
	if strings.TrimSpace(s) == "" {
		return nil // the default
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return []string{fmt.Sprintf("%s must be an http or https URL with a host, such as %s, not %q",
			key, Default().Model.BaseURL, s)}
	}
	return nil
}
