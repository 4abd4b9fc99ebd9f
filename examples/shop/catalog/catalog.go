// Package catalog is the example shop's opening catalogue: a coffee roaster
// selling coffee, tea, brewing equipment and merchandise. The shop seeds an
// empty database with it on first start.
//
// Most products are stocked deeply so that long load runs keep selling;
// the limited editions are scarce so that a mixed workload also meets
// out-of-stock errors and cancellations that restock them.
package catalog

import (
	"time"

	"github.com/rules-capture/rules_capture/examples/shop/storage"
)

// Product categories.
const (
	Coffee    = "coffee"
	Tea       = "tea"
	Equipment = "equipment"
	Merch     = "merch"
)

// DeepStock is the opening stock of an ordinary product.
const DeepStock = 1_000_000

// Products returns the catalogue in SKU order.
func Products() []storage.Product {
	return []storage.Product{
		{SKU: "COF-BRZ-250", Name: "Brazil Cerrado, 250 g", Category: Coffee, PriceCents: 990},
		{SKU: "COF-COL-250", Name: "Colombia Huila, 250 g", Category: Coffee, PriceCents: 1190},
		{SKU: "COF-DEC-250", Name: "Swiss Water Decaf, 250 g", Category: Coffee, PriceCents: 1090},
		{SKU: "COF-ESP-1000", Name: "House Espresso, 1 kg", Category: Coffee, PriceCents: 3290},
		{SKU: "COF-ETH-250", Name: "Ethiopia Yirgacheffe, 250 g", Category: Coffee, PriceCents: 1450},
		{SKU: "COF-GEI-100", Name: "Panama Geisha (limited), 100 g", Category: Coffee, PriceCents: 4900},
		{SKU: "COF-KEN-250", Name: "Kenya AA, 250 g", Category: Coffee, PriceCents: 1590},
		{SKU: "EQP-AER", Name: "AeroPress", Category: Equipment, PriceCents: 3999},
		{SKU: "EQP-FIL-100", Name: "Paper filters, 100", Category: Equipment, PriceCents: 499},
		{SKU: "EQP-GRD-HND", Name: "Hand grinder", Category: Equipment, PriceCents: 8900},
		{SKU: "EQP-KET-GOO", Name: "Gooseneck kettle", Category: Equipment, PriceCents: 5490},
		{SKU: "EQP-RST-LTD", Name: "Home roaster (limited)", Category: Equipment, PriceCents: 89000},
		{SKU: "EQP-SCL", Name: "Brew scale", Category: Equipment, PriceCents: 2990},
		{SKU: "EQP-V60", Name: "Dripper V60", Category: Equipment, PriceCents: 2350},
		{SKU: "MER-MUG", Name: "Stoneware mug", Category: Merch, PriceCents: 1500},
		{SKU: "MER-TEE", Name: "Roastery T-shirt", Category: Merch, PriceCents: 2400},
		{SKU: "MER-TOTE", Name: "Tote bag", Category: Merch, PriceCents: 900},
		{SKU: "TEA-ASM-100", Name: "Assam, 100 g", Category: Tea, PriceCents: 690},
		{SKU: "TEA-DRJ-100", Name: "Darjeeling first flush, 100 g", Category: Tea, PriceCents: 1290},
		{SKU: "TEA-GYK-050", Name: "Gyokuro (limited), 50 g", Category: Tea, PriceCents: 2800},
		{SKU: "TEA-MAT-030", Name: "Ceremonial matcha, 30 g", Category: Tea, PriceCents: 2450},
		{SKU: "TEA-SEN-100", Name: "Sencha, 100 g", Category: Tea, PriceCents: 890},
	}
}

// limited maps the scarce SKUs to their opening stock.
var limited = map[string]int{
	"COF-GEI-100": 40,
	"EQP-RST-LTD": 5,
	"TEA-GYK-050": 25,
}

// Stock returns the opening stock of every product, in SKU order. Each
// product keeps a small safety stock that is never sold.
func Stock() []storage.StockLevel {
	var out []storage.StockLevel
	for _, p := range Products() {
		onHand, safety := DeepStock, 10
		if n, ok := limited[p.SKU]; ok {
			onHand, safety = n, 2
		}
		out = append(out, storage.StockLevel{SKU: p.SKU, OnHand: onHand, SafetyStock: safety})
	}
	return out
}

// Coupons returns the coupon codes, including some that are no longer (or
// not yet) valid, as a real shop accumulates them.
func Coupons() []storage.Coupon {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	return []storage.Coupon{
		{Code: "WELCOME10", PercentOffBP: 1000, MinSubtotalCents: 2000},
		{Code: "BEANS5", AmountOffCents: 500, MinSubtotalCents: 2500, Category: Coffee},
		{Code: "TEATIME", PercentOffBP: 1500, Category: Tea},
		{Code: "BIGSPENDER", AmountOffCents: 2000, MinSubtotalCents: 15000},
		{Code: "SUMMER26", PercentOffBP: 1500, ValidFrom: day(2026, time.June, 1), ValidUntil: day(2026, time.September, 1)},
		{Code: "NEXTYEAR", PercentOffBP: 2000, ValidFrom: day(2099, time.January, 1)},
	}
}
