module example.com/repros

go 1.26
