// Package vet is darwincheck's fixture for -vet: findings in darwin files,
// with cgo off and on, and in their tests, and none in a Linux file.
package vet

import "fmt"

// Show formats n wrongly: vet's printf analyzer says so.
func Show(n int) string {
	return fmt.Sprintf("%s", n) // want: vet
}
