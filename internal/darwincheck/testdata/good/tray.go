// Package good is darwin cgo code that type-checks: every name under C.
// is unknown to the checker and must pass, everything else must resolve.
package good

// Menu is shared by every platform's files.
type Menu struct{ Title string }
