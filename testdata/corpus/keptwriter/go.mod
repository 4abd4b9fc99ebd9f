module example.com/keptwriter

go 1.26
