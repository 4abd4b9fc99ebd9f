// Command redact passes secrets from its environment and its own data
// into the observed package auth.
package main

import (
	"fmt"
	"os"

	"example.com/redact/auth"
)

func main() {
	fmt.Println(auth.Connect(os.Getenv("REDACT_DSN")))
	auth.SetToken(os.Getenv("REDACT_API_TOKEN"))
	fmt.Println(auth.SignIn(&auth.Login{User: "Bob", Password: "hunter2-pw-x", Card: "4111-1111-1111-1111"}, 1250))
	fmt.Println(auth.SignIn(&auth.Login{User: "Eve", Password: "guess-pw-y", Card: "5500-0000-0000-0004"}, 99))
	fmt.Println(auth.Sign([]byte("pk-s3cr3t-bytes"), "hello"))
}
