package good

// Twice is declared again here: were the checker to take linux files for
// darwin, it would report a redeclaration.
func Twice(n int) int { return n + n }
