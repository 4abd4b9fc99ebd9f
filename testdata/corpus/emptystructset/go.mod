module example.com/emptystructset

go 1.26
