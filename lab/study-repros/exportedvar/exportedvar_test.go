package exportedvar_test

import (
	"testing"

	"example.com/repros/exportedvar"
)

func TestFoldLower(t *testing.T) {
	exportedvar.Upper = false
	defer func() { exportedvar.Upper = true }()
	if got := exportedvar.Fold("Ab"); got != "ab" {
		t.Fatalf("Fold = %q", got)
	}
}
