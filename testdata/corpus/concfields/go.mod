module example.com/concfields

go 1.26
