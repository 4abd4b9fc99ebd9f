module example.com/rangefield

go 1.26
