module example.com/conc64

go 1.26
