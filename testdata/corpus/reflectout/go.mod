module example.com/reflectout

go 1.26
