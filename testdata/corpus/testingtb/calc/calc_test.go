package calc_test

import (
	"testing"

	"example.com/testingtb/assert"
	"example.com/testingtb/calc"
)

func TestSum(t *testing.T) {
	tr := assert.Track(t)
	n, err := calc.Sum([]string{"1", "2", "39"})
	assert.NoError(t, err)
	assert.Equal(t, 42, n)
	tr.Step(t, "sum")
}

func TestSumCases(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []string
		want int
	}{{"empty", nil, 0}, {"one", []string{"7"}, 7}, {"two", []string{"7", "-2"}, 5}} {
		t.Run(c.name, func(t *testing.T) {
			tr := assert.Track(t)
			n, err := calc.Sum(c.in)
			assert.NoError(t, err)
			if assert.Equal(t, c.want, n) {
				tr.Step(t, c.name)
			}
		})
	}
}

func TestSumError(t *testing.T) {
	_, err := calc.Sum([]string{"x"})
	assert.True(t, err != nil)
	if assert.Equal(t, true, err != nil) {
		assert.Equal(t, `strconv.Atoi: parsing "x": invalid syntax`, err.Error())
	}
}
