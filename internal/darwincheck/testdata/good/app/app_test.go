package app_test

import (
	"testing"

	"example.com/good/app"
)

func TestStart(t *testing.T) {
	if app.Start() == "" {
		t.Error("Start returned nothing")
	}
}
