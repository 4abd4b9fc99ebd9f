module example.com/reflectown

go 1.26
