package probe

import "github.com/rules-capture/rules_capture/runtime/probectl"

// CrashReport is the report of a replay process that died without writing
// one (probectl.CrashReport, which probectl.Run writes in its place).
func CrashReport(log, check string, runErr error, output []byte) (*Report, bool) {
	return probectl.CrashReport(log, check, runErr, output)
}
