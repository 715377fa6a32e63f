package good

/*
#include <stdlib.h>
#define TITLE_MAX 64
struct item { int id; char *title; };
static int twice(int n) { return 2 * n; }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Twice calls into C and converts the answer back.
func Twice(n int) int {
	return int(C.twice(C.int(n)))
}

// Label round-trips the menu's title through a C string.
func Label(m Menu) string {
	cs := C.CString(m.Title)
	defer C.free(unsafe.Pointer(cs))
	return fmt.Sprint(C.GoString(cs))
}

// Item fills a C struct; a C constant sizes a Go array.
func Item(m Menu) (C.struct_item, [C.TITLE_MAX]byte) {
	var buf [C.TITLE_MAX]byte
	copy(buf[:], m.Title)
	item := C.struct_item{id: C.int(len(m.Title)), title: (*C.char)(unsafe.Pointer(&buf[0]))}
	return item, buf
}

// Bytes copies C memory into Go.
func Bytes(p unsafe.Pointer, n int) []byte {
	b := C.GoBytes(p, C.int(n))
	return append(b, 0)
}

//export wispClicked
func wispClicked(id C.int) {
	fmt.Println("clicked", int(id))
}
