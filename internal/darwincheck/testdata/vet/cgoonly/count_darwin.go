//go:build cgo

// Package cgoonly has a file that only the build with cgo on compiles.
package cgoonly

// Only the build with cgo on sees this file.
var count int = "three" // want: type error with cgo
