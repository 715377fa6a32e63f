package main

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// A base URL that reaches a web server or a proxy's error page instead of
// the model's API (issue 28 item 9): the person reads the status and the
// page's title once, with what to check, never the page itself.
const gatewayPage = `<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx/1.22.1</center>
</body>
</html>
<!-- a padding to reach 512 bytes, as nginx sends to browsers, padding padding padding padding padding padding -->
<!-- a padding to reach 512 bytes, as nginx sends to browsers, padding padding padding padding padding padding -->`

func TestRespondNamesAnHTMLErrorPageOnce(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	page := modeltest.Turn{Status: 502, ErrorBody: gatewayPage}
	srv := modeltest.NewServer(t, page, page, page, page)
	e.wisp("config", "set", "model.baseURL", srv.URL())
	out, _ := e.cmd("respond", "hello").CombinedOutput()
	got := string(out)
	t.Logf("respond said:\n%s", got)
	for _, leak := range []string{"<html", "<title", "nginx/1.22.1", "padding"} {
		if strings.Contains(got, leak) {
			t.Errorf("the page's text %q reached the terminal:\n%s", leak, got)
		}
	}
	if n := strings.Count(got, `"502 Bad Gateway"`); n != 1 {
		t.Errorf("the page's title is said %d times, want once:\n%s", n, got)
	}
	if !strings.Contains(got, "HTTP 502") || !strings.Contains(got, "check model.baseURL") {
		t.Errorf("no status or nothing to check:\n%s", got)
	}
}

// A web server's 404 page at the base URL: no retry, the title once.
func TestRespondNamesAnHTMLNotFoundPage(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Status: 404,
		ErrorBody: "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The requested URL was not found on this server.</p></body></html>"})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	out, _ := e.cmd("respond", "hello").CombinedOutput()
	want := "wisp: error: the server at " + srv.URL() + ` has no chat completions endpoint (HTTP 404: a web page, "404 Not Found"); check model.baseURL, which usually ends in /v1`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("respond said:\n%s\nwant:\n%s", got, want)
	}
}
