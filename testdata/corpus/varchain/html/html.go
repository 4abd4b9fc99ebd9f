// Package html is external code shaped like goldmark's renderer/html: an
// exported variable of an interface type.
package html

import "example.com/varchain/util"

// GlobalAttributeFilter holds the attributes every element may have.
var GlobalAttributeFilter = util.NewBytesFilterString(`class,id`)
