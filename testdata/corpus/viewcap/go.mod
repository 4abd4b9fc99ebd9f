module example.com/viewcap

go 1.26
