module example.com/freshids

go 1.26
