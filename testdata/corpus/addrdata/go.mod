module example.com/addrdata

go 1.26
