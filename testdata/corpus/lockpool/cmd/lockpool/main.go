// Command lockpool runs the order pool.
package main

import (
	"fmt"

	"example.com/lockpool/orders"
	"example.com/lockpool/server"
)

func main() {
	fmt.Println(orders.Run(&server.Server{}, 4, 3))
}
