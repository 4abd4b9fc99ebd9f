package report_test

import (
	"testing"

	"example.com/mini/report"
)

func TestTotal(t *testing.T) {
	if got := report.Total("1,2,x,4"); got != 7 {
		t.Fatalf("Total = %d", got)
	}
}
