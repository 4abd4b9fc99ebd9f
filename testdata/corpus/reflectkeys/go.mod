module example.com/reflectkeys

go 1.26
