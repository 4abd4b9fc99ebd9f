package gjson_test

import (
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

// TestQueryService is the workload of a JSON query service: at startup it
// registers the custom modifiers its clients use, then answers their
// queries over a few documents, 300 of them, each through Get and the
// Result's accessors. The last query comes from a client that left the
// quote of a modifier's argument open; gjson before v1.6.4 reads past the
// end of the path there (issue 192, CVE-2020-35380) and the process dies.
func TestQueryService(t *testing.T) {
	gjson.AddModifier("upper", func(json, arg string) string {
		return strings.ToUpper(json)
	})
	gjson.AddModifier("mask", func(json, arg string) string {
		if arg != "" {
			return `"` + strings.Repeat("*", len(arg)) + `"`
		}
		return `"***"`
	})
	docs := []string{inventory, accounts, settings}
	queries := [][]string{
		{"store.name", "store.books.#", "store.books.0.title", "store.books.#.price", "store.books.#(price>10)#.title",
			"store.books.#(author%\"*Tol*\").title", "store.books.1.tags|@reverse", "store.open", "store.books.2.price",
			"store.books.@reverse.0.title", "store.name.@upper", "store.books.#.author|@reverse"},
		{"users.#", "users.0.name", "users.#.email", "users.#(age>40).name", "users.1.email.@mask", "users.2.roles",
			"users.#(roles.#>1)#.name", "users.@reverse.0.name", "users.0.address.city", "users.1.age"},
		{"service.port", "service.hosts", "service.hosts.1", "limits.rps", "limits", "features.#", "features.0",
			"service.tls", "@reverse", "limits.burst", "features|@reverse"},
	}
	answered := 0
	for i := 0; i < 300; i++ {
		d := i % len(docs)
		q := queries[d][(i*7/3)%len(queries[d])]
		r := gjson.Get(docs[d], q)
		if r.Exists() {
			answered++
		}
		switch r.Type {
		case gjson.Number:
			_ = r.Float()
		case gjson.JSON:
			_ = len(r.Array())
		default:
			_ = r.String()
		}
	}
	t.Logf("%d of 300 queries answered", answered)
	r := gjson.Get(accounts, `users.0.email.@mask:"full`)
	t.Logf("the last query: %q", r.String())
}

const inventory = `{"store":{"name":"Corner Books","open":true,"books":[
 {"title":"The Hobbit","author":"J. R. R. Tolkien","price":8.99,"tags":["fantasy","classic"]},
 {"title":"Dune","author":"Frank Herbert","price":12.5,"tags":["sf","classic","desert"]},
 {"title":"Neuromancer","author":"William Gibson","price":10.25,"tags":["sf","cyberpunk"]},
 {"title":"The Silmarillion","author":"J. R. R. Tolkien","price":14,"tags":["fantasy"]}]}}`

const accounts = `{"users":[
 {"name":"Ada","email":"ada@example.com","age":36,"roles":["admin","dev"],"address":{"city":"London"}},
 {"name":"Grace","email":"grace@example.com","age":45,"roles":["dev"]},
 {"name":"Linus","email":"linus@example.com","age":54,"roles":["dev","ops"]}]}`

const settings = `{"service":{"port":8080,"hosts":["a.example.com","b.example.com"],"tls":false},
 "limits":{"rps":250,"burst":40},"features":["search","export"]}`
