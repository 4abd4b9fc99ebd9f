module example.com/inferred118

go 1.18
