//go:build !unix

package gitguard

import "errors"

// canShareBaselines: without flock, each wisp keeps its baseline to itself.
const canShareBaselines = false

var errNoSharing = errors.New("not on this system")

func lockFile(string) (func(), error)           { return nil, errNoSharing }
func readOwnFile(string, int64) ([]byte, error) { return nil, errNoSharing }
func processRuns(int, string) bool              { return true }
