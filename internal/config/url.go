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

// likelyURL is the base URL a person most likely meant by s, which is not
// one: a host and port with no scheme (127.0.0.1:34995) means
// http://127.0.0.1:34995/v1, the path every OpenAI-compatible server
// serves under. Empty when it cannot tell.
func likelyURL(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.Contains(s, "://") {
		return ""
	}
	u, err := url.Parse("http://" + s)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return ""
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1"
	}
	return u.String()
}
