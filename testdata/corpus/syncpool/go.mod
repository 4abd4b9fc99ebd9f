module example.com/syncpool

go 1.26
