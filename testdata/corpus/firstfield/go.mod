module example.com/firstfield

go 1.26
