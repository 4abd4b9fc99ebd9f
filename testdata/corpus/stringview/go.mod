module example.com/stringview

go 1.26
