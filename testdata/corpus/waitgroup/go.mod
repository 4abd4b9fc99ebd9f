module example.com/waitgroup

go 1.26
