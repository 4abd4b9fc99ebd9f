module example.com/callbacks

go 1.26
