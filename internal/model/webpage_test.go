package model

import "testing"

// A web page where the API's answer should be comes to its title or
// first line of text; anything else is left as it was.
func TestWebPageComesToOneLine(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>", `a web page, "502 Bad Gateway"`},
		{"<!DOCTYPE html>\n<html lang=en>\n<meta charset=utf-8>\n<p>Not Found &amp; gone</p>\n<p>more</p>", `a web page, "Not Found & gone"`},
		{"\n  <html><body><!-- a comment --><script>var x = 1;</script>\n\n<h1>Oops</h1></body></html>", `a web page, "Oops"`},
		{"<html></html>", "a web page, with no text"},
		{"404 page not found", "404 page not found"},
		{"upstream <b>busy</b>", "upstream <b>busy</b>"},
	} {
		if got := plainText([]byte(tc.body)); got != tc.want {
			t.Errorf("plainText(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
	se := &ServerError{Status: 502, Message: `a web page, "502 Bad Gateway"`}
	if got := (Retry{Attempt: 1, Max: 3, Err: se}).Notice(); got != "· the model server failed (HTTP 502, a web page); retry 1 of 3 in 0s" {
		t.Errorf("a retry's line: %q", got)
	}
}
