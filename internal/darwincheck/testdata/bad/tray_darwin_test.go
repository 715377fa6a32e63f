package bad

import "testing"

// TestCount is darwin-only test code: it is checked too.
func TestCount(t *testing.T) {
	var got string = Count() // want: type error
	t.Log(got)
}
