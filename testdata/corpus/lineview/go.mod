module example.com/lineview

go 1.26
