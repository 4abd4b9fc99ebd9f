module example.com/goroutines

go 1.26
