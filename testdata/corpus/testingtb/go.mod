module example.com/testingtb

go 1.26
