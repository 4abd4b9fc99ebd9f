module example.com/errident

go 1.26
