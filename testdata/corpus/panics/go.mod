module example.com/panics

go 1.26
