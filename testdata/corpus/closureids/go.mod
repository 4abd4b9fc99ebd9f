module example.com/closureids

go 1.26
