package policy

import (
	"fmt"
	"strings"
)

// parseRiskTable reads the whole of risk.txt, as wisp once did at start:
// the tests check every line of it parses and that each program's rows,
// read alone at run time, are the ones it gives.
func parseRiskTable(text string) (map[string]*programRisk, error) {
	table := map[string]*programRisk{}
	for n, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if err := addRiskLine(table, fields); err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
	}
	return table, nil
}
