module example.com/rotate

go 1.26
