module example.com/go118

go 1.18
