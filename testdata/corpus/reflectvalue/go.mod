module example.com/reflectvalue

go 1.26
