package pricing

import (
	"fmt"
	"math/rand"
)

// Experiment variants.
const (
	VariantA = "A" // control: no bundle discount
	VariantB = "B" // treatment: bundle discount on carts with several products
)

// Experiment is the A/B test the shop runs on its pricing: variant B gets
// BundleBP off every line of a cart with at least BundleMinSKUs distinct
// products. New clients are assigned at random, PercentB of them to B; a
// client that already has a variant keeps it by sending it back.
type Experiment struct {
	Name          string
	PercentB      int
	BundleMinSKUs int
	BundleBP      int64
}

func (e Experiment) validate() error {
	if e.PercentB < 0 || e.PercentB > 100 {
		return fmt.Errorf("pricing: experiment %q: PercentB %d outside 0..100", e.Name, e.PercentB)
	}
	if e.BundleBP > 0 && e.BundleMinSKUs < 2 {
		return fmt.Errorf("pricing: experiment %q: BundleMinSKUs %d, want >= 2 for a bundle", e.Name, e.BundleMinSKUs)
	}
	return nil
}

// assignVariant keeps a valid requested variant and draws one otherwise.
// The draw is the package's only use of randomness; it is skipped when the
// split is 0% or 100%, so such runs consume no random numbers.
func (p *Pricer) assignVariant(requested string) (string, error) {
	switch requested {
	case VariantA, VariantB:
		return requested, nil
	case "":
	default:
		return "", fmt.Errorf("%w %q: send %q, %q or nothing", ErrInvalidVariant, requested, VariantA, VariantB)
	}
	switch pb := p.cfg.Experiment.PercentB; {
	case pb <= 0:
		return VariantA, nil
	case pb >= 100:
		return VariantB, nil
	case p.draw(100) < pb:
		return VariantB, nil
	}
	return VariantA, nil
}

func (p *Pricer) draw(n int) int {
	if p.intn != nil {
		return p.intn(n)
	}
	return rand.Intn(n)
}

// applyBundle gives the bundle discount to every line of a large enough
// cart, after promotions and coupons.
func (e Experiment) applyBundle(lines []Line) {
	if e.BundleBP <= 0 || len(lines) < e.BundleMinSKUs {
		return
	}
	for i := range lines {
		lines[i].apply(RuleBundle, percentOf(lines[i].NetCents, e.BundleBP))
	}
}
