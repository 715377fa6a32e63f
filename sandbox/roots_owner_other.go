//go:build !unix

package sandbox

// ownedByMe: without Unix owners wisp makes no cache folder.
func ownedByMe(string) bool { return false }
