module example.com/reflectrange

go 1.26
