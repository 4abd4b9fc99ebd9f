module example.com/context

go 1.26
