package aftergen

func init() {
	Limit.Max = 5
}
