module example.com/sliceview

go 1.26
