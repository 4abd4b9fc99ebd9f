module example.com/maporder118

go 1.18
