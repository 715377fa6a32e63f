package approval

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/render"
)

// grantDialog is add_directory's question in its own words: it is not a
// command to run but a folder to open for writing, and what it allows
// lasts until the session ends, whatever key answers it.
func grantDialog(req Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "let commands write in %s for this session?\n", render.Line(req.Grant))
	for _, r := range req.Reasons {
		fmt.Fprintf(&b, "  · %s\n", render.Line(r))
	}
	b.WriteString("[y]es, for this session [n]o ")
	return b.String()
}

// answerLine is what the dialog leaves once answered. A grant's says that
// it holds for the session, never "once".
func answerLine(req Request, a Answer) string {
	switch {
	case req.Grant == "" && a.Prefix:
		return echo(a) + ", holding " + render.Line(strings.Join(req.Prefixes, ", "))
	case req.Grant == "":
		return echo(a)
	case a.Approve:
		return "· approved: commands may write in " + render.Line(req.Grant) + " until this session ends"
	}
	return "· denied: commands may not write in " + render.Line(req.Grant)
}
