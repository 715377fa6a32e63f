package model

import (
	"bytes"
	"html"
	"regexp"
	"strings"
)

// webPagePrefix starts the message of an error whose body was a web page
// (a proxy's or a web server's error page, not a model API's answer), so
// that the error's text can say what to check, and a retry's line can
// leave the page out.
const webPagePrefix = "a web page, "

var (
	htmlStart = regexp.MustCompile(`(?i)^\s*(<!doctype\s+html|<html|<head|<body|<title|<center|<h1|<p>)`)
	htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlTag   = regexp.MustCompile(`(?s)<!--.*?-->|<(script|style)[^>]*>.*?</(script|style)>|<[^>]*>`)
)

// webPageMessage is the one line a web page's body comes to: its title,
// or its first line of text, quoted; ok is false when body is not HTML.
func webPageMessage(body []byte) (message string, ok bool) {
	if !htmlStart.Match(body) {
		return "", false
	}
	first := ""
	if m := htmlTitle.FindSubmatch(body); m != nil {
		first = oneLine(m[1])
	}
	if first == "" {
		for _, line := range bytes.Split(htmlTag.ReplaceAll(body, []byte("\n")), []byte("\n")) {
			if first = oneLine(line); first != "" {
				break
			}
		}
	}
	if first == "" {
		return webPagePrefix + "with no text", true
	}
	if len(first) > 80 {
		first = first[:80] + "…"
	}
	return webPagePrefix + `"` + first + `"`, true
}

func oneLine(b []byte) string {
	return strings.Join(strings.Fields(html.UnescapeString(string(b))), " ")
}

// isWebPage reports whether a server's message came from a web page.
func isWebPage(message string) bool { return strings.HasPrefix(message, webPagePrefix) }

// webPageCheck is what to check when a web page came where the model's
// API should answer.
const webPageCheck = "; that is not a model API's answer: check model.baseURL (it usually ends in /v1) " +
	"and the server or proxy at that address"
