module example.com/format9

go 1.26
