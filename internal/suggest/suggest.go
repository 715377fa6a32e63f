// Package suggest owns wisp's "did you mean": the nearest of some known
// names to one a person mistyped.
package suggest

import "strings"

// Closest returns the candidate nearest to name by edit distance, case
// folded, when it is near enough to be a likely typo, or "".
func Closest(name string, candidates []string) string {
	lower := strings.ToLower(name)
	best, bestDist := "", len(name)/2+2
	for _, c := range candidates {
		if d := Distance(lower, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
