// Package bad is darwin cgo code with real type errors outside C.
package bad

/*
static int count(void) { return 3; }
static const char *title(void) { return "wisp"; }
*/
import "C"

import "example.com/bad/menu"

// Count has a string where an int belongs.
func Count() int {
	n := int(C.count())
	n = "three" // want: type error
	return n
}

// Title calls its dependency with the wrong type.
func Title() string {
	return menu.Title("3") // want: type error
}

// Width takes a string for a number.
func Width() int {
	var width int = C.GoString(C.title()) // want: type error
	return width
}

// Name converts a C result to the wrong Go type.
func Name() string {
	return int(C.count()) // want: type error
}
