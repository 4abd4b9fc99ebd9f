module example.com/deeptree

go 1.26
