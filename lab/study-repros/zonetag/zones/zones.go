// Package zones defines zones as package variables (toml's internal.LocalDatetime
// and friends); it stays out of the observed set.
package zones

import "time"

var (
	LocalDatetime = time.FixedZone("datetime-local", 0)
	LocalDate     = time.FixedZone("date-local", 0)
)
