module example.com/zeroptr

go 1.26
